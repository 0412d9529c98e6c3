// What a context's tool calls wrote: the paths its edits, writes and patches named, walking its chain
// from the tip back to a mark, asked of each commit's runtime (effectsReader). What the git hooks
// link a commit by, and how a context a commit message only claims is verified.
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { effectsReader } from '../search/effects.js';
import { scanCommits } from '../search/grep.js';
import { samePath } from '../search/touched.js';
import { readTipMeta } from '../read/context-reader.js';
import type { RepoContext } from '../repo/repo-context.js';

export interface ToolWrites {
  /** the paths as the tool calls named them (absolute, or relative to the session's directory), once each */
  paths: string[];
  /** the model of the newest commit that names one */
  model?: string;
}

const WRITES = new Set(['edit', 'write']);
/** How far back past the walked commits a model is looked for. */
const MODEL_LOOKBACK = 20;

const modelOf = (source: Record<string, unknown> | undefined) => (typeof source?.model === 'string' && source.model !== '' ? source.model : undefined);

/** The paths the tool calls of `context`'s chain edited or wrote, newest commit first, down to (not including) `since`. */
export async function toolWrites(ctx: RepoContext, context: string, since?: string | null): Promise<ToolWrites> {
  const effects = await effectsReader();
  const paths = new Set<string>();
  let model: string | undefined;
  let last = context;
  for await (const c of scanCommits(ctx, [['', context]], () => true, true)) {
    if (c.oid === since) break;
    last = c.oid;
    model ??= modelOf(c.meta!.source);
    for (let i = c.from; i < c.messages.length; i++)
      for (const b of c.messages[i].content) if (b.type === 'tool_call') for (const e of effects(c.meta!.format, b)) if (WRITES.has(e.action)) paths.add(e.path);
  }
  if (model === undefined) model = await olderModel(ctx, last);
  return { paths: [...paths], ...(model !== undefined ? { model } : {}) };
}

async function olderModel(ctx: RepoContext, from: string): Promise<string | undefined> {
  for (const oid of await ctx.firstParents(from, MODEL_LOOKBACK)) {
    const m = modelOf((await readTipMeta(ctx, oid)).source);
    if (m !== undefined) return m;
  }
  return undefined;
}

/** Tool paths resolved against the session's directory, those inside the worktree `top`, relative to it with `/`. */
export function insideWorktree(paths: readonly string[], cwd: string, top: string): string[] {
  const out = new Set<string>();
  for (const p of paths) {
    const rel = relative(top, resolve(cwd, p));
    if (rel === '' || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) continue;
    out.add(rel.split(sep).join('/'));
  }
  return [...out];
}

/**
 * Of a code commit's `files` (relative to its repository's top), those the tool calls of `context`'s
 * chain edited or wrote, a tool path matching a file by its trailing components (the session's
 * directory is not known here). What verifies a context a commit message names.
 */
export async function touchedFiles(ctx: RepoContext, context: string, files: readonly string[], since?: string | null): Promise<string[]> {
  const { paths } = await toolWrites(ctx, context, since);
  return files.filter((f) => paths.some((p) => samePath(f.split('/'), p)));
}
