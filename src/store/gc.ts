// Packing and pruning the object store with native git (`git gc`, `git gc --auto`), what the
// objects take on disk, and dropping derived data (ctx/cache, ctx/hooks) of commits that are gone.
import { hostname } from 'node:os';
import { closeSync, lstatSync, openSync, readFileSync, readSync, readdirSync, statSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { gitEnv, run, spawnGit } from './git-process.js';
import { hooksDir } from './capture-state.js';

export interface ObjectStats {
  loose_objects: number;
  packs: number;
  /** bytes the object store takes on disk (allocated blocks, as `du` counts) */
  disk_bytes: number;
}

const LOOSE_NAME = /^[0-9a-f]{38}$/;

/** Loose objects, packs and the disk they take, counted over `objects/`. */
export function objectStats(gitdir: string): ObjectStats {
  const objects = join(gitdir, 'objects');
  const stats: ObjectStats = { loose_objects: 0, packs: 0, disk_bytes: 0 };
  const disk = (path: string) => {
    try {
      const st = lstatSync(path);
      return st.blocks !== undefined ? st.blocks * 512 : st.size;
    } catch {
      return 0; // gone since the listing: a concurrent gc
    }
  };
  for (const dir of list(objects)) {
    if (/^[0-9a-f]{2}$/.test(dir)) {
      for (const name of list(join(objects, dir))) {
        if (!LOOSE_NAME.test(name)) continue;
        stats.loose_objects++;
        stats.disk_bytes += disk(join(objects, dir, name));
      }
    } else if (dir === 'pack') {
      for (const name of list(join(objects, 'pack'))) {
        if (name.endsWith('.pack')) stats.packs++;
        stats.disk_bytes += disk(join(objects, 'pack', name));
      }
    }
  }
  return stats;
}

function list(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/**
 * Whether more than `threshold` loose objects are likely, estimated as `git gc --auto` does: the
 * entries of `objects/17` times 256. One directory read, so it can run after every write.
 */
export function tooManyLoose(gitdir: string, threshold: number): boolean {
  if (threshold <= 0) return false;
  const limit = Math.ceil(threshold / 256);
  let n = 0;
  for (const name of list(join(gitdir, 'objects', '17'))) if (LOOSE_NAME.test(name) && ++n > limit) return true;
  return false;
}

/** git gc --auto's own limit (gc.autoPackLimit): past this many packs it folds them into one. */
export const AUTO_PACK_LIMIT = 50;

/** Whether there are more packs than `git gc --auto` keeps (a write of its own pack each, as a checkpointer's): one directory read. */
export function tooManyPacks(gitdir: string): boolean {
  let n = 0;
  for (const name of list(join(gitdir, 'objects', 'pack'))) if (name.endsWith('.idx') && ++n > AUTO_PACK_LIMIT) return true;
  return false;
}

/** git treats a gc.pid younger than this as a gc still running (gc.c, lock_repo_for_gc). */
const GC_PID_FRESH_MS = 12 * 60 * 60 * 1000;

/**
 * Whether a gc holds the store's gc.pid (a writer's background `gc --auto`): one stat. git would
 * find the same and exit, so a write skips starting it (a process start a write, while it packs).
 */
export function gcRunning(gitdir: string): boolean {
  const path = join(gitdir, 'gc.pid');
  try {
    if (Date.now() - statSync(path).mtimeMs >= GC_PID_FRESH_MS) return false;
    // `<pid> <host>`: on this host, a pid that is gone left it behind (git takes it over then)
    const [pid, host] = readFileSync(path, 'utf8').trim().split(' ');
    if (host === hostname() && /^\d+$/.test(pid)) process.kill(Number(pid), 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * `git gc --auto` with ctx's threshold: git packs the loose objects (and consolidates packs when
 * there are many), in the background unless the store sets `gc.autoDetach false`. Never throws:
 * packing is an optimisation, the write it follows has already succeeded.
 */
export function autoPack(gitdir: string, threshold: number): Promise<void> {
  return new Promise((done) => {
    try {
      const proc = spawnGit(['-c', `gc.auto=${threshold}`, '-c', `gc.autoPackLimit=${AUTO_PACK_LIMIT}`, 'gc', '--auto', '--quiet'], { env: gitEnv(gitdir), stdio: 'ignore' });
      proc.on('error', () => done());
      proc.on('close', () => done());
    } catch {
      done();
    }
  });
}

/** `git gc`: pack everything reachable (refs, reflogs) and prune unreachable loose objects older than `prune` (git's date syntax). */
export async function nativeGc(gitdir: string, prune?: string): Promise<void> {
  await run(gitdir, ['gc', '--quiet', ...(prune === undefined ? [] : [`--prune=${prune}`])], []);
}

const HEX40 = /\b[0-9a-f]{40}\b/g;

/**
 * Derived entries naming a commit that no longer exists: materialize cache files (the ids in their
 * header line) and hook states (their `tip`). `exists` answers for many ids at once.
 */
export async function staleDerived(gitdir: string, exists: (oids: string[]) => Promise<boolean[]>): Promise<string[]> {
  const files: { path: string; ids: string[] }[] = [];
  const cache = join(gitdir, 'ctx', 'cache');
  for (const dir of list(cache)) for (const name of list(join(cache, dir))) {
    const path = join(cache, dir, name);
    files.push({ path, ids: firstLine(path).match(HEX40) ?? [] });
  }
  const hooks = hooksDir(gitdir);
  for (const name of list(hooks)) {
    if (!name.endsWith('.json')) continue;
    const path = join(hooks, name);
    let tip: unknown;
    try {
      tip = (JSON.parse(readFileSync(path, 'utf8')) as { tip?: unknown }).tip;
    } catch {
      continue; // not a state this code can judge
    }
    if (typeof tip === 'string' && /^[0-9a-f]{40}$/.test(tip)) files.push({ path, ids: [tip] });
  }
  const ids = [...new Set(files.flatMap((f) => f.ids))];
  const found = await exists(ids);
  const missing = new Set(ids.filter((_, i) => !found[i]));
  return files.filter((f) => f.ids.some((id) => missing.has(id))).map((f) => f.path);
}

/** Removes derived files (never through a link: unlink removes the link itself). */
export function removeDerived(paths: readonly string[]): number {
  let n = 0;
  for (const p of paths) {
    try {
      unlinkSync(p);
      n++;
    } catch {
      // already gone
    }
  }
  return n;
}

function firstLine(path: string): string {
  try {
    if (!statSync(path).isFile()) return '';
    const fd = openSync(path, 'r');
    try {
      const buf = Buffer.alloc(4096);
      const n = readSync(fd, buf, 0, buf.length, 0);
      const text = buf.toString('latin1', 0, n);
      const nl = text.indexOf('\n');
      return nl < 0 ? text : text.slice(0, nl);
    } finally {
      closeSync(fd);
    }
  } catch {
    return '';
  }
}

/** `ctx.autoPack` when unset: git's own `gc.auto` is 6700, but ctx's objects are small and many (four per checkpoint). */
export const DEFAULT_AUTO_PACK = 1000;
