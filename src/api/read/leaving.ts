// The branches that leave a context: each whose first-parent chain reaches one of the context's
// commits after commits of its own (a fork, a subagent's run), with its first own commit.
import type { RepoContext } from '../repo/repo-context.js';
import { refs } from '../../store/refs.js';

export interface Leaving {
  /** the branch's name */
  branch: string;
  tip: string;
  /** its first commit past the context (its parent is the context's) */
  first: string;
}

/** Every branch whose tip is outside `commits` and whose chain reaches one of them; none when the engine lists no history. */
export async function branchesLeaving(ctx: RepoContext, commits: ReadonlySet<string>): Promise<Leaving[]> {
  const heads = ctx.refs.scan(refs.heads).refs.filter((h) => /^[0-9a-f]{40,64}$/.test(h.oid) && !commits.has(h.oid));
  if (heads.length === 0 || !ctx.engine.history) return [];
  const parent = new Map((await ctx.engine.history(heads.map((h) => h.oid))).map((c) => [c.oid, c.parent]));
  const out: Leaving[] = [];
  for (const h of heads) {
    let at: string | null = h.oid;
    let first: string | null = null;
    while (at !== null && !commits.has(at)) [first, at] = [at, parent.get(at) ?? null];
    if (at !== null && first !== null) out.push({ branch: h.ref.slice(refs.heads.length), tip: h.oid, first });
  }
  return out;
}
