// Small writes in-process, as `git hash-object -w` would: loose objects, zlib-deflated and named by
// their SHA-1. A checkpoint or a hook call writes a handful of objects; starting `git fast-import`
// for them costs more than the write (two processes: fast-import unpacks small packs itself). And the
// reads of such objects: a hook reads back what the last hooks wrote, without starting `git cat-file`.
import { nodeCrypto } from './node-crypto.js';
import { linkSync, lstatSync, mkdirSync, readFileSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync, inflateSync } from 'node:zlib';
import type { CommitSpec, GitObject, ObjectType, TreeFile } from './engine.js';
import { entryOf, groupTreeFiles, serializeCommit } from './tree-layout.js';

/** The data a write may hold and still be written as loose objects (past it, fast-import takes it). */
export const LOOSE_MAX_BYTES = 4 * 1024 * 1024;

/**
 * Whether a batch is small enough to write here: a few objects named by id (a state write's) are
 * checked to exist one by one; any number of `known` ones (just read from the store) are not checked.
 */
export function fitsLoose(specs: readonly CommitSpec[], known = false): boolean {
  if (specs.length > 16) return false;
  let bytes = 0;
  let named = 0;
  for (const s of specs) for (const f of s.files) {
    if ('data' in f) bytes += f.data.byteLength;
    else if (++named > 64 && !known) return false;
  }
  return bytes <= LOOSE_MAX_BYTES;
}

/** Writes the commits (blobs, trees, commits) as loose objects; parents must exist. */
export function writeLooseCommits(gitdir: string, specs: readonly CommitSpec[], exists: (oid: string) => boolean): string[] {
  return buildCommits(specs, exists, (type, data) => writeObject(gitdir, type, data));
}

/** The commits' objects (blobs, trees, commits) handed to `put`, which stores one and returns its id; parents must exist. */
export function buildCommits(specs: readonly CommitSpec[], exists: (oid: string) => boolean, put: (type: string, data: Uint8Array) => string): string[] {
  const ids: string[] = [];
  for (const spec of specs) {
    const { root, dirs } = groupTreeFiles(spec.files);
    const entries: TreeEntryOut[] = [];
    const stored = (f: TreeFile) => {
      if ('data' in f) return { mode: '100644', oid: put('blob', f.data) };
      const e = entryOf(f);
      if (!exists(e.oid)) throw new Error(`object ${e.oid} not found`);
      return e;
    };
    for (const [name, f] of root) entries.push({ name, ...stored(f) });
    for (const [dir, files] of dirs) {
      const sub = [...files].map(([name, f]) => ({ name, ...stored(f) }));
      entries.push({ mode: '40000', name: dir, oid: put('tree', treeBytes(sub)) });
    }
    const tree = put('tree', treeBytes(entries));
    const parents = spec.parents.map((p) => {
      if (typeof p !== 'string') {
        if (!(p.index >= 0 && p.index < ids.length)) throw new Error(`parent index ${p.index} is not an earlier commit`);
        return ids[p.index];
      }
      if (!exists(p)) throw new Error(`commit ${p} not found`);
      return p;
    });
    ids.push(put('commit', serializeCommit(tree, parents, spec)));
  }
  return ids;
}

interface TreeEntryOut {
  mode: string;
  name: string;
  oid: string;
}

/** git's tree order: by name, a subtree compared as if its name ended in "/". */
function treeBytes(entries: TreeEntryOut[]): Buffer {
  const key = (e: TreeEntryOut) => Buffer.from(e.mode === '40000' ? `${e.name}/` : e.name);
  const sorted = [...entries].sort((a, b) => Buffer.compare(key(a), key(b)));
  return Buffer.concat(sorted.flatMap((e) => [Buffer.from(`${e.mode} ${e.name}\0`), Buffer.from(e.oid, 'hex')]));
}

/** An object's id, as `git hash-object -t TYPE` computes it. */
export const objectId = (type: string, data: Uint8Array): string => nodeCrypto().createHash('sha1').update(`${type} ${data.byteLength}\0`).update(data).digest('hex');

/** One object, loose, as `git hash-object -w -t TYPE` writes it; returns its id. */
export function writeObject(gitdir: string, type: string, data: Uint8Array): string {
  const body = Buffer.concat([Buffer.from(`${type} ${data.byteLength}\0`), data]);
  const oid = objectId(type, data);
  const dir = join(gitdir, 'objects', oid.slice(0, 2));
  const path = join(dir, oid.slice(2));
  // an object already here is freshened, as git does: a concurrent prune then sees it as new, not as old garbage
  if (freshen(path)) return oid;
  const deflated = deflateSync(body);
  // a concurrent `git gc` removes empty object directories (and old tmp files): make it again and retry
  for (let attempt = 0; ; attempt++) {
    try {
      writeLoose(dir, path, oid, deflated);
      return oid;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT' || attempt >= 20) throw e;
    }
  }
}

function freshen(path: string): boolean {
  try {
    const now = new Date();
    utimesSync(path, now, now);
    return true;
  } catch {
    return false; // not here (or packed meanwhile): written anew
  }
}

function writeLoose(dir: string, path: string, oid: string, deflated: Buffer): void {
  mkdirSync(dir, { recursive: true });
  // written whole under a temporary name, then linked into place, as git does: never half an object
  const tmp = join(dir, `tmp_obj_${process.pid}_${oid.slice(2, 10)}`);
  writeFileSync(tmp, deflated, { mode: 0o444 });
  try {
    linkSync(tmp, path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  } finally {
    try {
      unlinkSync(tmp);
    } catch {}
  }
}

/** Loose objects larger than this (deflated), or inflating past the second, are left to git, which streams them. */
const MAX_LOOSE_READ = 1 << 20;
const MAX_LOOSE_INFLATED = 16 << 20;
const LOOSE_HEADER = /^(blob|tree|commit) (\d+)$/;

/**
 * A loose object read in-process, as `git cat-file --batch` gives it; null when it is not loose or
 * anything about it is off (a link, no inflate or one past 16 MiB, a bad header, a tag, an id its
 * bytes do not hash to): git then reads it and says what is wrong, as it did before this shortcut.
 */
export function readLoose(gitdir: string, oid: string): GitObject | null {
  if (!/^[0-9a-f]{40}$/.test(oid)) return null;
  const path = join(gitdir, 'objects', oid.slice(0, 2), oid.slice(2));
  // a link or a special file where an object should be, and a deflate bomb, are git's to judge
  const st = lstatSync(path, { throwIfNoEntry: false });
  if (!st?.isFile() || st.size > MAX_LOOSE_READ) return null;
  let body: Buffer;
  try {
    body = inflateSync(readFileSync(path), { maxOutputLength: MAX_LOOSE_INFLATED });
  } catch {
    return null;
  }
  const nul = body.indexOf(0);
  const m = nul > 0 && nul < 32 ? LOOSE_HEADER.exec(body.toString('latin1', 0, nul)) : null;
  if (!m || Number(m[2]) !== body.length - nul - 1) return null;
  if (nodeCrypto().createHash('sha1').update(body).digest('hex') !== oid) return null;
  return { type: m[1] as ObjectType, data: body.subarray(nul + 1) };
}
