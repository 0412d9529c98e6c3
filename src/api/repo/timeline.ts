// The timeline kept up to date: appended to by writes (recordWrite, from api/write/write.ts), and before a
// read compared with the refs, then extended or rebuilt (withTimeline). The files are store/timeline.ts.
import type { Meta } from '../../core/meta.js';
import { ConflictError } from '../../errors/index.js';
import { parseMeta } from '../../store/context-commits.js';
import { StoreDamage } from '../../store/damage.js';
import { refs } from '../../store/refs.js';
import { TimelineFiles, type CoveredRef, type TimelineEntry } from '../../store/timeline.js';
import type { RepoContext } from './repo-context.js';

/**
 * After a write moved `ref` from `before` to the last of `commits` (a chain, oldest first): the
 * commits appended to the timeline, when it covered `ref` at `before`. Otherwise, or when another
 * process holds the timeline, nothing: the next resolve sees the refs moved and catches up.
 */
export function recordWrite(ctx: RepoContext, ref: string, before: string | null, commits: readonly { oid: string; parent: string | null; meta: Meta }[]): void {
  const files = new TimelineFiles(ctx.gitdir);
  try {
    if (commits.length === 0 || files.covered() === null) return;
    const release = files.lock();
    if (!release) return;
    try {
      const covered = files.covered();
      if (!covered || (covered.get(ref)?.oid ?? null) !== before) return;
      const first = commits[0].parent;
      // the parent's depth: it must be a tip the timeline covers, else it may not be in it
      const base = first === null ? -1 : [covered.get(ref), ...covered.values()].find((c) => c?.oid === first)?.depth;
      if (base === undefined) return;
      const entries = commits.map((c, i) => ({ principal: c.meta.principal, t: Date.parse(c.meta.created_at), depth: base + 1 + i, oid: c.oid }));
      covered.set(ref, { oid: commits[commits.length - 1].oid, depth: base + commits.length });
      files.append(entries, covered);
    } finally {
      release();
    }
  } catch {
    // derived data never fails a write: the next resolve rebuilds what it cannot trust
  }
}

/** The refs whose commits count: branches, tags, remote-tracking branches (damaged ones left out). */
function currentRefs(ctx: RepoContext): Map<string, string> {
  const out = new Map<string, string>();
  for (const prefix of [refs.heads, refs.tags, refs.remotes]) for (const r of ctx.refs.scan(prefix).refs) out.set(r.ref, r.oid);
  return out;
}

const sameRefs = (covered: ReadonlyMap<string, CoveredRef> | null, now: ReadonlyMap<string, string>) =>
  covered !== null && covered.size === now.size && [...now].every(([ref, oid]) => covered.get(ref)?.oid === oid);

const LOCK_WAIT_MS = 30_000;

/** fresh: the files as they are when they cover the refs; locked: read under the lock (no rebuild elsewhere half done); rebuild: made again. */
export type ReadMode = 'fresh' | 'locked' | 'rebuild';

/** `read` of the timeline files once they cover exactly the refs the repo has. */
export async function withTimeline<T>(ctx: RepoContext, mode: ReadMode, read: (files: TimelineFiles) => T): Promise<T> {
  const files = new TimelineFiles(ctx.gitdir);
  if (mode === 'fresh' && sameRefs(files.covered(), currentRefs(ctx))) return read(files);
  const release = await waitForLock(files);
  try {
    // again under the lock: another process may have brought it up to date meanwhile
    const covered = mode === 'rebuild' ? null : files.covered();
    const now = currentRefs(ctx);
    if (!sameRefs(covered, now)) {
      const grown = covered && [...covered.keys()].every((ref) => now.has(ref)) ? await extend(ctx, files.depths(), covered, now) : null;
      if (grown) files.append(grown.entries, grown.covered);
      else {
        const all = (await extend(ctx, new Map(), new Map(), now, true))!;
        files.replace(all.entries, all.covered);
      }
    }
    return read(files);
  } finally {
    release();
  }
}

async function waitForLock(files: TimelineFiles): Promise<() => void> {
  for (const start = Date.now(); Date.now() - start < LOCK_WAIT_MS; ) {
    const release = files.lock();
    if (release) return release;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new ConflictError('the timeline index is locked by another process', { hint: 'try again' });
}

/**
 * The commits the refs `now` reach beyond those `known` (id → depth), walking each moved ref back
 * to the first commit known. Null when a covered ref moved anywhere but forward: what it reached
 * before may be unreachable now, so the caller rebuilds from nothing (`whole`: each ref's chain in
 * one walk, not a little at a time).
 */
async function extend(ctx: RepoContext, known: Map<string, number>, covered: ReadonlyMap<string, CoveredRef>, now: ReadonlyMap<string, string>, whole = false) {
  const entries: TimelineEntry[] = [];
  const next = new Map<string, CoveredRef>();
  let fresh: { oid: string; depth: number }[] = [];
  // meta.json read in large pipelined batches, not one per ref
  const readFresh = async () => {
    const metas = await ctx.engine.readObjects(fresh.map((f) => `${f.oid}:meta.json`));
    fresh.forEach(({ oid, depth }, i) => {
      const m = metaOf(oid, metas[i]?.data);
      // a commit that is no context commit (another tool's) has a depth but no place in time
      if (m && !Number.isNaN(Date.parse(m.created_at))) entries.push({ principal: m.principal, t: Date.parse(m.created_at), depth, oid });
    });
    fresh = [];
  };
  for (const [ref, value] of now) {
    const was = covered.get(ref);
    if (was?.oid === value) {
      next.set(ref, was);
      continue;
    }
    let tip: string;
    try {
      tip = await ctx.commitAt(ref, value);
    } catch (e) {
      if (e instanceof StoreDamage) continue; // its commits cannot be read; the ref stays uncovered
      throw e;
    }
    const walked = await walkToKnown(ctx, tip, known, whole);
    if (was && walked.stop !== was.oid) return null;
    const base = walked.stop === null ? -1 : known.get(walked.stop)!;
    walked.fresh.forEach((oid, i) => {
      const depth = base + walked.fresh.length - i;
      known.set(oid, depth);
      fresh.push({ oid, depth });
    });
    next.set(ref, { oid: value, depth: known.get(tip)! });
    if (fresh.length >= 50_000) await readFresh();
  }
  await readFresh();
  return { entries, covered: next };
}

/** First parents from `tip` that are not `known`, tip first, and the first known commit (null: the walk reached a root). */
async function walkToKnown(ctx: RepoContext, tip: string, known: ReadonlyMap<string, number>, whole: boolean): Promise<{ fresh: string[]; stop: string | null }> {
  if (known.has(tip)) return { fresh: [], stop: tip };
  // most moves are a few commits: walk a little, then more
  for (let max = whole ? undefined : 16; ; max! *= 8) {
    const oids = (await ctx.engine.chain(tip, max)).map((l) => l.oid);
    const k = oids.findIndex((o) => known.has(o));
    if (k >= 0) return { fresh: oids.slice(0, k), stop: oids[k] };
    if (max === undefined || oids.length < max) return { fresh: oids, stop: null };
  }
}

/** A commit's meta.json, or null when it has none that reads as version 1 (another tool's commit). */
export function metaOf(oid: string, data: Uint8Array | undefined): Meta | null {
  if (!data) return null;
  try {
    return parseMeta(oid, data);
  } catch {
    return null;
  }
}
