// The first-parent chains of many tips at once, each commit owned by the first tip that reaches it:
// what a report over every branch reads once (a fork's shared commits count for the first branch).
import { StoreDamage } from '../../store/damage.js';
import type { ChainLink, Engine } from '../../store/engine.js';
import { parseCommit } from '../../store/objects.js';
import type { RepoContext } from '../repo/repo-context.js';

type Link = Pick<ChainLink, 'oid' | 'tree'>;

/**
 * For each tip in order, the commit ids of its chain no earlier tip reached, root first. The parents
 * come from the engine's history of all tips at once (git: one rev-list, from the commit-graph), else
 * from the commits read level by level over all tips: never a walk (or a process) per tip.
 */
export async function ownedChains(ctx: RepoContext, tips: readonly string[]): Promise<string[][]> {
  const parent = ctx.engine.history ? new Map((await ctx.engine.history([...new Set(tips)])).map((h) => [h.oid, h.parent ?? undefined])) : await parents(ctx.engine, tips);
  const seen = new Set<string>();
  return tips.map((tip) => {
    const ids: string[] = [];
    for (let oid: string | undefined = tip; oid !== undefined && !seen.has(oid); oid = parent.get(oid)) {
      if (!parent.has(oid)) throw new StoreDamage(`object ${oid}`, 'is missing');
      seen.add(oid);
      ids.push(oid);
    }
    return ids.reverse();
  });
}

/** The trees of commits, read in one pipelined pass. */
export async function linksOf(engine: Engine, oids: readonly string[]): Promise<Link[]> {
  const objs = await engine.readObjects(oids);
  return oids.map((oid, i) => {
    const o = objs[i];
    if (o?.type !== 'commit') throw new StoreDamage(`object ${oid}`, o ? `is a ${o.type}, not a commit` : 'is missing');
    return { oid, tree: parseCommit(o.data).tree };
  });
}

async function parents(engine: Engine, tips: readonly string[]): Promise<Map<string, string | undefined>> {
  const known = new Map<string, string | undefined>();
  let level = [...new Set(tips)];
  while (level.length) {
    const objs = await engine.readObjects(level);
    const next = new Set<string>();
    level.forEach((oid, i) => {
      const o = objs[i];
      if (o?.type !== 'commit') throw new StoreDamage(`object ${oid}`, o ? `is a ${o.type}, not a commit` : 'is missing');
      const p = parseCommit(o.data).parents[0];
      known.set(oid, p);
      if (p !== undefined && !known.has(p)) next.add(p);
    });
    level = [...next].filter((p) => !known.has(p));
  }
  return known;
}
