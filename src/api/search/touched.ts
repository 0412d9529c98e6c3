// `ctx files`: which sessions and commits read, edited, wrote or ran a command on a path. Tool calls
// are read through the neutral model and their effects asked of the runtime whose format the commit
// is in (effects.ts); a path matches by a suffix of its components either way, so a relative query
// finds absolute tool paths and the other way round.
import { fullId } from '../../core/ids.js';
import { components, samePath } from '../../core/path-match.js';
import { UsageError } from '../../errors/index.js';
import { searchedCommits, searchedTips } from './grep.js';
import type { RepoContext } from '../repo/repo-context.js';
import { fileNamed } from '../../core/grep-match.js';
import { effectsReader, type TouchAction } from './effects.js';
import { indexWorthIt } from './small-store.js';

export type { TouchAction } from './effects.js';

export interface FileTouch {
  /** the path as the tool named it */
  path: string;
  /** `ctx-<40 hex>` */
  commit: string;
  branch: string;
  /** meta.json session_id */
  session: string;
  /** index of the tool call's message among the messages of the commit's artifact */
  entry: number;
  /** the tool's name */
  tool: string;
  action: TouchAction;
  /** the tool call's own time when its format records one, else its commit's created_at */
  at: string;
}

export { samePath } from '../../core/path-match.js';

/** Every tool call on the branches (default: every branch) that touched `path`, newest first; with the search index, answered from what it recorded of each call. */
export async function filesTouched(ctx: RepoContext, path: string, o: { branches?: string[]; noIndex?: boolean } = {}): Promise<FileTouch[]> {
  const query = components(path);
  if (query.length === 0) throw new UsageError(`files: not a path: '${path}'`);
  const name = query[query.length - 1];
  const out = (await indexedFiles(ctx, o, name)) ?? (await walkedFiles(ctx, o, name));
  const seen = new Set<string>();
  // thousands of calls name a few paths: each path matched once
  const matched = new Map<string, boolean>();
  const same = (path: string): boolean => {
    let m = matched.get(path);
    if (m === undefined) matched.set(path, (m = samePath(query, path)));
    return m;
  };
  return out
    .filter((t) => same(t.path))
    .filter((t) => {
      const key = `${t.commit} ${t.entry} ${t.tool} ${t.action} ${t.path}`;
      return !seen.has(key) && seen.add(key);
    })
    .sort((a, b) => (a.at !== b.at ? (a.at < b.at ? 1 : -1) : a.commit !== b.commit ? (a.commit < b.commit ? -1 : 1) : b.entry - a.entry));
}

/** The calls on files named `name`, from the search index's rows; null when it cannot answer. */
async function indexedFiles(ctx: RepoContext, o: { branches?: string[]; noIndex?: boolean }, name: string): Promise<FileTouch[] | null> {
  if (o.noIndex || !indexWorthIt(ctx)) return null;
  // branches given are resolved first: an unknown one fails before the index is opened
  const given = o.branches?.length ? await searchedTips(ctx, o) : null;
  const { indexedTouches } = await import('./search-index.js');
  const rows = await indexedTouches(ctx, given ?? 'heads', name);
  return rows && rows.map((r) => ({ path: r.path, commit: fullId(r.oid), branch: r.branch, session: r.session, entry: r.entry, tool: r.tool, action: r.action, at: r.at }));
}

/** The calls on files named `name`, read from every commit of the chains that may hold one. */
async function walkedFiles(ctx: RepoContext, o: { branches?: string[] }, name: string): Promise<FileTouch[]> {
  const effects = await effectsReader();
  const out: FileTouch[] = [];
  for await (const c of searchedCommits(ctx, { ...o, noIndex: true }, null, fileNamed(name), true))
    for (let entry = c.from; entry < c.messages.length; entry++) {
      const m = c.messages[entry];
      for (const b of m.content) {
        if (b.type !== 'tool_call') continue;
        for (const t of effects(c.meta!.format, b))
          if (components(t.path).at(-1) === name)
            out.push({ path: t.path, commit: fullId(c.oid), branch: c.branch, session: c.meta!.session_id, entry, tool: b.name, action: t.action, at: m.timestamp ?? c.meta!.created_at });
      }
    }
  return out;
}
