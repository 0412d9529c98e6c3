// Finding objects by hex prefix, and listing them: loose object directories and pack .idx files (version 2).
import { closeSync, existsSync, openSync, readFileSync, readSync, readdirSync } from 'node:fs';
import { constants, inflateSync } from 'node:zlib';
import { basename as basenameOf, dirname as dirnameOf, join } from 'node:path';

export function findByPrefix(gitdir: string, prefix: string): string[] {
  // a repack (git gc, auto-pack) meanwhile removes the packs it merged: look again where objects went
  for (let attempt = 0; ; attempt++) {
    const found = scan(gitdir, prefix);
    if (found !== null || attempt === 3) return found ?? [];
  }
}

/** The objects starting with `prefix`; null when a pack vanished while it was read. */
function scan(gitdir: string, prefix: string): string[] | null {
  const found = new Set<string>();
  const objects = join(gitdir, 'objects');
  const dir = prefix.slice(0, 2);
  if (prefix.length >= 2) {
    try {
      for (const n of readdirSync(join(objects, dir))) if ((dir + n).startsWith(prefix) && n.length === 38) found.add(dir + n);
    } catch {}
  }
  const idx = packIndexes(gitdir);
  if (idx === null) return null;
  for (const buf of idx) for (const oid of searchIdx(buf, prefix)) found.add(oid);
  return [...found].sort();
}

// pack indexes read, by path: a pack named by its checksum never changes (a repack makes new ones,
// so those no longer listed are dropped), and a store of many small packs is not read whole per lookup
const indexes = new Map<string, Buffer>();

/** A pack index this process wrote (`path` as packIndexes joins it): the next lookup need not read it back. */
export function rememberIndex(path: string, buf: Buffer): void {
  indexes.set(path, buf);
}

/** The store's pack indexes, from one listing of objects/pack; null when a pack vanished while they were read (a repack). */
function packIndexes(gitdir: string): Buffer[] | null {
  const packDir = join(gitdir, 'objects', 'pack');
  const packs = list(packDir).filter((n) => n.endsWith('.idx'));
  for (const [path] of indexes) if (dirnameOf(path) === packDir && !packs.includes(basenameOf(path))) indexes.delete(path);
  const out: Buffer[] = [];
  for (const idx of packs) {
    const path = join(packDir, idx);
    let buf = indexes.get(path);
    try {
      buf ??= readFileSync(path);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw e;
    }
    if (/^pack-[0-9a-f]{40,64}\.idx$/.test(idx)) indexes.set(path, buf);
    out.push(buf);
  }
  return out;
}

/**
 * Whether full ids are stored here, from one listing of the packs taken now (a write checks its
 * parent and every carried blob: one listing serves them all); null when a pack vanished meanwhile.
 */
export function objectLookup(gitdir: string): ((oid: string) => boolean) | null {
  const idx = packIndexes(gitdir);
  if (idx === null) return null;
  const objects = join(gitdir, 'objects');
  return (oid) => idx.some((buf) => inIndex(buf, oid)) || existsSync(join(objects, oid.slice(0, 2), oid.slice(2)));
}

/** Of full ids `oids`, those neither loose nor in a pack here: one listing of the packs for all of them. */
export function missingObjects(gitdir: string, oids: readonly string[]): string[] {
  const idx = packIndexes(gitdir) ?? packIndexes(gitdir) ?? [];
  const objects = join(gitdir, 'objects');
  return oids.filter((oid) => !idx.some((buf) => inIndex(buf, oid)) && !existsSync(join(objects, oid.slice(0, 2), oid.slice(2))));
}

/** Binary search of a version-2 pack index's sorted names, within the fan-out range of the first byte. */
function inIndex(buf: Buffer, oid: string): boolean {
  if (buf.length < NAMES || !isIdxV2(buf)) return false;
  const want = Buffer.from(oid, 'hex');
  const first = want[0];
  let lo = first === 0 ? 0 : buf.readUInt32BE(FANOUT + (first - 1) * 4);
  let hi = buf.readUInt32BE(FANOUT + first * 4);
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const c = buf.compare(want, 0, 20, NAMES + mid * 20, NAMES + mid * 20 + 20);
    if (c === 0) return true;
    if (c > 0) hi = mid;
    else lo = mid + 1;
  }
  return false;
}

// a pack index, version 2: magic and version, 256 fan-out counts, then the sorted 20-byte names
const FANOUT = 8;
const NAMES = FANOUT + 256 * 4;
const isIdxV2 = (buf: Buffer) => buf.readUInt32BE(0) === 0xff744f63 && buf.readUInt32BE(4) === 2;
const nameAt = (buf: Buffer, i: number) => buf.toString('hex', NAMES + i * 20, NAMES + i * 20 + 20);

function searchIdx(buf: Buffer, prefix: string): string[] {
  if (!isIdxV2(buf)) return [];
  const first = parseInt(prefix.slice(0, 2).padEnd(2, '0'), 16);
  const lastFirst = prefix.length >= 2 ? first : parseInt(prefix[0] + 'f', 16);
  const lo = first === 0 ? 0 : buf.readUInt32BE(FANOUT + (first - 1) * 4);
  const hi = buf.readUInt32BE(FANOUT + lastFirst * 4);
  const out: string[] = [];
  for (let i = lo; i < hi; i++) {
    const oid = nameAt(buf, i);
    if (oid.startsWith(prefix)) out.push(oid);
  }
  return out;
}

/** Every object id a pack's index lists (none for an index that is not version 2). */
export function packIndexObjects(idx: string): string[] {
  const buf = readFileSync(idx);
  if (!isIdxV2(buf)) return [];
  return Array.from({ length: buf.readUInt32BE(FANOUT + 255 * 4) }, (_, i) => nameAt(buf, i));
}

/** Whether the store holds more than `max` objects, counted only as far as needed: packed ones from each index's fan-out header (an index not read as version 2: more than any bound), loose ones by name. */
export function objectsOver(gitdir: string, max: number): boolean {
  const objects = join(gitdir, 'objects');
  let n = 0;
  for (const name of list(join(objects, 'pack'))) if (name.endsWith('.idx') && (n += packIndexCount(join(objects, 'pack', name))) > max) return true;
  for (const dir of list(objects)) if (/^[0-9a-f]{2}$/.test(dir) && (n += list(join(objects, dir)).length) > max) return true;
  return false;
}

/** The number of objects a pack index names, from its header alone; Infinity when it cannot be read as version 2. */
function packIndexCount(idx: string): number {
  const head = Buffer.alloc(NAMES);
  let fd: number | undefined;
  try {
    fd = openSync(idx, 'r');
    if (readSync(fd, head, 0, NAMES, 0) !== NAMES || !isIdxV2(head)) return Infinity;
  } catch {
    return Infinity;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  return head.readUInt32BE(FANOUT + 255 * 4);
}

/** Every loose object's id, sorted. */
export function looseObjects(gitdir: string): string[] {
  const objects = join(gitdir, 'objects');
  const oids: string[] = [];
  for (const dir of list(objects)) if (/^[0-9a-f]{2}$/.test(dir)) for (const n of list(join(objects, dir))) if (/^[0-9a-f]{38}$/.test(n)) oids.push(dir + n);
  return oids.sort();
}

function list(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/**
 * The type of a loose object from its header (`commit 123\0…`), read in-process; null when it is not
 * loose or its first bytes do not inflate (an engine read then says which). Spares a reader that
 * only checks a ref's target starting a git process or loading isomorphic-git.
 */
export function looseType(gitdir: string, oid: string): string | null {
  let fd: number;
  try {
    fd = openSync(join(gitdir, 'objects', oid.slice(0, 2), oid.slice(2)), 'r');
  } catch {
    return null;
  }
  try {
    const head = Buffer.alloc(64);
    const n = readSync(fd, head, 0, 64, 0);
    const text = inflateSync(head.subarray(0, n), { finishFlush: constants.Z_SYNC_FLUSH }).toString('latin1');
    const m = /^(blob|tree|commit|tag) \d+\0/.exec(text);
    return m ? m[1] : null;
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}
