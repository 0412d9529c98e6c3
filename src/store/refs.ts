// Refs are the project's own code: git's lock-file protocol (create `<ref>.lock` exclusively,
// compare, write, rename) so that ctx and native git can update the same repo at once.
import { closeSync, constants, existsSync, fstatSync, ftruncateSync, lstatSync, mkdirSync, openSync, readFileSync, readSync, readdirSync, renameSync, rmdirSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { AlreadyExistsError, ConflictError, CtxError, UsageError } from '../errors/index.js';
import { StoreDamage, quoted } from './damage.js';
import { breakDeadLock, makeLock, released } from './lock-owner.js';

/** Every ref name ctx uses is built here. */
export const refs = {
  branch: (name: string) => `refs/heads/${name}`,
  tag: (name: string) => `refs/tags/${name}`,
  notes: 'refs/notes/ctx',
  heads: 'refs/heads/',
  tags: 'refs/tags/',
  remotes: 'refs/remotes/',
  /** remote-tracking refs of one remote: `refs/remotes/<remote>/` */
  remotePrefix: (remote: string) => `refs/remotes/${remote}/`,
  remoteBranch: (remote: string, name: string) => `refs/remotes/${remote}/${name}`,
  /** the notes fetched from a remote, merged into refs/notes/ctx by union */
  remoteNotes: (remote: string) => `refs/notes/remotes/${remote}/ctx`,
  /** the fetch refspecs of a remote, in git's syntax (`+src:dst`) */
  fetchSpecs: (remote: string) => ({
    heads: `+refs/heads/*:refs/remotes/${remote}/*`,
    // a pattern, so a remote without annotations is no error
    notes: `+refs/notes/ctx*:refs/notes/remotes/${remote}/ctx*`,
    // no `+`: a fetch never moves an existing local tag
    tags: 'refs/tags/*:refs/tags/*',
  }),
} as const;

const STALE_LOCK_MS = 10_000;
const HEX40 = /^[0-9a-f]{40}$/;
// a ref file holds an id or `ref: <name>`; anything longer is not one (and is never read whole)
const REF_FILE_MAX = 4096;
// no symlink is followed and a FIFO never blocks the open: what is read is a file of the store
const OPEN_REF = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;
// reads are synchronous: one buffer serves them all
const refBuffer = Buffer.alloc(REF_FILE_MAX + 1);

/** git check-ref-format rules for a branch (or tag) name, plus ctx's: no `refs/` prefix. */
export function checkBranchName(name: string, what = 'branch name', opts: { directory?: boolean } = {}): string {
  const bad = (why: string) => new UsageError(`bad ${what} '${name}': ${why}`);
  if (name === '' || name === '@') throw bad('empty or "@"');
  if (name === 'HEAD') throw bad('HEAD names the current branch');
  if (name.startsWith('refs/')) throw bad('give the name without refs/');
  if (name.startsWith('-')) throw bad('starts with "-"');
  if (name.includes('..')) throw bad('contains ".."');
  if (name.includes('@{')) throw bad('contains "@{"');
  if (name.includes('//') || name.startsWith('/') || name.endsWith('/')) throw bad('empty path component');
  if (name.endsWith('.')) throw bad('ends with "."');
  if (/[\x00-\x20\x7f~^:?*[\\]/.test(name)) throw bad('contains a space, control character or one of ~^:?*[\\');
  const parts = name.split('/');
  parts.forEach((part, i) => {
    if (part.startsWith('.')) throw bad('a component starts with "."');
    if (part.endsWith('.lock')) throw bad('a component ends with ".lock"');
    // each component is a directory or file name (the last one also gets `.lock` while it moves): no file system takes more
    if (Buffer.byteLength(part) > 255) throw bad('a component is longer than 255 bytes');
    if (i === parts.length - 1 && !opts.directory && Buffer.byteLength(part) > 250) throw bad('its last component is longer than 250 bytes (255 with .lock)');
  });
  return name;
}

/**
 * What is wrong with a full ref name (`refs/heads/x`, `HEAD`) by git's check-ref-format rules, or
 * null when git would accept it: for names a remote supplies, which become paths under the store.
 */
export function refNameProblem(ref: string): string | null {
  if (ref === '' || ref === '@') return 'empty or "@"';
  if (!ref.includes('/') && !/^[A-Z_]+$/.test(ref)) return 'one level, and not a name such as HEAD';
  if (ref.startsWith('/') || ref.endsWith('/') || ref.includes('//')) return 'empty path component';
  if (ref.includes('..')) return 'contains ".."';
  if (ref.includes('@{')) return 'contains "@{"';
  if (ref.endsWith('.')) return 'ends with "."';
  if (/[\x00-\x20\x7f~^:?*[\\]/.test(ref)) return 'contains a space, control character or one of ~^:?*[\\';
  for (const part of ref.split('/')) {
    if (part.startsWith('.')) return 'a component starts with "."';
    if (part.endsWith('.lock')) return 'a component ends with ".lock"';
    if (Buffer.byteLength(part) > 255) return 'a component is longer than 255 bytes';
  }
  return null;
}

interface PackedRefs {
  map: Map<string, string>;
  /** the first line that names no ref */
  bad: StoreDamage | null;
  /** the file's inode, size and mtime: git renames a new file in, and mtimes alone repeat within a clock tick */
  stamp: string;
}

/**
 * `mkdir -p` of a ref's directory, raced: git pack-refs (git gc) removes the directories of refs it
 * emptied, so a parent made a moment ago may be gone when its child is made (ENOENT); make them again,
 * as git's own raceproof file creation does. Anything else (a ref file where a directory must be) throws.
 */
function refDirs(dir: string): void {
  for (let attempt = 0; ; attempt++) {
    try {
      mkdirSync(dir, { recursive: true });
      return;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT' || attempt >= 50) throw e;
    }
  }
}

export class RefStore {
  private packed: PackedRefs | null = null;
  constructor(readonly gitdir: string) {}

  /** The oid a ref points to (symbolic refs followed), or null; a ref file that holds neither is damage (StoreDamage). */
  read(ref: string): string | null {
    // a name git would refuse names no ref: it never becomes a path
    if (refNameProblem(ref) !== null) return null;
    for (let depth = 0; depth < 5; depth++) {
      const loose = this.readLoose(ref);
      if (loose === null) return this.readPackedRef(ref);
      if (!loose.startsWith('ref: ')) {
        if (!HEX40.test(loose)) throw garbage(ref, loose);
        return loose;
      }
      const target = loose.slice(5);
      if (refNameProblem(target) !== null) throw garbage(ref, loose);
      ref = target;
    }
    throw new CtxError(`symbolic ref loop at ${ref}`);
  }

  /** A ref's packed value; while packed-refs has a line naming no ref, no absent ref can be told apart from a lost one. */
  private readPackedRef(ref: string): string | null {
    const packed = this.readPacked();
    const oid = packed.map.get(ref);
    if (oid !== undefined) {
      if (!HEX40.test(oid)) throw packedGarbage(ref, oid);
      return oid;
    }
    if (packed.bad) throw packed.bad;
    return null;
  }

  /** Where HEAD points (`refs/heads/main`), or null when HEAD is detached or missing. */
  symbolicTarget(ref = 'HEAD'): string | null {
    let v: string | null;
    try {
      v = this.readLoose(ref);
    } catch (e) {
      if (e instanceof StoreDamage) return null; // a read of it names the damage
      throw e;
    }
    return v?.startsWith('ref: ') ? v.slice(5) : null;
  }

  /** All refs under a prefix (e.g. `refs/heads/`), loose over packed, sorted by name; the first damaged one is thrown. */
  list(prefix: string): { ref: string; oid: string }[] {
    const { refs: found, damaged } = this.scan(prefix);
    if (damaged.length) throw damaged[0];
    return found;
  }

  /**
   * The refs under a prefix that read as object ids, and the damaged ones (a garbage file, a bad packed-refs line), each sorted by name.
   * `looseOnly`: the loose ref files alone, packed-refs not read.
   */
  scan(prefix: string, o: { looseOnly?: boolean } = {}): { refs: { ref: string; oid: string }[]; damaged: StoreDamage[]; symbolic: number; loose: number } {
    const out = new Map<string, string>();
    let loose = 0;
    let symbolic = 0;
    const damaged = new Map<string, StoreDamage>();
    // loose refs first, packed-refs after (git's order): a ref git pack-refs moves from its file into
    // packed-refs meanwhile is then found in one or the other
    const looseNames = new Set<string>();
    // the directories above the prefix are checked once; below it the walk lstats each entry
    const link = this.symlinkAbove(`${prefix.replace(/\/$/, '')}/-`);
    if (link !== null) damaged.set(link, new StoreDamage(link, 'is a symbolic link, not a directory of refs'));
    const walk = (rel: string) => {
      const abs = join(this.gitdir, rel);
      let names: string[];
      try {
        names = readdirSync(abs);
      } catch {
        return;
      }
      for (const n of names) {
        const child = `${rel}/${n}`;
        if (n.endsWith('.lock')) continue;
        let dir: boolean;
        try {
          // lstat: a symlinked directory is not walked into (it is read below, as damage)
          dir = lstatSync(join(this.gitdir, child)).isDirectory();
        } catch (e) {
          if ((e as NodeJS.ErrnoException).code === 'ENOENT') continue; // packed (or deleted) since the listing
          throw e;
        }
        if (dir) walk(child);
        else {
          let v: string | null;
          try {
            v = refNameProblem(child) === null ? this.readLoose(child, true) : null;
          } catch (e) {
            if (!(e instanceof StoreDamage)) throw e;
            looseNames.add(child);
            damaged.set(child, e);
            continue;
          }
          // a symbolic ref (a remote's HEAD) is a name for another, listed under its own
          if (v === null || v.startsWith('ref: ')) {
            symbolic++;
            continue;
          }
          looseNames.add(child);
          if (HEX40.test(v)) {
            out.set(child, v);
            loose++;
          } else damaged.set(child, garbage(child, v));
        }
      }
    };
    if (link === null) walk(prefix.replace(/\/$/, ''));
    const packed = o.looseOnly ? { map: new Map<string, string>(), bad: null } : this.readPacked();
    if (packed.bad) damaged.set('packed-refs', packed.bad);
    for (const [ref, oid] of packed.map) {
      if (!ref.startsWith(prefix) || looseNames.has(ref) || out.has(ref)) continue;
      if (HEX40.test(oid)) out.set(ref, oid);
      else damaged.set(ref, packedGarbage(ref, oid));
    }
    const byName = <T>(m: Map<string, T>) => [...m].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return { refs: byName(out).map(([ref, oid]) => ({ ref, oid })), damaged: byName(damaged).map(([, d]) => d), symbolic, loose };
  }

  /**
   * `read` for many refs under `prefix` from one scan (a clone's 1,000 branches: one walk, not a file open each).
   * A damaged or symbolic ref there is read as `read` reads it; a ref written later is not seen (callers compare-and-swap).
   */
  reader(prefix: string): (ref: string) => string | null {
    const { refs: found, damaged, symbolic } = this.scan(prefix);
    if (damaged.length || symbolic) return (ref) => this.read(ref);
    const map = new Map(found.map((r) => [r.ref, r.oid]));
    return (ref) => (ref.startsWith(prefix) ? (map.get(ref) ?? null) : this.read(ref));
  }

  /**
   * A ref that does not exist yet must not sit under an existing ref, nor over existing ones: git
   * keeps refs as files in directories (`main` and `main/sub` cannot both be). Checked before
   * anything is written for it.
   */
  checkCreatable(ref: string): void {
    if (this.read(ref) !== null) return;
    const name = (r: string) => r.replace(/^refs\/(heads|tags)\//, '');
    const parts = ref.split('/');
    for (let i = 3; i < parts.length; i++) {
      const above = parts.slice(0, i).join('/');
      if (this.read(above) !== null) throw new AlreadyExistsError(`cannot create ${name(ref)}: ${name(above)} exists`, { hint: `a ref cannot sit under another (git keeps refs as files)` });
    }
    const below = this.list(`${ref}/`);
    if (below.length) throw new AlreadyExistsError(`cannot create ${name(ref)}: ${name(below[0].ref)} exists`, { hint: `a ref cannot sit over others (git keeps refs as files)` });
  }

  /**
   * Compare-and-swap: move `ref` to `next` only if it still points to `expected`
   * (null: the ref must not exist). Throws ConflictError when it moved or is locked.
   */
  update(ref: string, next: string, expected: string | null): void {
    this.underLock(ref, () => {
      this.compare(ref, expected);
      return `${next}\n`;
    });
    if (expected === null && ref.startsWith(refs.heads)) this.pointHeadIfUnborn(ref);
  }

  /**
   * Create many refs in one write of packed-refs, as `git clone` does: for a store being created,
   * which nothing else can be writing (no lock per ref). Each must not exist yet (ConflictError).
   */
  createPacked(created: readonly { ref: string; oid: string }[]): void {
    if (created.length === 0) return;
    for (const { ref, oid } of created) {
      const why = refNameProblem(ref);
      if (why !== null) throw new UsageError(`bad ref name '${ref}': ${why}`);
      if (!HEX40.test(oid)) throw new UsageError(`bad object id '${oid}' for ${ref}`);
      this.compare(ref, null);
    }
    this.rewritePacked((m) => created.forEach(({ ref, oid }) => m.set(ref, oid)));
    const first = created.find((c) => c.ref.startsWith(refs.heads));
    if (first) this.pointHeadIfUnborn(first.ref);
  }

  /** HEAD follows the first branch made while it is unborn, so `git clone` and `git fsck` see a branch. */
  pointHeadIfUnborn(ref: string | null): void {
    const target = this.symbolicTarget();
    if (target !== null) {
      try {
        if (this.read(target) !== null) return;
      } catch {
        return; // HEAD names a damaged branch: left for the user to see, not a reason to fail this write
      }
    }
    // the first branch that reads as a commit id: a damaged one beside it does not fail this write
    const next = ref ?? this.scan(refs.heads).refs[0]?.ref;
    if (!next) return;
    try {
      this.underLock('HEAD', () => `ref: ${next}\n`);
    } catch {
      // another writer is moving HEAD: its choice is as good as ours
    }
  }

  /** Delete `ref` if it still points to `expected`. */
  delete(ref: string, expected: string): void {
    this.underLock(ref, () => {
      this.compare(ref, expected);
      if (this.readPacked().map.has(ref)) this.rewritePacked((m) => m.delete(ref));
      return null;
    });
    this.pruneEmptyDirs(dirname(ref));
    if (ref.startsWith(refs.heads)) this.pointHeadIfUnborn(null);
  }

  /**
   * Delete a damaged ref: a loose file that holds neither an object id nor `ref: …`, or a packed
   * line whose value is no object id. Only while it is still damaged (a writer may have repaired it).
   */
  deleteDamaged(ref: string): void {
    const stillDamaged = () => {
      const loose = this.readLoose(ref);
      if (loose !== null) return !loose.startsWith('ref: ') && !HEX40.test(loose);
      const packed = this.readPacked().map.get(ref);
      return packed !== undefined && !HEX40.test(packed);
    };
    this.underLock(ref, () => {
      if (!stillDamaged()) throw new ConflictError(`branch moved: ${ref.replace(/^refs\/(heads|tags)\//, '')} is no longer damaged`, { hint: 'look at it again (ctx branch)' });
      if (this.readPacked().map.has(ref)) this.rewritePacked((m) => m.delete(ref));
      return null;
    });
    this.pruneEmptyDirs(dirname(ref));
    if (ref.startsWith(refs.heads)) this.pointHeadIfUnborn(null);
  }

  private compare(ref: string, expected: string | null) {
    const current = this.read(ref);
    if (current === expected) return;
    const name = ref.replace(/^refs\/(heads|tags)\//, '');
    if (expected === null) throw new ConflictError(`${name} already exists at ctx-${current!.slice(0, 12)}`);
    throw new ConflictError(
      current === null ? `branch moved: ${name} was deleted` : `branch moved: ${name} is now at ctx-${current.slice(0, 12)}`,
      { hint: 'read the new tip and try again (--retry)' },
    );
  }

  /** Hold `<ref>.lock`; `body` returns the new content (renamed over the ref) or null (delete). */
  private underLock(ref: string, body: () => string | null): void {
    const why = refNameProblem(ref);
    if (why !== null) throw new UsageError(`bad ref name '${ref}': ${why}`);
    const path = join(this.gitdir, ref);
    const lock = `${path}.lock`;
    const fd = this.createLock(lock, ref);
    let renamed = false;
    try {
      const content = body();
      if (content === null) {
        if (existsSync(path)) unlinkSync(path);
      } else {
        // the owner record goes: the lock now holds what the ref will
        ftruncateSync(fd, 0);
        writeSync(fd, content, 0);
        closeSync(fd);
        renameSync(lock, path);
        renamed = true;
        return;
      }
    } finally {
      released(lock);
      if (!renamed) {
        try {
          closeSync(fd);
        } catch {}
        try {
          unlinkSync(lock);
        } catch {}
      }
    }
  }

  private createLock(lock: string, ref: string): number {
    const dirs = () => {
      try {
        refDirs(dirname(lock));
      } catch (e) {
        throw new UsageError(`cannot create ${ref}: a ref is in the way (${(e as Error).message.split(',')[0]})`);
      }
    };
    dirs();
    for (let attempt = 0; ; attempt++) {
      try {
        // the record is written beside config, where no reader of refs looks
        makeLock(lock, this.gitdir);
        return openSync(lock, 'r+');
      } catch (e) {
        // git pack-refs removes a directory of refs it emptied: between our mkdir and link, it may go
        if ((e as NodeJS.ErrnoException).code === 'ENOENT' && attempt < 50) {
          dirs();
          continue;
        }
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
        // ctx's own lock names its holder: a dead one's is taken over at once. Another's (native
        // git's) is held for microseconds; one older than 10 s belongs to a process that died.
        if (attempt < 200 && breakDeadLock(lock)) continue;
        const age = lockAge(lock);
        if (attempt < 200 && (age === null || age > STALE_LOCK_MS)) {
          if (age !== null) rmStale(lock);
          continue;
        }
        if (attempt < 50) {
          sleepMs(2 + attempt);
          continue;
        }
        throw new ConflictError(`${ref} is locked by another writer (${lock})`, { hint: 'try again; a lock older than 10 s is removed' });
      }
    }
  }

  /**
   * A loose ref's text, or null when there is no such file. Read only as a small regular file
   * reached through directories, not symlinks: anything else under the name is damage.
   */
  private readLoose(ref: string, parentsChecked = false): string | null {
    let fd: number;
    try {
      fd = openSync(join(this.gitdir, ref), OPEN_REF);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ELOOP') throw new StoreDamage(ref, 'is a symbolic link, not a ref file');
      return null;
    }
    try {
      const st = fstatSync(fd);
      if (st.isDirectory()) return null;
      if (!st.isFile()) throw new StoreDamage(ref, 'is not a regular file');
      if (st.size > REF_FILE_MAX) throw new StoreDamage(ref, `is ${st.size} bytes, not a ref file`);
      const link = parentsChecked ? null : this.symlinkAbove(ref);
      if (link !== null) throw new StoreDamage(ref, `${link} is a symbolic link, not a directory of refs`);
      const n = readSync(fd, refBuffer, 0, refBuffer.length, 0);
      if (n > REF_FILE_MAX) throw new StoreDamage(ref, `is over ${REF_FILE_MAX} bytes, not a ref file`);
      return refBuffer.toString('utf8', 0, n).trim();
    } finally {
      closeSync(fd);
    }
  }

  /** The first directory between the store and a ref that is a symlink (to elsewhere), or null. */
  private symlinkAbove(ref: string): string | null {
    const parts = ref.split('/');
    for (let i = 1; i < parts.length; i++) {
      const dir = parts.slice(0, i).join('/');
      try {
        if (lstatSync(join(this.gitdir, dir)).isSymbolicLink()) return dir;
      } catch {
        return null; // not there: nothing below it to read
      }
    }
    return null;
  }

  private readPacked(): PackedRefs {
    const file = join(this.gitdir, 'packed-refs');
    let stamp = '';
    let text: string | null = null;
    let bad: StoreDamage | null = null;
    let fd: number | null = null;
    try {
      fd = openSync(file, OPEN_REF);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ELOOP') bad = new StoreDamage('packed-refs', 'is a symbolic link, not a file of refs');
    }
    if (fd !== null) {
      try {
        const st = fstatSync(fd);
        if (!st.isFile()) bad = new StoreDamage('packed-refs', 'is not a regular file');
        else {
          stamp = `${st.ino} ${st.size} ${st.mtimeMs}`;
          if (this.packed && this.packed.stamp === stamp) return this.packed;
          text = readFileSync(fd, 'utf8');
        }
      } finally {
        closeSync(fd);
      }
    }
    // values are kept as written: one that is no object id is damage of that ref, reported when it is read
    const map = new Map<string, string>();
    if (text !== null) {
      text
        .split('\n')
        .forEach((line, i) => {
          if (line === '' || line.startsWith('#') || (line.startsWith('^') && HEX40.test(line.slice(1)))) return;
          const sp = line.indexOf(' ');
          const ref = line.slice(sp + 1);
          if (sp > 0 && ref.startsWith('refs/') && !ref.includes(' ')) map.set(ref, line.slice(0, sp));
          else bad ??= new StoreDamage('packed-refs', `line ${i + 1} is not "<object id> <ref>" (${quoted(line)})`);
        });
    }
    this.packed = { map, bad, stamp };
    return this.packed;
  }

  private rewritePacked(edit: (m: Map<string, string>) => void) {
    const file = join(this.gitdir, 'packed-refs');
    const fd = this.createLock(`${file}.lock`, 'packed-refs');
    try {
      const lines = existsSync(file) ? readFileSync(file, 'utf8').split('\n') : [];
      const keep = new Map(this.readPacked().map);
      const had = new Set(keep.keys());
      edit(keep);
      const out: string[] = [];
      let skipPeel = false;
      for (const line of lines) {
        if (line.startsWith('^')) {
          if (!skipPeel) out.push(line);
          continue;
        }
        const ref = line.slice(line.indexOf(' ') + 1);
        skipPeel = line !== '' && !line.startsWith('#') && !keep.has(ref);
        if (!skipPeel && line !== '') out.push(line);
      }
      const added = [...keep].filter(([ref]) => !had.has(ref));
      if (added.length) out.splice(0, out.length, ...sortedPacked(out, added));
      ftruncateSync(fd, 0);
      writeSync(fd, out.join('\n') + '\n', 0);
      closeSync(fd);
      renameSync(`${file}.lock`, file);
      released(`${file}.lock`);
    } catch (e) {
      released(`${file}.lock`);
      try {
        closeSync(fd);
      } catch {}
      try {
        unlinkSync(`${file}.lock`);
      } catch {}
      throw e;
    }
    this.packed = null;
  }

  private pruneEmptyDirs(rel: string) {
    while (/^refs\/[^/]+\/.+/.test(rel)) {
      try {
        rmdirSync(join(this.gitdir, rel));
      } catch {
        return;
      }
      rel = dirname(rel);
    }
  }
}

/**
 * packed-refs lines with `added` refs merged in, sorted by name as git sorts them (its binary search
 * needs it); each ref keeps its `^peeled` line. The header claims only the order: new lines carry no peel.
 */
function sortedPacked(lines: readonly string[], added: readonly [string, string][]): string[] {
  const entries: { ref: Buffer; lines: string[] }[] = [];
  for (const line of lines) {
    if (line.startsWith('#')) continue;
    if (line.startsWith('^') && entries.length) entries[entries.length - 1].lines.push(line);
    else entries.push({ ref: Buffer.from(line.slice(line.indexOf(' ') + 1)), lines: [line] });
  }
  for (const [ref, oid] of added) entries.push({ ref: Buffer.from(ref), lines: [`${oid} ${ref}`] });
  entries.sort((a, b) => Buffer.compare(a.ref, b.ref));
  return ['# pack-refs with: sorted ', ...entries.flatMap((e) => e.lines)];
}

/** A ref file that holds neither an object id nor `ref: …` (git would refuse it too). */
function garbage(ref: string, content: string): StoreDamage {
  return new StoreDamage(ref, `holds ${quoted(content)}, not an object id or "ref: <name>"`);
}

function packedGarbage(ref: string, value: string): StoreDamage {
  return new StoreDamage(ref, `packed-refs holds ${quoted(value)} for it, not an object id`);
}

function rmStale(lock: string) {
  try {
    unlinkSync(lock);
  } catch {}
}

function lockAge(path: string): number | null {
  try {
    return Date.now() - statSync(path).mtimeMs;
  } catch {
    return null;
  }
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));
function sleepMs(ms: number) {
  Atomics.wait(sleeper, 0, 0, ms);
}
