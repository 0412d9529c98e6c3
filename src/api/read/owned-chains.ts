// The first-parent chains of many tips at once, each commit owned by the first tip that reaches it:
// what a report over every branch reads once (a fork's shared commits count for the first branch).
import { StoreDamage } from '../../store/damage.js';
import type { ChainLink } from '../../store/engine.js';
import { parseCommit } from '../../store/objects.js';
import type { RepoContext } from '../repo/repo-context.js';

type Link = Pick<ChainLink, 'oid' | 'tree'>;

/**
 * For each tip in order, the commits of its chain no earlier tip reached, root first. The commits are
 * read level by level over all tips, one pipelined read a level, not a walk (or a process) per tip.
 */
export async function ownedChains(ctx: RepoContext, tips: readonly string[]): Promise<Link[][]> {
  const known = new Map<string, { tree: string; parent: string | undefined }>();
  let level = [...new Set(tips)];
  while (level.length) {
    const objs = await ctx.engine.readObjects(level);
    const next = new Set<string>();
    level.forEach((oid, i) => {
      const o = objs[i];
      if (o?.type !== 'commit') throw new StoreDamage(`object ${oid}`, o ? `is a ${o.type}, not a commit` : 'is missing');
      const c = parseCommit(o.data);
      known.set(oid, { tree: c.tree, parent: c.parents[0] });
      if (c.parents[0] !== undefined && !known.has(c.parents[0])) next.add(c.parents[0]);
    });
    level = [...next].filter((p) => !known.has(p));
  }
  const seen = new Set<string>();
  return tips.map((tip) => {
    const links: Link[] = [];
    for (let oid: string | undefined = tip; oid !== undefined && !seen.has(oid); oid = known.get(oid)!.parent) {
      seen.add(oid);
      links.push({ oid, tree: known.get(oid)!.tree });
    }
    return links.reverse();
  });
}
