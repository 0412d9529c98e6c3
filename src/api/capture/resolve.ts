// Context in time: the commit a principal had at a moment (`ctx resolve`), and the tip of a session
// (`ctx current`). Resolve binary-searches the timeline (store/timeline.ts), which is checked
// against the repo's refs before every answer, so a fetch or another tool never makes it wrong.
import { parseInstant } from '../../core/window.js';
import { isoMs } from '../../core/meta.js';
import { CtxError, NotFoundError, UsageError } from '../../errors/index.js';
import { lastAtOrBefore, recordOid, recordTime } from '../../store/timeline.js';
import { currentBranch } from './capture.js';
import type { RepoContext } from '../repo/repo-context.js';
import { runtimeRegistry } from './sessions.js';
import { metaOf, withTimeline, type ReadMode } from '../repo/timeline.js';

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

/** A time as `--at` takes it; anything else (no zone, February 30, 25:00) is a usage error. */
export function parseAt(at: string | Date): number {
  const t = typeof at === 'string' ? parseInstant(at) : at.getTime();
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
    const meta = metaOf(oid, (await ctx.engine.readObjects([`${oid}:meta.json`]))[0]?.data);
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
 * The tip of the branch holding session `session`: the branches whose tip's meta.json has that
 * `session_id`, whatever wrote them. When several do, the branch a runtime's live capture writes
 * to (its session branch, or that branch's newest fork) rather than a subagent's; else the newest tip.
 */
export async function currentOf(ctx: RepoContext, session: string): Promise<SessionTip> {
  if (!session) throw new UsageError('give a session: --session ID (or CTX_SESSION)');
  const tip = await sessionTip(ctx, session);
  if (!tip) throw new NotFoundError(`no branch holds session ${session}`);
  return tip;
}

/**
 * `currentOf` for a session id or a unique prefix of one (`37f8`); null when no branch tip is of
 * such a session, AmbiguousIdError (naming them) when the prefix starts several.
 */
export async function sessionTip(ctx: RepoContext, session: string): Promise<SessionTip | null> {
  const found = await ctx.sessionTips(session);
  if (found.length === 0) return null;
  session = found[0].session;
  // newest first; branches come sorted by name, and the sort is stable
  found.sort((a, b) => Date.parse(b.created_at) - Date.parse(a.created_at));
  const { allRuntimes } = await runtimeRegistry();
  const live = new Set((await allRuntimes()).map((r) => currentBranch(ctx, r.sessionBranch(session))));
  const chosen = found.find((f) => live.has(f.branch)) ?? found[0];
  return { branch: chosen.branch, oid: chosen.oid, created_at: chosen.created_at, branches: [chosen, ...found.filter((f) => f !== chosen)].map((f) => f.branch) };
}


/** The session whose shell (or MCP server) this process runs in, as the first runtime that recognizes the environment reads it. */
export async function shellSessionOf(env: NodeJS.ProcessEnv): Promise<{ runtime: string; session: string } | null> {
  const { allRuntimes } = await runtimeRegistry();
  for (const r of await allRuntimes()) {
    const s = r.capture?.shellSession?.(env);
    if (s) return { runtime: r.name, session: s.session };
  }
  return null;
}
