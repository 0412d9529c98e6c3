// What a context's tool calls wrote: the paths its edits, writes and patches named, walking its chain
// from the tip back to a mark, asked of each commit's runtime (effectsReader). What the git hooks
// link a commit by, and how a context a commit message only claims is verified.
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { effectsReader, type EffectsReader } from '../search/effects.js';
import type { Runtime } from '../capture/runtime.js';
import { scanChainTo } from '../search/scan.js';
import { samePath } from '../../core/path-match.js';
import { readTipMeta } from '../read/context-reader.js';
import { normalise } from './content-index.js';
import type { RepoContext } from '../repo/repo-context.js';

export interface ToolWrites {
  /** the paths as the tool calls named them (absolute, or relative to the session's directory), once each */
  paths: string[];
  /** per path: the lines its calls wrote and took out, as the content index keys them (normalise) */
  lines: Map<string, { added: Set<string>; removed: Set<string> }>;
  /** the model of the newest commit that names one */
  model?: string;
}

const WRITES = new Set(['edit', 'write']);
/** How far back past the walked commits a model is looked for. */
const MODEL_LOOKBACK = 20;

const modelOf = (source: Record<string, unknown> | undefined) => (typeof source?.model === 'string' && source.model !== '' ? source.model : undefined);

/**
 * The paths the tool calls of `context`'s chain edited or wrote, newest commit first, down to (not
 * including) `since`. `own`: the runtime whose session the chain is, asked alone about a commit in
 * one of its formats (what every runtime would answer), so the other plug-ins are not loaded.
 */
export async function toolWrites(ctx: RepoContext, context: string, since?: string | null, own?: Pick<Runtime, 'formats' | 'tools'>): Promise<ToolWrites> {
  let every: EffectsReader | undefined;
  const tools = own?.tools;
  const mine: EffectsReader | undefined = tools && ((_, call) => tools.effects(call));
  const effects = async (format: string): Promise<EffectsReader> => (mine && own!.formats.includes(format) ? mine : (every ??= await effectsReader()));
  const paths = new Set<string>();
  const lines = new Map<string, { added: Set<string>; removed: Set<string> }>();
  let model: string | undefined;
  let last = context;
  for await (const c of scanChainTo(ctx, context, since, () => true, true)) {
    last = c.oid;
    model ??= modelOf(c.meta!.source);
    const effectsOf = await effects(c.meta!.format);
    for (let i = c.from; i < c.messages.length; i++)
      for (const b of c.messages[i].content)
        if (b.type === 'tool_call')
          for (const e of effectsOf(c.meta!.format, b)) {
            if (!WRITES.has(e.action)) continue;
            paths.add(e.path);
            const l = lines.get(e.path) ?? lines.set(e.path, { added: new Set(), removed: new Set() }).get(e.path)!;
            for (const t of e.added ?? []) keyOf(t, l.added);
            for (const t of e.removed ?? []) keyOf(t, l.removed);
          }
  }
  if (model === undefined) model = await olderModel(ctx, last);
  return { paths: [...paths], lines, ...(model !== undefined ? { model } : {}) };
}

function keyOf(line: string, into: Set<string>): void {
  const k = normalise(line);
  if (k !== null) into.add(k);
}

/**
 * Whether a staged change bears out the session's writes to its file: a line the commit adds holds a
 * line (or, for an edit that began mid-line, a piece of one) the session wrote, or a line it takes out
 * holds one the session took out. When the session's writes to the file, or the change, have no line
 * that says who wrote it (blank lines, lone braces, a word), the touch alone decides.
 */
export function bearsOut(change: { added: readonly string[]; removed: readonly string[] }, wrote: readonly { added: Set<string>; removed: Set<string> }[]): boolean {
  const sides = [
    [change.added, wrote.flatMap((w) => [...w.added])],
    [change.removed, wrote.flatMap((w) => [...w.removed])],
  ] as const;
  if (sides.every(([, pieces]) => pieces.length === 0)) return true;
  let significant = false;
  for (const [lines, pieces] of sides)
    for (const line of lines) {
      const k = normalise(line);
      if (k === null) continue;
      significant = true;
      if (pieces.some((p) => k.includes(p))) return true;
    }
  return !significant;
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
