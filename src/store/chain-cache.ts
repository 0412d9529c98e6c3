// The materialize cache of a chain whose format joins by byte append: one append-only data file per
// (walk base, format) under <repo>/ctx/cache/chains/, and an index of (commit, end offset, segment
// hash). Every tip of the chain is a prefix of it, so a new tip costs the cached bytes plus its new
// artifacts, and the cache grows with the chain, not with the number of tips materialized. Derived
// data: a segment whose bytes do not match its hash ends the usable prefix; never trusted over the repo.
import { createHash } from 'node:crypto';
import { closeSync, fstatSync, ftruncateSync, openSync, readSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { derivedDir, writeDerived } from './derived.js';
import { tryLock } from './lock-owner.js';

const RECORD = 20 + 8 + 16;
const segmentHash = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest().subarray(0, 16);

export interface ChainEntry {
  oid: string;
  end: number;
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
    const key = createHash('sha256').update(`${base} ${format}`).digest('hex').slice(0, 40);
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
   * The bytes of the first `n` indexed commits, each segment checked against its hash; null when the
   * files do not hold them whole (then the caller reads the repo).
   */
  prefix(n: number): Uint8Array | null {
    if (n === 0) return new Uint8Array(0);
    try {
      const idx = this.indexBytes ?? this.readIndex();
      if (idx.length < n * RECORD) return null;
      const end = Number(idx.readBigUInt64BE((n - 1) * RECORD + 20));
      const bytes = readWhole(this.data, end);
      if (bytes.length < end) return null;
      let start = 0;
      for (let i = 0; i < n; i++) {
        const at = i * RECORD;
        const stop = Number(idx.readBigUInt64BE(at + 20));
        if (stop < start || !segmentHash(bytes.subarray(start, stop)).equals(idx.subarray(at + 28, at + RECORD))) return null;
        start = stop;
      }
      return bytes;
    } catch {
      return null;
    }
  }

  /**
   * Appends commits after the last indexed one (`after` must be it: a fork that left the chain
   * elsewhere is not cached here). Data first, then the index, under a lock; a writer that finds
   * the lock held leaves the cache to the holder. Failures cost time, never correctness.
   */
  append(after: string | null, segments: readonly { oid: string; bytes: Uint8Array }[]): void {
    if (segments.length === 0) return;
    let release: (() => void) | null = null;
    try {
      release = tryLock(`${this.index}.lock`, derivedDir(this.gitdir, 'cache', 'chains'));
      if (!release) return;
      const entries = this.entries();
      const last = entries.length ? entries[entries.length - 1] : null;
      if ((last?.oid ?? null) !== after) return;
      let end = last?.end ?? 0;
      const dataFd = openSync(this.data, entries.length ? 'r+' : 'w');
      try {
        // bytes past the last indexed segment (a crash between the two writes) are overwritten
        for (const s of segments) {
          writeSync(dataFd, s.bytes, 0, s.bytes.length, end);
          end += s.bytes.length;
        }
        ftruncateSync(dataFd, end);
      } finally {
        closeSync(dataFd);
      }
      const records = Buffer.alloc(segments.length * RECORD);
      let at = last?.end ?? 0;
      segments.forEach((s, i) => {
        at += s.bytes.length;
        records.write(s.oid, i * RECORD, 20, 'hex');
        records.writeBigUInt64BE(BigInt(at), i * RECORD + 20);
        segmentHash(s.bytes).copy(records, i * RECORD + 28);
      });
      const idxFd = openSync(this.index, entries.length ? 'r+' : 'w');
      try {
        writeSync(idxFd, records, 0, records.length, entries.length * RECORD);
        ftruncateSync(idxFd, (entries.length + segments.length) * RECORD);
      } finally {
        closeSync(idxFd);
      }
    } catch {
      // a cache that cannot be written (read-only store, a link planted in ctx/) costs time only
    } finally {
      release?.();
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

/** A file's bytes (at most `limit`), read through one descriptor. */
function readWhole(path: string, limit = Infinity): Buffer {
  const fd = openSync(path, 'r');
  try {
    const size = Math.min(fstatSync(fd).size, limit);
    const buf = Buffer.allocUnsafe(size);
    let got = 0;
    while (got < size) {
      const n = readSync(fd, buf, got, size - got, got);
      if (n === 0) break;
      got += n;
    }
    return buf.subarray(0, got);
  } finally {
    closeSync(fd);
  }
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
