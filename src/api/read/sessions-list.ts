// The sessions of a store as the web view's start page lists them: one per branch, from its tip's
// metadata, every commit's meta.json read once (counts, the first prompt), and the artifacts of the
// tip and the root only (the model and the project), never a whole transcript.
import { displaySummary } from '../../core/summary.js';
import { fullId } from '../../core/ids.js';
import type { Meta } from '../../core/meta.js';
import { knownFormat } from '../../formats/registry.js';
import { runtimeOfFormat } from '../../runtimes/registry.js';
import { parseMeta, readArtifacts, readStoredCommits, type StoredCommit } from '../../store/context-commits.js';
import type { RepoContext } from '../repo/repo-context.js';
import { branchList } from './read.js';

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

/** Artifacts read for the model and project at most this long: a 50 MB snapshot tip is not parsed for a badge. */
const PEEK_MAX = 1 << 20;
/** A first prompt as a title: its first line, at most this many characters. */
const TITLE_MAX = 120;

/** Every branch as a session, newest first (by its tip's time, then name). */
export async function sessionsList(ctx: RepoContext): Promise<SessionSummary[]> {
  const { branches } = await branchList(ctx);
  if (branches.length === 0) return [];
  const tips = branches.map((b) => b.id.slice(4));
  const parent = await parents(ctx, tips);
  const chains = tips.map((tip) => chainOf(tip, parent));
  const unique = [...new Set(chains.flat())];
  const objs = await ctx.engine.readObjects(unique.map((oid) => `${oid}:meta.json`));
  const metas = new Map<string, Meta | null>();
  unique.forEach((oid, i) => {
    const o = objs[i];
    try {
      metas.set(oid, o?.type === 'blob' ? parseMeta(oid, o.data) : null);
    } catch {
      metas.set(oid, null); // a damaged commit counts for nothing here; ctx verify names it
    }
  });
  const roots = chains.map((c) => c[c.length - 1]);
  const peeked = await peek(ctx, [...new Set([...tips, ...roots])]);
  const made = (oid: string) => metas.get(oid)?.created_at ?? '';
  const forks = forkParents(branches.map((b) => b.name), chains, parent, made);
  const list = await Promise.all(
    branches.map(async (b, i): Promise<SessionSummary> => {
      const chain = chains[i];
      const own = chain.map((oid) => metas.get(oid)).filter((m): m is Meta => m != null);
      const tip = peeked.get(tips[i]);
      const root = peeked.get(roots[i]);
      const source = b.meta.source as { title?: unknown } | undefined;
      const runtimeTitle = typeof source?.title === 'string' && source.title.trim() !== '' ? source.title.trim() : null;
      return {
        branch: b.name,
        id: b.id,
        title: runtimeTitle ?? firstPrompt(own) ?? displaySummary(b.meta.summary, b.meta),
        titled: runtimeTitle !== null,
        runtime: (await runtimeOfFormat(b.meta.format))?.name ?? null,
        format: b.meta.format,
        model: tip?.model ?? root?.model ?? null,
        project: root?.cwd ?? tip?.cwd ?? null,
        created_at: own[own.length - 1]?.created_at ?? b.meta.created_at,
        updated_at: b.meta.created_at,
        commits: chain.length,
        message_count: own.reduce((n, m) => n + m.message_count, 0),
        token_count: own.reduce((n, m) => n + m.token_count, 0),
        fork: forks[i] && { branch: forks[i]!.branch, at: fullId(forks[i]!.at) },
      };
    }),
  );
  return list.sort((x, y) => (x.updated_at !== y.updated_at ? (x.updated_at < y.updated_at ? 1 : -1) : x.branch < y.branch ? -1 : 1));
}

/** Each commit's first parent, for the first-parent history of every tip (the commit-graph's, where the engine has one). */
async function parents(ctx: RepoContext, tips: string[]): Promise<Map<string, string | null>> {
  const parent = new Map<string, string | null>();
  if (ctx.engine.history) {
    for (const c of await ctx.engine.history(tips)) parent.set(c.oid, c.parent);
    return parent;
  }
  for (const tip of tips) {
    if (parent.has(tip)) continue;
    const links = await ctx.engine.chain(tip);
    links.forEach((l, i) => parent.set(l.oid, links[i + 1]?.oid ?? null));
  }
  return parent;
}

/** tip → root */
function chainOf(tip: string, parent: Map<string, string | null>): string[] {
  const chain: string[] = [];
  for (let at: string | null | undefined = tip; at; at = parent.get(at)) chain.push(at);
  return chain;
}

/** The first commit's prompt, oldest first, cut to one line. */
function firstPrompt(chain: readonly Meta[]): string | null {
  for (let i = chain.length - 1; i >= 0; i--) {
    const m = chain[i];
    if (m.type !== 'delta' || m.summary.trim() === '') continue;
    const line = displaySummary(m.summary, m);
    return line.length > TITLE_MAX ? `${line.slice(0, TITLE_MAX - 1).trimEnd()}…` : line;
  }
  return null;
}

/** The model and working directory each commit's artifact records (what `ctx usage` reads), for artifacts up to PEEK_MAX. */
async function peek(ctx: RepoContext, oids: string[]): Promise<Map<string, { model?: string; cwd?: string }>> {
  let stored: StoredCommit[];
  try {
    stored = await readStoredCommits(ctx.engine, oids);
  } catch {
    return new Map(); // a damaged commit: no badges rather than no page
  }
  const small = stored.filter((s) => s.artifact && !s.artifact.chunked && s.meta.artifact_size <= PEEK_MAX && knownFormat(s.meta.format)?.usage);
  const bytes = await readArtifacts(ctx.engine, small).catch(() => null);
  const out = new Map<string, { model?: string; cwd?: string }>();
  small.forEach((s, i) => {
    const format = knownFormat(s.meta.format)!;
    let model: string | undefined;
    let cwd: string | undefined;
    try {
      for (const r of format.usage!(format.parse(bytes![i], { lastOfFile: true }))) {
        model = r.model ?? model;
        cwd = r.cwd ?? cwd;
      }
    } catch {
      return; // an artifact its format cannot read names neither
    }
    out.set(s.oid, { model, cwd });
  });
  return out;
}

/**
 * Which session each one forks from. At a commit with several children on the listed chains, the
 * child made first (its commit time, then id) continues the line; every other child starts a fork.
 * A branch whose tip lies inside another's line (`ctx fork X~2 B`, no turn of its own yet) forks
 * from that line's session at its tip. A line belongs to the first-named branch at its end.
 */
function forkParents(names: string[], chains: string[][], parent: Map<string, string | null>, made: (oid: string) => string): ({ branch: string; at: string } | null)[] {
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
