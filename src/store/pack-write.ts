// One small write as one pack: its objects (whole, no deltas) in a pack file and its version-2
// index, two files where loose objects take one each. On a file system where creating a file is the
// cost (a checkpointer's put), that is most of a write. `git gc --auto` folds the packs later.
// Until the caller's ref reaches it, the pack is held by a `.keep` file, as git's receive-pack
// holds a pushed pack: a repack running meanwhile neither deletes it nor reads it as unreachable.
import { nodeCrypto } from './node-crypto.js';
import { closeSync, constants, fsyncSync, mkdirSync, openSync, readdirSync, renameSync, unlinkSync, writeSync, writevSync } from 'node:fs';
import { join } from 'node:path';
import * as zlib from 'node:zlib';
import type { CommitSpec } from './engine.js';
import { holderAlive, ownerRecord, readRecord } from './lock-owner.js';
import { LOOSE_MAX_BYTES, buildCommits, objectId } from './loose-objects.js';
import { rememberIndex } from './object-ids.js';

const TYPE_CODE: Record<string, number> = { commit: 1, tree: 2, blob: 3 };
// the fastest level: a put waits for it; git gc deltifies what repeats and stores the rest as written here
const DEFLATE_LEVEL = 1;
// zlib's window (and hash) sized to the object: setting up the default 256 KB state costs a small object more than compressing it
const deflated = (data: Uint8Array) => {
  const bits = Math.min(15, Math.max(9, Math.ceil(Math.log2(data.byteLength + 262))));
  return zlib.deflateSync(data, { level: DEFLATE_LEVEL, windowBits: bits, memLevel: Math.max(1, bits - 7) });
};
const KEEP_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW;
const crc32 = zlib.crc32 as (data: Uint8Array, value?: number) => number;

// a pack of at most this much data keeps its offsets in the index's 32-bit table (git's large-offset table starts at 2 GiB)
const PACK_MAX_BYTES = 512 * 1024 * 1024;

/** Whether the write goes into one pack here, however many objects it has: up to PACK_MAX_BYTES of data. */
export function fitsPack(specs: readonly CommitSpec[]): boolean {
  let bytes = 0;
  for (const s of specs) for (const f of s.files) if ('data' in f) bytes += f.data.byteLength;
  return bytes <= PACK_MAX_BYTES;
}

/**
 * Writes the commits (blobs, trees, commits) as one pack and its index; parents must exist. The
 * pack's `.keep` file is pushed to `kept`: the caller removes it (releaseKept) once a ref reaches
 * the commits, or once it gives up.
 */
export function writePackedCommits(gitdir: string, specs: readonly CommitSpec[], exists: (oid: string) => boolean, kept: string[]): string[] {
  const objects = new Map<string, { type: string; data: Uint8Array }>();
  const ids = buildCommits(specs, exists, (type, data) => {
    const oid = objectId(type, data);
    objects.set(oid, { type, data });
    return oid;
  });
  writePack(gitdir, objects, kept);
  return ids;
}

/** Removes the `.keep` files writePackedCommits made: the packs are git gc's to fold from now on. */
export function releaseKept(kept: string[]): void {
  for (const path of kept.splice(0)) {
    try {
      unlinkSync(path);
    } catch {
      // gone already
    }
  }
}

/**
 * Removes the `.keep` files a write left when its process died between its pack and its ref (ctx's
 * owner record in them names a process that is gone); a `.keep` someone else made is left alone.
 */
export function releaseAbandoned(gitdir: string): number {
  const dir = join(gitdir, 'objects', 'pack');
  let n = 0;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return 0;
  }
  for (const name of names) {
    if (!/^pack-[0-9a-f]{40}\.keep$/.test(name)) continue;
    try {
      const record = readRecord(join(dir, name));
      if (record === null || holderAlive(record) !== false) continue;
      unlinkSync(join(dir, name));
      n++;
    } catch {
      // released meanwhile
    }
  }
  return n;
}

/**
 * The `.keep` goes in first, then the pack, its index last, each written whole under a temporary
 * name and renamed: git uses a pack only once its index is there, so a reader never sees half of
 * either. The `.keep` first: a repack lists packs by their `.pack` and reads their objects by their
 * index, so a pack it lists before the index is in would otherwise be deleted unread. An object also
 * stored elsewhere is stored again, which freshens it as rewriting a loose one would.
 */
function writePack(gitdir: string, objects: ReadonlyMap<string, { type: string; data: Uint8Array }>, kept: string[]): void {
  const head = Buffer.alloc(12);
  head.write('PACK', 0);
  head.writeUInt32BE(2, 4);
  head.writeUInt32BE(objects.size, 8);
  const parts: Buffer[] = [head];
  const entries: { oid: string; offset: number; crc: number }[] = [];
  let offset = head.length;
  for (const [oid, { type, data }] of objects) {
    const entry = Buffer.concat([entryHeader(TYPE_CODE[type], data.byteLength), deflated(data)]);
    entries.push({ oid, offset, crc: crc32(entry) });
    parts.push(entry);
    offset += entry.length;
  }
  const hash = nodeCrypto().createHash('sha1');
  for (const part of parts) hash.update(part);
  const sum = hash.digest();
  const dir = join(gitdir, 'objects', 'pack');
  const name = join(dir, `pack-${sum.toString('hex')}`);
  mkdirSync(dir, { recursive: true });
  // its holder's record, so that a .keep left by a process that died can be told from a user's; the
  // same pack written twice at once shares it (no O_EXCL), a link planted there is not followed
  const keep = openSync(`${name}.keep`, KEEP_FLAGS, 0o644);
  kept.push(`${name}.keep`);
  try {
    writeSync(keep, ownerRecord());
  } finally {
    closeSync(keep);
  }
  // a write past the loose bound went to fast-import, which (as git by default) fsyncs its pack and index: so do these
  let bytes = 0;
  for (const { data } of objects.values()) bytes += data.byteLength;
  const sync = bytes > LOOSE_MAX_BYTES;
  place(dir, `${name}.pack`, [...parts, sum], sync);
  const idx = indexOf(entries, sum);
  place(dir, `${name}.idx`, [idx], sync);
  rememberIndex(`${name}.idx`, idx);
}

/** An object's type and size, as a pack entry starts: 4 bits of size, then 7 a byte. */
function entryHeader(code: number, size: number): Buffer {
  const out = [(code << 4) | (size & 0x0f)];
  for (size = Math.floor(size / 16); size > 0; size = Math.floor(size / 128)) {
    out[out.length - 1] |= 0x80;
    out.push(size & 0x7f);
  }
  return Buffer.from(out);
}

/** The version-2 index: fan-out, sorted names, CRCs, offsets, the pack's checksum, its own. */
function indexOf(entries: { oid: string; offset: number; crc: number }[], packSum: Buffer): Buffer {
  const sorted = [...entries].sort((a, b) => (a.oid < b.oid ? -1 : a.oid > b.oid ? 1 : 0));
  const n = sorted.length;
  const buf = Buffer.alloc(8 + 256 * 4 + n * 28 + 20);
  buf.writeUInt32BE(0xff744f63, 0);
  buf.writeUInt32BE(2, 4);
  const counts = new Array<number>(256).fill(0);
  for (const e of sorted) counts[parseInt(e.oid.slice(0, 2), 16)]++;
  for (let b = 0, total = 0; b < 256; b++) buf.writeUInt32BE((total += counts[b]), 8 + b * 4);
  let at = 8 + 256 * 4;
  for (const e of sorted) at += buf.write(e.oid, at, 'hex');
  for (const e of sorted) at = buf.writeUInt32BE(e.crc >>> 0, at);
  for (const e of sorted) at = buf.writeUInt32BE(e.offset, at);
  packSum.copy(buf, at);
  return Buffer.concat([buf, nodeCrypto().createHash('sha1').update(buf).digest()]);
}

/** `parts` as the whole of `path`, through a new temporary file beside it (git's tmp_ prefix, which its gc removes when old). */
function place(dir: string, path: string, parts: Buffer[], sync: boolean): void {
  const tmp = join(dir, `tmp_pack_ctx_${process.pid}_${nodeCrypto().randomBytes(6).toString('hex')}`);
  const fd = openSync(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o444);
  try {
    // the parts as they are (a large write is not copied whole once more), however many calls that takes
    for (let rest = parts.filter((p) => p.length > 0); rest.length > 0; ) {
      let n = writevSync(fd, rest);
      while (rest.length > 0 && n >= rest[0].length) n -= rest.shift()!.length;
      if (n > 0) rest[0] = rest[0].subarray(n);
    }
    if (sync) fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    renameSync(tmp, path);
  } catch (e) {
    try {
      unlinkSync(tmp);
    } catch {}
    throw e;
  }
}
