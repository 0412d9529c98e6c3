// The materialize cache of a chain whose format joins by byte append: one append-only data file per
// (walk base, format) under <repo>/ctx/cache/chains/, and an index of (commit, end offset, CRC-32 of
// the data up to that end). Every tip of the chain is a prefix of it, so a new tip costs the cached
// bytes plus its new artifacts, and the cache grows with the chain, not with the number of tips
// materialized. Derived data: a prefix whose bytes do not match its CRC is not used; never trusted
// over the repo.
import { createHash } from 'node:crypto';
import { closeSync, fstatSync, ftruncateSync, openSync, readSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import * as zlib from 'node:zlib';
import { derivedDir, writeDerived } from './derived.js';
import { tryLock } from './lock-owner.js';
import { CtxError } from '../errors/index.js';

const RECORD = 20 + 8 + 4;
// one running CRC over the whole data: a prefix is checked in one native pass (zlib.crc32: node 20.15+)
const crc32: (data: Uint8Array, value?: number) => number = zlib.crc32 ?? jsCrc32;

export interface ChainEntry {
  oid: string;
  end: number;
}

/** Appends to a chain cache under its lock: bytes go to the data file as they come, the index at close. */
export interface ChainWriter {
  /** the bytes of the next commit (in one or more calls), copied or written before the call returns */
  write(bytes: Uint8Array): void;
  /** the commit whose bytes end here */
  mark(oid: string): void;
  /** Writes the index; the data file then holds `end` bytes, all indexed. */
  close(): void;
  /** Leaves the index as it was (bytes past it are overwritten by the next writer). */
  abort(): void;
  /** The data file's bytes so far, read back through the writer's own descriptor. */
  read(): Buffer;
  /** The same bytes handed to `write` a few megabytes at a time. */
  copyTo(write: (chunk: Uint8Array) => void): void;
}

export class ChainCache {
  private readonly data: string;
  private readonly index: string;
  /** the index file as last read: entries() and prefix() read it once between them */
  private indexBytes: Buffer | null = null;

  /** `base`: the oldest commit of the walk (a root, a compaction, a snapshot). */
  constructor(
    private readonly gitdir: string,
    base: string,
    format: string,
  ) {
    // v2: CRC-32 records (v1's per-segment SHA-256 files are left alone, never read)
    const key = createHash('sha256').update(`${base} ${format} v2`).digest('hex').slice(0, 40);
    const dir = join(gitdir, 'ctx', 'cache', 'chains');
    this.data = join(dir, `${key}.data`);
    this.index = join(dir, `${key}.idx`);
  }

  /** The indexed commits, oldest first (an index cut short by a crash ends at its last whole record). */
  entries(): ChainEntry[] {
    let buf: Buffer;
    try {
      buf = this.readIndex();
    } catch {
      return [];
    }
    const out: ChainEntry[] = [];
    for (let at = 0; at + RECORD <= buf.length; at += RECORD) out.push({ oid: buf.toString('hex', at, at + 20), end: Number(buf.readBigUInt64BE(at + 20)) });
    return out;
  }

  /**
   * The bytes of the first `n` indexed commits, checked against the CRC recorded at the n-th; null
   * when the files do not hold them whole (then the caller reads the repo).
   */
  prefix(n: number): Uint8Array | null {
    if (n === 0) return new Uint8Array(0);
    try {
      const { end, crc } = this.record(n);
      const bytes = readWhole(this.data, end);
      return bytes.length === end && crc32(bytes) === crc ? bytes : null;
    } catch {
      return null;
    }
  }

  /** Whether the files hold the first `n` indexed commits whole (their CRC checked a block at a time, never held whole). */
  prefixOk(n: number): boolean {
    if (n === 0) return true;
    try {
      const { end, crc } = this.record(n);
      const fd = openSync(this.data, 'r');
      try {
        let got = 0;
        return eachBlock(fd, end, (b) => void (got = crc32(b, got))) === end && got === crc;
      } finally {
        closeSync(fd);
      }
    } catch {
      return false;
    }
  }

  /** The first `n` indexed commits' bytes (checked with prefixOk) handed to `write` a block at a time. */
  copyPrefix(n: number, write: (chunk: Uint8Array) => void): void {
    if (n === 0) return;
    const { end } = this.record(n);
    const fd = openSync(this.data, 'r');
    try {
      // appends only ever add after `end`: the bytes checked are the bytes copied
      if (eachBlock(fd, end, write) !== end) throw new CtxError('the chain cache was cut short while it was read; run again');
    } finally {
      closeSync(fd);
    }
  }

  /** The n-th index record: where the n-th commit's bytes end, and the CRC of all bytes up to there. */
  private record(n: number): { end: number; crc: number } {
    const idx = this.indexBytes ?? this.readIndex();
    if (idx.length < n * RECORD) throw new CtxError(`the chain cache indexes fewer than ${n} commits`);
    const at = (n - 1) * RECORD;
    return { end: Number(idx.readBigUInt64BE(at + 20)), crc: idx.readUInt32BE(at + 28) };
  }

  /**
   * Appends commits after the last indexed one (`after` must be it: a fork that left the chain
   * elsewhere is not cached here). A writer that finds the lock held leaves the cache to the holder.
   * Failures cost time, never correctness.
   */
  append(after: string | null, segments: readonly { oid: string; bytes: Uint8Array }[]): void {
    if (segments.length === 0) return;
    const w = this.writer(after);
    if (!w) return;
    try {
      for (const s of segments) {
        w.write(s.bytes);
        w.mark(s.oid);
      }
      w.close();
    } catch {
      w.abort();
    }
  }

  /**
   * A writer after the last indexed commit, which must be `after` (null: the cache starts again
   * empty), under the cache's lock; null when the lock is held, the chain moved on, or the files
   * cannot be written. Data first, then the index: a crash between them leaves unindexed bytes,
   * which the next writer overwrites.
   */
  writer(after: string | null): ChainWriter | null {
    let release: (() => void) | null = null;
    let fd: number | null = null;
    try {
      release = tryLock(`${this.index}.lock`, derivedDir(this.gitdir, 'cache', 'chains'));
      if (!release) return null;
      if (after === null) this.reset();
      const entries = this.entries();
      const last = entries.length ? entries[entries.length - 1] : null;
      if ((last?.oid ?? null) !== after) {
        release();
        return null;
      }
      const base = entries.length;
      const idx = this.indexBytes!;
      let end = last?.end ?? 0;
      let crc = last ? idx.readUInt32BE((base - 1) * RECORD + 28) : 0;
      fd = openSync(this.data, base ? 'r+' : 'w+');
      const dataFd = fd;
      let records = Buffer.allocUnsafe(RECORD * 1024);
      let n = 0;
      // segments are copied into a megabyte of staging and written a megabyte at a time: one write
      // each would cost a syscall each, and the caller's bytes may not outlive the call
      const stage = Buffer.allocUnsafe(1 << 20);
      let staged = 0;
      let written = end;
      const write = (buf: Uint8Array) => {
        for (let at = 0; at < buf.length; ) at += writeSync(dataFd, buf, at, buf.length - at, written + at);
        written += buf.length;
      };
      const flush = () => {
        write(stage.subarray(0, staged));
        staged = 0;
      };
      const done = () => {
        closeSync(dataFd);
        release?.();
        release = null;
      };
      return {
        write: (bytes) => {
          if (staged + bytes.length > stage.length) flush();
          if (bytes.length >= stage.length) write(bytes);
          else staged += Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).copy(stage, staged);
          end += bytes.length;
          crc = crc32(bytes, crc);
        },
        mark: (oid) => {
          if ((n + 1) * RECORD > records.length) records = Buffer.concat([records, Buffer.allocUnsafe(records.length)]);
          const at = n++ * RECORD;
          records.write(oid, at, 20, 'hex');
          // an offset past 2^32 in two halves: a BigInt per record costs more than the rest of it
          records.writeUInt32BE(Math.floor(end / 2 ** 32), at + 20);
          records.writeUInt32BE(end >>> 0, at + 24);
          records.writeUInt32BE(crc, at + 28);
        },
        read: () => {
          flush();
          return readAll(dataFd, end);
        },
        copyTo: (out) => {
          flush();
          if (eachBlock(dataFd, end, out) !== end) throw new Error('the chain cache file was cut short');
        },
        close: () => {
          try {
            flush();
            ftruncateSync(dataFd, end);
            const idxFd = openSync(this.index, base ? 'r+' : 'w');
            try {
              writeSync(idxFd, records, 0, n * RECORD, base * RECORD);
              ftruncateSync(idxFd, (base + n) * RECORD);
            } finally {
              closeSync(idxFd);
            }
          } finally {
            done();
          }
        },
        abort: done,
      };
    } catch {
      // a cache that cannot be written (read-only store, a link planted in ctx/) costs time only
      if (fd !== null) closeSync(fd);
      release?.();
      return null;
    }
  }

  private readIndex(): Buffer {
    this.indexBytes = null;
    return (this.indexBytes = readWhole(this.index));
  }

  /** Starts the chain's cache again (its first segments were not the ones indexed). */
  reset(): void {
    this.indexBytes = null;
    for (const f of [this.index, this.data])
      try {
        unlinkSync(f);
      } catch {}
  }
}

/** CRC-32 (IEEE, as zlib's) for a node without zlib.crc32. */
let table: Int32Array | undefined;
function jsCrc32(data: Uint8Array, value = 0): number {
  table ??= Int32Array.from({ length: 256 }, (_, n) => {
    for (let k = 0; k < 8; k++) n = n & 1 ? 0xedb88320 ^ (n >>> 1) : n >>> 1;
    return n;
  });
  let c = ~value;
  for (let i = 0; i < data.length; i++) c = table[(c ^ data[i]) & 0xff] ^ (c >>> 8);
  return ~c >>> 0;
}

/** A file's bytes (at most `limit`), read through one descriptor. */
function readWhole(path: string, limit = Infinity): Buffer {
  const fd = openSync(path, 'r');
  try {
    return readAll(fd, Math.min(fstatSync(fd).size, limit));
  } finally {
    closeSync(fd);
  }
}

/** The first `end` bytes of a file, 4 MiB at a time, each block to `each` (a new buffer each time); how many were read. */
function eachBlock(fd: number, end: number, each: (block: Buffer) => void): number {
  let at = 0;
  while (at < end) {
    const buf = Buffer.allocUnsafe(Math.min(4 << 20, end - at));
    const n = readSync(fd, buf, 0, buf.length, at);
    if (n === 0) break;
    each(buf.subarray(0, n));
    at += n;
  }
  return at;
}

function readAll(fd: number, size: number): Buffer {
  const buf = Buffer.allocUnsafe(size);
  let got = 0;
  while (got < size) {
    const n = readSync(fd, buf, got, size - got, got);
    if (n === 0) break;
    got += n;
  }
  return buf.subarray(0, got);
}

/**
 * Which chain cache holds the context of a recent tip: `<tip> <stop> <format> <base> <n>` lines, so
 * a tip materialized before (or one a few deltas past it) needs no walk of the whole chain. A
 * commit's history never changes, so what a line says stays true; it is still checked against the
 * chain's index before use. At most HEADS_KEPT lines are kept.
 */
const HEADS_KEPT = 256;

export interface ChainHead {
  tip: string;
  stop: string;
  format: string;
  base: string;
  /** commits in the context: the first n of the base's index */
  n: number;
}

export class ChainHeads {
  private readonly file: string;

  constructor(private readonly gitdir: string) {
    this.file = join(gitdir, 'ctx', 'cache', 'chains', 'heads');
  }

  all(): ChainHead[] {
    let text: string;
    try {
      text = readWhole(this.file).toString('utf8');
    } catch {
      return [];
    }
    const out: ChainHead[] = [];
    for (const line of text.split('\n')) {
      const [tip, stop, format, base, n] = line.split(' ');
      if (/^[0-9a-f]{40}$/.test(tip ?? '') && /^[0-9a-f]{40}$/.test(base ?? '') && /^\d+$/.test(n ?? '') && stop && format) out.push({ tip, stop, format, base, n: Number(n) });
    }
    return out;
  }

  record(head: ChainHead): void {
    try {
      derivedDir(this.gitdir, 'cache', 'chains');
      const all = this.all();
      // a head already recorded as it is: nothing to write
      if (all.some((h) => h.tip === head.tip && h.stop === head.stop && h.format === head.format && h.base === head.base && h.n === head.n)) return;
      const kept = all.filter((h) => !(h.tip === head.tip && h.stop === head.stop && h.format === head.format));
      // one order whatever the order of the calls (the file is derived data: equal input, equal bytes);
      // past HEADS_KEPT lines, the first ones go (an evicted head costs a walk, nothing else)
      const lines = [...kept, head].map((h) => `${h.tip} ${h.stop} ${h.format} ${h.base} ${h.n}\n`).sort();
      writeDerived(this.file, lines.slice(-HEADS_KEPT).join(''));
    } catch {
      // derived data: a heads file that cannot be written costs a walk next time
    }
  }
}
