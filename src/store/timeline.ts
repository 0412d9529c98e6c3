// The timeline: per principal, every reachable context commit's (created_at, depth, commit), kept
// as derived data under <repo>/ctx/timeline/ so `ctx resolve` binary-searches instead of walking.
// One append-only file of fixed 32-byte records per principal (a resolve reads only its
// principal's file), and `refs`: the ref tips the files cover. Files that do not cover exactly the
// refs the repo has are brought up to date (or rebuilt) before they answer.
import { createHash } from 'node:crypto';
import { closeSync, constants, openSync, readFileSync, readdirSync, rmSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { derivedDir, writeDerived } from './derived.js';
import { tryLock } from './lock-owner.js';

/** created_at (ms, float64), depth in its chain (uint32: the root is 0), the commit id (20 bytes). */
export const RECORD = 32;

export interface TimelineEntry {
  principal: string;
  /** created_at in ms since the epoch */
  t: number;
  /** first-parent depth: the later of two commits of one chain made in the same millisecond is the deeper */
  depth: number;
  oid: string;
}

/** A ref the timeline covers: its value when the files were last brought up to date, and the depth of the commit it names. */
export interface CoveredRef {
  oid: string;
  depth: number;
}

const HEADER = 'ctx-timeline 1\n';

export class TimelineFiles {
  constructor(readonly gitdir: string) {}

  // reads name paths without making them; writes make them through derivedDir (never through a link)
  private dir(make = true): string {
    return make ? derivedDir(this.gitdir, 'timeline') : join(this.gitdir, 'ctx', 'timeline');
  }
  private principalsDir(make = true): string {
    return make ? derivedDir(this.gitdir, 'timeline', 'principals') : join(this.dir(false), 'principals');
  }
  private refsFile(make = true): string {
    return join(this.dir(make), 'refs');
  }

  /** The refs the files cover, or null when they cover nothing known (missing, unreadable, or mid-write). */
  covered(): Map<string, CoveredRef> | null {
    let text: string;
    try {
      text = readFileSync(this.refsFile(false), 'utf8');
    } catch {
      return null;
    }
    if (!text.startsWith(HEADER)) return null;
    const out = new Map<string, CoveredRef>();
    for (const line of text.slice(HEADER.length).split('\n')) {
      if (line === '') continue;
      const m = /^([0-9a-f]{40}) (\d+) (refs\/\S+)$/.exec(line);
      if (!m) return null;
      out.set(m[3], { oid: m[1], depth: Number(m[2]) });
    }
    return out;
  }

  /** A principal's records sorted (time, depth, commit); a torn last record (a writer killed mid-append) is left out. */
  records(principal: string): Buffer {
    let buf: Buffer;
    try {
      buf = readFileSync(this.principalFile(principal, false));
    } catch {
      return Buffer.alloc(0);
    }
    return sortRecords(buf.subarray(0, buf.length - (buf.length % RECORD)));
  }

  /** Every commit id the files hold → its depth. */
  depths(): Map<string, number> {
    const out = new Map<string, number>();
    const dir = this.principalsDir(false);
    let names: string[] = [];
    try {
      names = readdirSync(dir);
    } catch {}
    for (const name of names) {
      const buf = readFileSync(join(dir, name));
      for (let o = 0; o + RECORD <= buf.length; o += RECORD) out.set(buf.toString('hex', o + 12, o + RECORD), buf.readUInt32BE(o + 8));
    }
    return out;
  }

  /**
   * Appends entries and records the refs now covered. The refs file goes first, so a process
   * killed in between leaves files that cover nothing known: the next reader rebuilds them.
   */
  append(entries: readonly TimelineEntry[], covered: ReadonlyMap<string, CoveredRef>): void {
    this.forget();
    for (const [principal, list] of byPrincipal(entries)) {
      const fd = openSync(this.principalFile(principal), constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW, 0o644);
      try {
        writeSync(fd, encode(list));
      } finally {
        closeSync(fd);
      }
    }
    this.writeCovered(covered);
  }

  /** Replaces every file: the timeline of exactly these entries, covering exactly these refs. */
  replace(entries: readonly TimelineEntry[], covered: ReadonlyMap<string, CoveredRef>): void {
    this.forget();
    rmSync(this.principalsDir(), { recursive: true, force: true });
    for (const [principal, list] of byPrincipal(entries)) writeDerived(this.principalFile(principal), sortRecords(encode(list)));
    this.writeCovered(covered);
  }

  /** Held while the files change; null when another live process holds it. */
  lock(): (() => void) | null {
    return tryLock(join(this.dir(), 'lock'), this.dir());
  }

  private forget(): void {
    try {
      unlinkSync(this.refsFile(false));
    } catch {}
  }

  private writeCovered(covered: ReadonlyMap<string, CoveredRef>): void {
    const lines = [...covered].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([ref, c]) => `${c.oid} ${c.depth} ${ref}\n`);
    writeDerived(this.refsFile(), HEADER, ...lines);
  }

  private principalFile(principal: string, make = true): string {
    // any string is a principal: the file is named by its hash
    return join(this.principalsDir(make), createHash('sha1').update(principal).digest('hex'));
  }
}

function byPrincipal(entries: readonly TimelineEntry[]): Map<string, TimelineEntry[]> {
  const out = new Map<string, TimelineEntry[]>();
  for (const e of entries) {
    const list = out.get(e.principal);
    if (list) list.push(e);
    else out.set(e.principal, [e]);
  }
  return out;
}

function encode(list: readonly TimelineEntry[]): Buffer {
  const buf = Buffer.alloc(list.length * RECORD);
  list.forEach((e, i) => {
    buf.writeDoubleBE(e.t, i * RECORD);
    buf.writeUInt32BE(e.depth, i * RECORD + 8);
    buf.write(e.oid, i * RECORD + 12, 20, 'hex');
  });
  return buf;
}

/** Record i's fields. */
export const recordTime = (buf: Buffer, i: number) => buf.readDoubleBE(i * RECORD);
export const recordOid = (buf: Buffer, i: number) => buf.toString('hex', i * RECORD + 12, (i + 1) * RECORD);

function compareRecords(a: Buffer, i: number, b: Buffer, j: number): number {
  const ta = a.readDoubleBE(i * RECORD);
  const tb = b.readDoubleBE(j * RECORD);
  if (ta !== tb) return ta < tb ? -1 : 1;
  const da = a.readUInt32BE(i * RECORD + 8);
  const db = b.readUInt32BE(j * RECORD + 8);
  if (da !== db) return da < db ? -1 : 1;
  return a.compare(b, j * RECORD + 12, (j + 1) * RECORD, i * RECORD + 12, (i + 1) * RECORD);
}

/** Sorted by (time, depth, commit): appends are in time order unless clocks disagree, so a sort is rare. */
function sortRecords(buf: Buffer): Buffer {
  const n = buf.length / RECORD;
  let sorted = true;
  for (let i = 1; i < n && sorted; i++) sorted = compareRecords(buf, i - 1, buf, i) <= 0;
  if (sorted) return buf;
  const order = Array.from({ length: n }, (_, i) => i).sort((i, j) => compareRecords(buf, i, buf, j));
  const out = Buffer.alloc(buf.length);
  order.forEach((from, to) => buf.copy(out, to * RECORD, from * RECORD, (from + 1) * RECORD));
  return out;
}

/** The index of the last record at or before `t` (ms), or -1: a binary search over sorted records. */
export function lastAtOrBefore(buf: Buffer, t: number): number {
  let lo = 0;
  let hi = buf.length / RECORD;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (recordTime(buf, mid) <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}
