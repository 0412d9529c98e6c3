// Cursors (several agents in one conversation): how far an agent has seen a branch. A cursor is an
// annotation record `{"cursor":{"agent":A,"branch":B}}` on the commit seen last, so it travels with
// refs/notes/ctx (push, fetch, notes merge); the newest record per (branch, agent) wins.
import { UsageError } from '../errors/index.js';
import { fullId } from '../core/ids.js';
import { isRecord } from '../core/neutral.js';
import { readNotes } from '../store/notes.js';
import { checkBranchName, refs } from '../store/refs.js';
import { appendRecord } from './branch-ops.js';
import { noteRecords } from './read.js';
import type { RepoContext } from './repo-context.js';

export interface Cursor {
  branch: string;
  agent: string;
  /** `ctx-<40 hex>`: the last commit the agent has seen; null when it has no cursor */
  id: string | null;
  /** when it was set, ISO with milliseconds */
  at: string | null;
}

/** The branch a spec names, as cursors key it: `origin/x` (remote-tracking) is `x`; `x~2` is `x`. */
export function cursorBranch(ctx: RepoContext, spec: string): string {
  const base = spec.trim().replace(/~\d*$/, '');
  if (!ctx.refs.read(refs.branch(base)) && base.includes('/') && ctx.refs.read(`${refs.remotes}${base}`)) return base.slice(base.indexOf('/') + 1);
  return base;
}

function checkAgent(agent: string): string {
  if (agent.trim() === '' || /[\n\r\0]/.test(agent)) throw new UsageError(`bad agent name ${JSON.stringify(agent)}: empty or more than one line`);
  return agent;
}

/** The cursor of `agent` on the branch `spec` names: the newest record on its first-parent chain (a later commit breaks ties). */
export async function cursorOf(ctx: RepoContext, spec: string, agent: string): Promise<Cursor> {
  const branch = cursorBranch(ctx, spec);
  const chain = await ctx.firstParents(await ctx.resolve(spec));
  const notes = await readNotes(ctx.engine, ctx.refs, chain);
  let best: { oid: string; at: string } | null = null;
  // oldest first, so a later commit's record wins a tie on `at`
  for (const oid of [...chain].reverse()) {
    for (const r of noteRecords(notes.get(oid))) {
      if (!isRecord(r.cursor) || r.cursor.agent !== agent || r.cursor.branch !== branch) continue;
      const at = typeof r.at === 'string' ? r.at : '';
      if (!best || at >= best.at) best = { oid, at };
    }
  }
  return { branch, agent, id: best && fullId(best.oid), at: best?.at ?? null };
}

/** `agent` has now seen the branch up to `spec` (default: its tip); `spec` must be on the branch's first-parent chain. */
export async function setCursor(ctx: RepoContext, branch: string, agent: string, spec?: string, principal?: string): Promise<Cursor> {
  checkBranchName(branch);
  checkAgent(agent);
  const tip = await ctx.resolve(branch);
  const oid = spec === undefined ? tip : await ctx.resolve(spec);
  if (oid !== tip && !(await ctx.firstParents(tip)).includes(oid)) throw new UsageError(`${fullId(oid)} is not on branch ${branch}`);
  const key = cursorBranch(ctx, branch);
  const record = await appendRecord(ctx, oid, principal ?? ctx.defaults.principal, { cursor: { agent, branch: key } });
  return { branch: key, agent, id: fullId(oid), at: record.at as string };
}
