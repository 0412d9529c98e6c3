// Context in time: the commit a principal had at a moment (`ctx resolve`), and the tip of a session
// (`ctx current`). Resolve binary-searches the timeline (store/timeline.ts), which is checked
// against the repo's refs before every answer, so a fetch or another tool never makes it wrong.
import { isoMs, type Meta } from '../core/meta.js';
import { ConflictError, CtxError, NotFoundError, UsageError } from '../errors/index.js';
import { StoreDamage } from '../store/damage.js';
import { refs } from '../store/refs.js';
import { lastAtOrBefore, recordOid, recordTime, TimelineFiles, type CoveredRef, type TimelineEntry } from '../store/timeline.js';
import type { RepoContext } from './repo-context.js';

export interface ResolveQuery {
  principal: string;
  /** ISO 8601 with a zone (`2026-11-20T14:03:00Z`), a date (`2026-11-20`: its first instant, UTC), or a Date */
  at: string | Date;
  /** only commits on this branch's chain */
  branch?: string;
}

export interface Resolution {
  oid: string;
  principal: string;
  /** the time asked about, ISO with milliseconds */
  at: string;
  /** the commit's own created_at */
  created_at: string;
}

const TIME = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?:Z|[+-](\d{2}):?(\d{2})))?$/;

/** A time as `--at` takes it; anything else (no zone, February 30, 25:00) is a usage error. */
export function parseAt(at: string | Date): number {
  const m = typeof at === 'string' ? TIME.exec(at.trim()) : null;
  const [y, mo, d, h = 0, mi = 0, sec = 0, zh = 0, zm = 0] = (m?.slice(1) ?? []).map((v) => (v === undefined ? undefined : Number(v))) as number[];
  const valid = m !== null && mo >= 1 && mo <= 12 && d >= 1 && d <= new Date(Date.UTC(y, mo, 0)).getUTCDate() && h <= 23 && mi <= 59 && sec <= 59 && zh <= 23 && zm <= 59;
  const t = typeof at === 'string' ? (valid ? Date.parse(at.trim()) : NaN) : at.getTime();
  if (Number.isNaN(t)) throw new UsageError(`not a time: '${String(at)}' (ISO 8601 with a zone, e.g. 2026-11-20T14:03:00Z, or a date)`);
  return t;
}

/**
 * The latest commit by `principal` whose created_at is at or before `at`, among the commits any
 * branch, tag or remote-tracking branch reaches. Ties (one millisecond, or clocks that disagree)
 * go to the deeper commit of its chain, then the greater id. NotFoundError before the first.
 */
export async function resolveAt(ctx: RepoContext, q: ResolveQuery): Promise<Resolution> {
  const t = parseAt(q.at);
  if (!q.principal) throw new UsageError('give a principal: --principal NAME');
  const on = q.branch === undefined ? null : new Set(await ctx.firstParents(await ctx.resolve(q.branch)));
  // fresh: the files as they are when they cover the refs; locked: read under the lock, so no
  // rebuild elsewhere is half done (before saying "none"); rebuild: made again (an answer disagreed)
  for (let mode: ReadMode = 'fresh'; ; ) {
    const records = await withTimeline(ctx, mode, (files) => files.records(q.principal));
    let i = lastAtOrBefore(records, t);
    while (on && i >= 0 && !on.has(recordOid(records, i))) i--;
    if (i < 0) {
      if (mode === 'fresh') {
        mode = 'locked';
        continue;
      }
      if (records.length === 0) throw new NotFoundError(`no commit by principal '${q.principal}'`);
      throw new NotFoundError(`no commit by principal '${q.principal}'${q.branch === undefined ? '' : ` on ${q.branch}`} at or before ${isoMs(new Date(t))}`);
    }
    const oid = recordOid(records, i);
    // the answer is checked against its commit: derived files someone damaged are rebuilt, never believed
    const meta = metaOf((await ctx.engine.readObjects([`${oid}:meta.json`]))[0]?.data);
    if (meta?.principal === q.principal && Date.parse(meta.created_at) === recordTime(records, i)) return { oid, principal: q.principal, at: isoMs(new Date(t)), created_at: isoMs(new Date(recordTime(records, i))) };
    if (mode === 'rebuild') throw new CtxError(`the timeline names ctx-${oid.slice(0, 12)} for ${q.principal}, whose meta.json disagrees`);
    mode = 'rebuild';
  }
}

export interface SessionTip {
  oid: string;
  branch: string;
  created_at: string;
  /** every branch whose tip is of the session, the chosen one first */
  branches: string[];
}

/**
 * The tip of the branch holding session `session` (meta.json `session_id` of branch tips, whatever
 * the runtime or command that wrote it): when several do (subagents, forks), the newest tip.
 */
export async function currentOf(ctx: RepoContext, session: string): Promise<SessionTip> {
  if (!session) throw new UsageError('give a session: --session ID (or CTX_SESSION)');
  const tips = [...ctx.branchTips(true)];
  const metas = await ctx.engine.readObjects(tips.map(([, oid]) => `${oid}:meta.json`));
  const found: { branch: string; oid: string; created_at: string }[] = [];
  tips.forEach(([branch, oid], i) => {
    const m = metaOf(metas[i]?.data);
    if (m?.session_id === session) found.push({ branch, oid, created_at: m.created_at });
  });
  if (found.length === 0) throw new NotFoundError(`no branch holds session ${session}`);
  // newest first; branches come sorted by name, and the sort is stable
  found.sort((a, b) => Date.parse(b.created_at) - Date.parse(a.created_at));
  return { ...found[0], branches: found.map((f) => f.branch) };
}

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

type ReadMode = 'fresh' | 'locked' | 'rebuild';

/** `read` of the timeline files once they cover exactly the refs the repo has (see resolveAt for the modes). */
async function withTimeline<T>(ctx: RepoContext, mode: ReadMode, read: (files: TimelineFiles) => T): Promise<T> {
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
      const m = metaOf(metas[i]?.data);
      // a commit that is no context commit (another tool's) has a depth but no place in time
      if (m && typeof m.principal === 'string' && !Number.isNaN(Date.parse(m.created_at))) entries.push({ principal: m.principal, t: Date.parse(m.created_at), depth, oid });
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

function metaOf(data: Uint8Array | undefined): Meta | null {
  if (!data) return null;
  try {
    const m = JSON.parse(Buffer.from(data).toString('utf8'));
    return m && typeof m === 'object' && typeof m.created_at === 'string' ? (m as Meta) : null;
  } catch {
    return null;
  }
}
