// One small write as one pack: its objects (whole, no deltas) in a pack file and its version-2
// index, two files where loose objects take one each. On a file system where creating a file is the
// cost (a checkpointer's put), that is most of a write. `git gc --auto` folds the packs later.
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as zlib from 'node:zlib';
import type { CommitSpec } from './engine.js';
import { buildCommits, objectId } from './loose-objects.js';

const TYPE_CODE: Record<string, number> = { commit: 1, tree: 2, blob: 3 };
// the fastest level: a put waits for it; git gc deltifies what repeats and stores the rest as written here
const DEFLATE_LEVEL = 1;
const crc32 = zlib.crc32 as (data: Uint8Array, value?: number) => number;

/** Writes the commits (blobs, trees, commits) as one pack and its index; parents must exist. */
export function writePackedCommits(gitdir: string, specs: readonly CommitSpec[], exists: (oid: string) => boolean): string[] {
  const objects = new Map<string, { type: string; data: Uint8Array }>();
  const ids = buildCommits(specs, exists, (type, data) => {
    const oid = objectId(type, data);
    objects.set(oid, { type, data });
    return oid;
  });
  writePack(gitdir, objects);
  return ids;
}

/**
 * The pack goes in first and its index last, each written whole under a temporary name and renamed:
 * git uses a pack only once its index is there, so a reader never sees half of either. An object
 * also stored elsewhere is stored again, which freshens it as rewriting a loose one would.
 */
function writePack(gitdir: string, objects: ReadonlyMap<string, { type: string; data: Uint8Array }>): void {
  const head = Buffer.alloc(12);
  head.write('PACK', 0);
  head.writeUInt32BE(2, 4);
  head.writeUInt32BE(objects.size, 8);
  const parts: Buffer[] = [head];
  const entries: { oid: string; offset: number; crc: number }[] = [];
  let offset = head.length;
  for (const [oid, { type, data }] of objects) {
    const entry = Buffer.concat([entryHeader(TYPE_CODE[type], data.byteLength), zlib.deflateSync(data, { level: DEFLATE_LEVEL })]);
    entries.push({ oid, offset, crc: crc32(entry) });
    parts.push(entry);
    offset += entry.length;
  }
  const body = Buffer.concat(parts);
  const sum = createHash('sha1').update(body).digest();
  const dir = join(gitdir, 'objects', 'pack');
  const name = join(dir, `pack-${sum.toString('hex')}`);
  mkdirSync(dir, { recursive: true });
  place(dir, `${name}.pack`, [body, sum]);
  place(dir, `${name}.idx`, [indexOf(entries, sum)]);
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
  return Buffer.concat([buf, createHash('sha1').update(buf).digest()]);
}

/** `parts` as the whole of `path`, through a new temporary file beside it (git's tmp_ prefix, which its gc removes when old). */
function place(dir: string, path: string, parts: Buffer[]): void {
  const tmp = join(dir, `tmp_pack_ctx_${process.pid}_${randomBytes(6).toString('hex')}`);
  writeFileSync(tmp, Buffer.concat(parts), { mode: 0o444, flag: 'wx' });
  try {
    renameSync(tmp, path);
  } catch (e) {
    try {
      unlinkSync(tmp);
    } catch {}
    throw e;
  }
}
