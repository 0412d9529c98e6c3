// What a session's chain is up to its tip (counts, first prompt, model, project), kept by tip id in
// <store>/ctx/cache/sessions.json: a commit never changes, so a tip one checkpoint on costs the
// meta.json of that one commit, not the chain's. Derived data: a file that does not read is rebuilt.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { displaySummary } from '../../core/summary.js';
import type { Meta } from '../../core/meta.js';
import { knownFormat } from '../../formats/registry.js';
import { parseMeta, readArtifacts, readStoredCommits, type StoredCommit } from '../../store/context-commits.js';
import { derivedDir, writeDerived } from '../../store/derived.js';
import type { RepoContext } from '../repo/repo-context.js';

export interface ChainFacts {
  commits: number;
  messages: number;
  tokens: number;
  /** the root's time */
  created: string;
  /** the oldest prompt, one line, cut */
  first: string | null;
  /** of the newest response the tip records, else an older tip's */
  model: string | null;
  /** the working directory the root records, else the first tip that did */
  project: string | null;
  /** the tip's own meta.json fields the list shows, and the newest title on the chain (meta.json source.title) */
  tip: Pick<Meta, 'type' | 'format' | 'summary' | 'created_at' | 'message_count'> & { title: string | null };
}

/** Artifacts read for the model and project at most this long: a 50 MB snapshot tip is not parsed for a badge. */
const PEEK_MAX = 1 << 20;
/** A first prompt as a title: its first line, at most this many characters. */
const TITLE_MAX = 120;
const CACHE_VERSION = 2;

/** The facts of each tip (none for a tip whose meta.json does not read: not a context commit, or damaged); `parent` maps every commit of their chains to its first parent. */
export async function chainFacts(ctx: RepoContext, tips: readonly string[], parent: ReadonlyMap<string, string | null>): Promise<Map<string, ChainFacts>> {
  const cached = readCache(ctx.gitdir);
  // each tip's commits back to one whose facts are known (or to the root)
  const walks = tips.map((tip) => {
    const fresh: string[] = [];
    let at: string | null | undefined = tip;
    while (at && !cached.has(at)) {
      fresh.push(at);
      at = parent.get(at);
    }
    return { tip, fresh, base: at ? cached.get(at)! : null };
  });
  const unread = [...new Set(walks.flatMap((w) => w.fresh))];
  const metas = await readMetaJsons(ctx, unread);
  const peekAt = new Set(walks.flatMap((w) => (w.fresh.length ? [w.tip, ...(w.base ? [] : [w.fresh[w.fresh.length - 1]])] : [])));
  const peeked = await peek(ctx, [...peekAt]);
  const out = new Map<string, ChainFacts>();
  for (const { tip, fresh, base } of walks) {
    if (fresh.length === 0) {
      out.set(tip, base!);
      continue;
    }
    const head = metas.get(tip);
    if (!head) continue;
    const own = fresh.map((oid) => metas.get(oid)).filter((m): m is Meta => m != null);
    // the newest title on the chain: a commit written without one (ctx checkpoint) keeps the session's
    const title = own.map(titleOf).find((t) => t !== null) ?? base?.tip.title ?? null;
    const root = base ? null : peeked.get(fresh[fresh.length - 1]);
    const top = peeked.get(tip);
    out.set(tip, {
      commits: (base?.commits ?? 0) + fresh.length,
      messages: (base?.messages ?? 0) + own.reduce((n, m) => n + m.message_count, 0),
      tokens: (base?.tokens ?? 0) + own.reduce((n, m) => n + m.token_count, 0),
      created: base?.created ?? own[own.length - 1]?.created_at ?? '',
      first: base?.first ?? firstPrompt(own),
      model: top?.model ?? base?.model ?? root?.model ?? null,
      project: base?.project ?? root?.cwd ?? top?.cwd ?? null,
      tip: { type: head.type, format: head.format, summary: head.summary, created_at: head.created_at, message_count: head.message_count, title },
    });
  }
  if (walks.some((w) => w.fresh.length)) writeCache(ctx.gitdir, out);
  return out;
}

function cachePath(gitdir: string): string {
  return join(gitdir, 'ctx', 'cache', 'sessions.json');
}

function readCache(gitdir: string): Map<string, ChainFacts> {
  try {
    const o = JSON.parse(readFileSync(cachePath(gitdir), 'utf8')) as { v?: unknown; tips?: Record<string, ChainFacts> };
    if (o.v !== CACHE_VERSION || !o.tips || typeof o.tips !== 'object') return new Map();
    return new Map(Object.entries(o.tips).filter(([oid, f]) => /^[0-9a-f]{40,64}$/.test(oid) && Number.isSafeInteger(f?.commits) && Number.isSafeInteger(f.messages) && Number.isSafeInteger(f.tokens) && typeof f.created === 'string' && [f.first, f.model, f.project, f.tip?.title].every((x) => x === null || typeof x === 'string') && typeof f.tip.format === 'string' && typeof f.tip.summary === 'string' && typeof f.tip.created_at === 'string' && typeof f.tip.type === 'string' && Number.isSafeInteger(f.tip.message_count)));
  } catch {
    return new Map();
  }
}

/** Only the current tips: the file stays as big as the list. */
function writeCache(gitdir: string, facts: Map<string, ChainFacts>): void {
  try {
    derivedDir(gitdir, 'cache');
    writeDerived(cachePath(gitdir), JSON.stringify({ v: CACHE_VERSION, tips: Object.fromEntries(facts) }));
  } catch {
    // a store this process may not write (read-only, another user's): the list is still right, only slower next time
  }
}

/** meta.json of each commit in one pipelined pass; a damaged one counts for nothing here (ctx verify names it). */
async function readMetaJsons(ctx: RepoContext, oids: string[]): Promise<Map<string, Meta | null>> {
  const objs = oids.length ? await ctx.engine.readObjects(oids.map((oid) => `${oid}:meta.json`)) : [];
  const metas = new Map<string, Meta | null>();
  oids.forEach((oid, i) => {
    const o = objs[i];
    try {
      metas.set(oid, o?.type === 'blob' ? parseMeta(oid, o.data) : null);
    } catch {
      metas.set(oid, null);
    }
  });
  return metas;
}

function titleOf(m: Meta): string | null {
  const t = (m.source as { title?: unknown } | undefined)?.title;
  return typeof t === 'string' && t.trim() !== '' ? t.trim() : null;
}

/** The oldest commit's prompt, one line, cut; `chain` is newest first. */
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
  const out = new Map<string, { model?: string; cwd?: string }>();
  if (oids.length === 0) return out;
  let stored: StoredCommit[];
  try {
    stored = await readStoredCommits(ctx.engine, oids);
  } catch {
    return out; // a damaged commit: no badges rather than no page
  }
  const small = stored.filter((s) => s.artifact && !s.artifact.chunked && s.meta.artifact_size <= PEEK_MAX && knownFormat(s.meta.format)?.usage);
  // read for two badges, not checked against meta.json (ctx verify does that)
  const bytes = await readArtifacts(ctx.engine, small.map((s) => ({ oid: s.oid, artifact: s.artifact }))).catch(() => null);
  if (bytes === null) return out;
  small.forEach((s, i) => {
    const format = knownFormat(s.meta.format)!;
    let model: string | undefined;
    let cwd: string | undefined;
    try {
      for (const r of format.usage!(format.parse(bytes[i], { lastOfFile: true }))) {
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
