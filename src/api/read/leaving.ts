// The branches that leave a context: each whose first-parent chain reaches one of the context's
// commits after commits of its own (a fork, a subagent's run), with its first own commit. The
// branches' history is the session list's (heads-history.ts): one read per store state.
import type { RepoContext } from '../repo/repo-context.js';
import { refs } from '../../store/refs.js';
import { headsHistory } from './heads-history.js';

export interface Leaving {
  /** the branch's name */
  branch: string;
  tip: string;
  /** its first commit past the context (its parent is the context's) */
  first: string;
}

/** Every branch whose tip is outside `commits` and whose chain reaches one of them; none when the engine lists no history. */
export async function branchesLeaving(ctx: RepoContext, commits: ReadonlySet<string>): Promise<Leaving[]> {
  if (!ctx.engine.history) return [];
  const { heads, parent } = await headsHistory(ctx);
  // where the chain from a commit outside the context first enters it: its commit before the context (null: never), each commit walked once
  const entry = new Map<string, string | null>();
  const out: Leaving[] = [];
  for (const h of heads) {
    if (commits.has(h.oid)) continue;
    const path: string[] = [];
    let at = h.oid;
    let first = entry.get(at);
    while (first === undefined) {
      path.push(at);
      const next = parent.get(at) ?? null;
      if (next === null) first = null;
      else if (commits.has(next)) first = at;
      else first = entry.get((at = next));
    }
    for (const oid of path) entry.set(oid, first);
    if (first !== null) out.push({ branch: h.ref.slice(refs.heads.length), tip: h.oid, first });
  }
  return out;
}
