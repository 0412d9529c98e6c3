// Cursors (several agents in one conversation): how far an agent has seen a branch. A cursor is an
// annotation record `{"cursor":{"agent":A,"branch":B}}` on the commit seen last, so it travels with
// refs/notes/ctx (push, fetch, notes merge); the newest record per (branch, agent) wins. Moving one is
// an annotation: `setCursor` in write/branch-ops.ts.
import { fullId } from '../../core/ids.js';
import { isRecord } from '../../core/neutral.js';
import { readNotes } from '../../store/notes.js';
import { refs } from '../../store/refs.js';
import { noteRecords } from './read.js';
import type { RepoContext } from '../repo/repo-context.js';

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
