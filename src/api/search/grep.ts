// api/search: searching every session (grep on messages, files on what tool calls touched). Imports api/read and api/repo.
// `ctx grep`: search every session's messages. Each commit is searched once however many branches
// share it (forks share history); its artifact's raw bytes are checked first for a literal the
// pattern requires, and only the artifacts that hold it are parsed into neutral messages, where the
// pattern is matched against each block's text (tool calls and results as role `tool`). With the
// search index (search-index.ts) only the commits whose text holds that literal are read.
import { fullId } from '../../core/ids.js';
import { grepPattern, matchMessage, rawCheck, requiredLiteral } from '../../core/grep-match.js';
import { parseSince } from '../../core/window.js';
import { UsageError } from '../../errors/index.js';
import { scanCommits, scanListed, type ScannedCommit } from './scan.js';
import type { IndexQuery } from './search-index.js';
import { indexWorthIt } from './small-store.js';
import type { RepoContext } from '../repo/repo-context.js';

export { commitMessages, commitsMessages, scanCommits, type ScannedCommit } from './scan.js';

export interface GrepOptions {
  /** a regular expression in RE2's syntax (matched in linear time), or a plain string with `fixed` */
  pattern: string;
  /** branches to search (default: every local branch) */
  branches?: string[];
  /** every local and remote-tracking branch, as `ctx log --all` */
  all?: boolean;
  /** only blocks of this role: tool calls and their results are `tool` */
  role?: 'user' | 'assistant' | 'tool';
  /** only entries since: a duration back from now (`7d`) or a time; by the entry's own time, else its commit's */
  since?: string;
  ignoreCase?: boolean;
  /** the pattern is a plain string */
  fixed?: boolean;
  /** only matches that are whole words (no letter, digit or _ on either side), as grep -w */
  word?: boolean;
  /** at most this many hits */
  limit?: number;
  /** read every commit, not the search index's candidates (the same hits; CTX_NO_INDEX=1 does it for every search) */
  noIndex?: boolean;
}

export interface GrepHit {
  /** `ctx-<40 hex>` */
  commit: string;
  /** a branch whose chain holds the commit (the first by name, or the first given) */
  branch: string;
  /** index of the entry among the neutral messages of the commit's artifact read alone (`commitMessages`) */
  entry: number;
  /** the role of the matching block: `user`, `assistant`, `system`, or `tool` for tool calls and results */
  role: string;
  /** the text around the first match in the entry, on one line */
  snippet: string;
  /** the entry's own time when its format records one, else null */
  at: string | null;
}

export const GREP_ROLES = ['user', 'assistant', 'tool'] as const;


/** Hits across the chosen branches, branch by branch (by name, or as given), newest commit first, entries in order. */
export async function* grep(ctx: RepoContext, o: GrepOptions): AsyncIterable<GrepHit> {
  const re = grepPattern(o);
  if (o.role !== undefined && !GREP_ROLES.includes(o.role)) throw new UsageError(`--role takes ${GREP_ROLES.join(', ')}, not '${o.role}'`);
  const since = o.since === undefined ? null : (parseSince(o.since, ctx.now())?.start ?? null);
  const limit = o.limit ?? Infinity;
  if (limit <= 0) return;
  const literal = requiredLiteral(o.pattern, o.fixed, o.ignoreCase);
  const mayHold = rawCheck(literal, o.ignoreCase ?? false);
  let found = 0;
  for await (const c of searchedCommits(ctx, o, literal === null ? null : { text: literal }, mayHold, since !== null)) {
    for (let entry = c.from; entry < c.messages.length; entry++) {
      const m = c.messages[entry];
      if (since !== null && (m.timestamp ?? c.meta!.created_at) < since) continue;
      const match = matchMessage(m, re, o.role);
      if (!match) continue;
      yield { commit: fullId(c.oid), branch: c.branch, entry, role: match.role, snippet: match.snippet, at: m.timestamp ?? null };
      if (++found >= limit) return;
    }
  }
}

/** The branches searched, name → tip, in search order: as given, else every branch by name (`all`: remote-tracking ones too). */
export async function searchedTips(ctx: RepoContext, o: { branches?: string[]; all?: boolean }): Promise<[string, string][]> {
  if (o.branches?.length) return Promise.all(o.branches.map(async (b) => [b, await ctx.resolve(b)] as [string, string]));
  const tips = o.all ? ctx.allTips() : ctx.branchTips();
  return [...tips].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * The commits of the branches searched that may hold what is looked for, in search order: the search
 * index's candidates for `query` when it can answer (enabled, not busy, every tip in it), else every
 * commit of the chains. Either way each is read from the store and checked by `mayHold` and the caller.
 */
export async function* searchedCommits(ctx: RepoContext, o: { branches?: string[]; all?: boolean; noIndex?: boolean }, query: IndexQuery | null, mayHold: (bytes: Uint8Array) => boolean, withMeta: boolean): AsyncIterable<ScannedCommit> {
  // branches given are resolved first (an unknown one fails before the index is opened); every branch is listed only when the index cannot answer
  const given = o.branches?.length ? await searchedTips(ctx, o) : null;
  if (query !== null && !o.noIndex && indexWorthIt(ctx)) {
    const { indexedCandidates } = await import('./search-index.js');
    const listed = await indexedCandidates(ctx, given ?? (o.all ? 'all' : 'heads'), query);
    if (listed) return yield* scanListed(ctx, listed, mayHold, withMeta);
  }
  yield* scanCommits(ctx, given ?? (await searchedTips(ctx, o)), mayHold, withMeta);
}
