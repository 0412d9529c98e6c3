// The first-parent history of every branch, read in one pass (the commit-graph's) and kept in memory
// while the branches point where they did: the session list and each conversation's subagent runs
// (leaving.ts) ask for it in turn, and a server answers them all from one rev-list per store state.
import type { RepoContext } from '../repo/repo-context.js';
import { refs } from '../../store/refs.js';

export interface HeadsHistory {
  /** every branch whose ref reads as an id (a damaged ref or another tool's is left out: ctx branch and ctx verify name it) */
  heads: { ref: string; oid: string }[];
  /** each commit of their first-parent chains → its first parent */
  parent: Map<string, string | null>;
  /** each commit's time in seconds (none from an engine without a history: then a fork point's children go by id) */
  time: Map<string, number>;
}

/** Stores whose history is kept: a server has one; a library caller may open a few. */
const KEEP = 4;
const kept = new Map<string, { stamp: string; history: Promise<HeadsHistory> }>();

/** The history of the branches as they are now: read again only when a branch moved, appeared or went. */
export function headsHistory(ctx: RepoContext): Promise<HeadsHistory> {
  const heads = ctx.refs.scan(refs.heads).refs.filter((h) => /^[0-9a-f]{40,64}$/.test(h.oid));
  const stamp = heads.map((h) => `${h.ref} ${h.oid}`).join('\n');
  const key = ctx.gitdir;
  const hit = kept.get(key);
  kept.delete(key); // the newest last: Map keeps insertion order
  if (hit?.stamp === stamp) return kept.set(key, hit), hit.history;
  const history = read(ctx, heads);
  kept.set(key, { stamp, history });
  history.catch(() => kept.get(key)?.history === history && kept.delete(key));
  while (kept.size > KEEP) kept.delete(kept.keys().next().value!);
  return history;
}

async function read(ctx: RepoContext, heads: HeadsHistory['heads']): Promise<HeadsHistory> {
  const parent = new Map<string, string | null>();
  const time = new Map<string, number>();
  const tips = heads.map((h) => h.oid);
  if (tips.length === 0) return { heads, parent, time };
  if (ctx.engine.history) {
    for (const c of await ctx.engine.history(tips)) {
      parent.set(c.oid, c.parent);
      time.set(c.oid, c.time);
    }
    return { heads, parent, time };
  }
  // an engine without one: chains walked, no times
  for (const tip of tips) {
    if (parent.has(tip)) continue;
    const links = await ctx.engine.chain(tip);
    links.forEach((l, i) => parent.set(l.oid, links[i + 1]?.oid ?? null));
  }
  return { heads, parent, time };
}
