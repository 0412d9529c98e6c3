// The sessions of a store as the web view's start page lists them: one per branch, from its tip's
// metadata, the commit-graph's history (forks; heads-history.ts, shared with each conversation's subagent runs), and what its chain holds (chain-facts.ts: counts,
// first prompt, model, project; cached by tip), never a whole transcript.
import { displaySummary } from '../../core/summary.js';
import { fullId } from '../../core/ids.js';
import type { RepoContext } from '../repo/repo-context.js';
import { chainFacts } from './chain-facts.js';
import { headsHistory } from './heads-history.js';
import { refs } from '../../store/refs.js';

export interface SessionSummary {
  branch: string;
  /** `ctx-<40 hex>` of the tip */
  id: string;
  /** the runtime's title for the session (Claude Code's ai-title), else its first prompt */
  title: string;
  /** whether `title` is the runtime's own */
  titled: boolean;
  /** the built-in runtime whose format the tip is in; null for another format */
  runtime: string | null;
  format: string;
  /** the model of the newest response the tip (else the root) records */
  model: string | null;
  /** the working directory the transcript names (the root's, else the tip's) */
  project: string | null;
  /** the root's time and the tip's */
  created_at: string;
  updated_at: string;
  commits: number;
  /** the chain's messages and estimated tokens, root to tip (meta.json counts) */
  message_count: number;
  token_count: number;
  /** the session this one forks from, and the commit where */
  fork: { branch: string; at: string } | null;
}

/** Every branch as a session, newest first (by its tip's time, then name). */
export async function sessionsList(ctx: RepoContext): Promise<SessionSummary[]> {
  const { heads, parent, time } = await headsHistory(ctx);
  if (heads.length === 0) return [];
  const tips = heads.map((h) => h.oid);
  const facts = await chainFacts(ctx, tips, parent);
  const branches = heads.filter((h) => facts.has(h.oid)).map((h) => ({ name: h.ref.slice(refs.heads.length), oid: h.oid, f: facts.get(h.oid)! }));
  const chains = branches.map((b) => chainOf(b.oid, parent));
  const forks = forkParents(branches.map((b) => b.name), chains, parent, (oid) => time.get(oid) ?? 0);
  // loaded when asked for, as api/capture does: the runtimes import the api
  const { runtimeOfFormat } = await import('../../runtimes/registry.js');
  const list = await Promise.all(
    branches.map(async ({ name, oid, f }, i): Promise<SessionSummary> => {
      return {
        branch: name,
        id: fullId(oid),
        title: f.tip.title ?? f.first ?? displaySummary(f.tip.summary, f.tip),
        titled: f.tip.title !== null,
        runtime: (await runtimeOfFormat(f.tip.format))?.name ?? null,
        format: f.tip.format,
        model: f.model,
        project: f.project,
        created_at: f.created || f.tip.created_at,
        updated_at: f.tip.created_at,
        commits: f.commits,
        message_count: f.messages,
        token_count: f.tokens,
        fork: forks[i] && { branch: forks[i]!.branch, at: fullId(forks[i]!.at) },
      };
    }),
  );
  return list.sort((x, y) => (x.updated_at !== y.updated_at ? (x.updated_at < y.updated_at ? 1 : -1) : x.branch < y.branch ? -1 : 1));
}

/** tip → root */
function chainOf(tip: string, parent: Map<string, string | null>): string[] {
  const chain: string[] = [];
  for (let at: string | null | undefined = tip; at; at = parent.get(at)) chain.push(at);
  return chain;
}

/**
 * Which session each one forks from. At a commit with several children on the listed chains, the
 * child made first (its commit time, then id) continues the line; every other child starts a fork.
 * A branch whose tip lies inside another's line (`ctx fork X~2 B`, no turn of its own yet) forks
 * from that line's session at its tip. A line belongs to the first-named branch at its end.
 */
function forkParents(names: string[], chains: string[][], parent: Map<string, string | null>, made: (oid: string) => number): ({ branch: string; at: string } | null)[] {
  const children = new Map<string, string[]>();
  for (const [oid, p] of parent) if (p) (children.get(p) ?? children.set(p, []).get(p)!).push(oid);
  const earlier = (a: string, b: string) => (made(a) !== made(b) ? made(a) < made(b) : a < b);
  const firstChild = (oid: string) => children.get(oid)?.reduce((a, b) => (earlier(a, b) ? a : b));
  const end = (oid: string) => {
    let at = oid;
    for (let next = firstChild(at); next; next = firstChild(at)) at = next;
    return at;
  };
  const ownerAt = new Map<string, string>();
  names.forEach((name, i) => {
    const tip = chains[i][0];
    if (!ownerAt.has(tip) || name < ownerAt.get(tip)!) ownerAt.set(tip, name);
  });
  return names.map((name, i) => {
    const chain = chains[i];
    const line = ownerAt.get(end(chain[0]));
    if (line !== undefined && line !== name) return { branch: line, at: chain[0] };
    for (let k = 0; k + 1 < chain.length; k++) {
      if (firstChild(chain[k + 1]) !== chain[k]) return { branch: ownerAt.get(end(chain[k + 1])) ?? name, at: chain[k + 1] };
    }
    return null;
  });
}
