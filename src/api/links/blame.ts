// `ctx blame`: git blame of a code file, then for each line the context whose tool call wrote it.
// A line is a context's when that context wrote that exact line (the content index): a context
// linked to the line's code commit (a link record or a Ctx-Context trailer) first, and its own
// session's calls count (a link names the tip after the edits); when no context is linked to the
// commit, any context whose call wrote the line into a file of that name, marked `matched`; else
// the line is `human`. The entry's prompt is the user message before the tool call.
import { cherryPickedFrom, contextClaims } from '../../core/links.js';
import { NotFoundError, UsageError } from '../../errors/index.js';
import { CodeBlameError, codeBlame, codeFileOf, codeMessages, type CodeBlameLine } from '../../store/code-blame.js';
import { readStoredCommits } from '../../store/context-commits.js';
import { samePath } from '../search/touched.js';
import type { RepoContext } from '../repo/repo-context.js';
import { contentIndex, normalise, type ContentHit } from './content-index.js';
import { promptOf } from './prompt.js';
import { linkIndex } from './records.js';

export interface BlameOptions {
  /** the file, relative to `cwd` or absolute */
  file: string;
  cwd: string;
  /** lines LINE..END, 1-based, inclusive */
  range?: [number, number];
  /** the code revision blamed (default HEAD) */
  rev?: string;
}

export interface BlameLine extends CodeBlameLine {
  /** the context commit whose tool call wrote the line (40 hex), or null: a person did */
  context: string | null;
  /** `linked`: a context linked to the code commit wrote it; `matched`: none is linked, the content matched; `human` */
  how: 'linked' | 'matched' | 'human';
  /** where in the context: the tool call's entry, its tool and path, the branch and session, and the prompt that led to it */
  entry: number | null;
  tool: string | null;
  toolPath: string | null;
  branch: string | null;
  session: string | null;
  prompt: string | null;
}

export interface BlameResult {
  /** the code repository's top, the file's path there, and the revision blamed */
  top: string;
  path: string;
  rev: string;
  lines: BlameLine[];
}

/** `FILE[:LINE[,END]]` → the file and its range; a bad range is a usage error. */
export function parseBlameTarget(target: string): { file: string; range?: [number, number] } {
  const m = /^(.*?):(\d+)(?:,(\d+))?$/.exec(target);
  if (!m) return { file: target };
  const start = Number(m[2]);
  const end = m[3] === undefined ? start : Number(m[3]);
  if (start < 1 || end < start) throw new UsageError(`blame: not a line range: '${m[2]}${m[3] === undefined ? '' : `,${m[3]}`}' (lines count from 1, END at least LINE)`);
  return { file: m[1], range: [start, end] };
}

export async function blame(ctx: RepoContext, o: BlameOptions): Promise<BlameResult> {
  const f = await codeFileOf(o.file, o.cwd).catch(blameError);
  const lines = await codeBlame(f, { rev: o.rev, ranges: o.range ? [o.range] : undefined }).catch(blameError);
  const codes = [...new Set(lines.map((l) => l.commit))];
  const linked = await linkedContexts(ctx, f.top, codes);
  const sessions = await sessionsOf(ctx, [...new Set([...linked.values()].flat())]);
  const index = await contentIndex(ctx);
  const query = f.path.split('/');
  const out: BlameLine[] = [];
  const prompts = new Map<string, Promise<string | null>>();
  for (const l of lines) {
    const hits = index.lookup(l.text);
    const mine = linked.get(l.commit) ?? [];
    const sameFile = (h: ContentHit) => samePath(query, h.path);
    let hit: ContentHit | undefined;
    let how: BlameLine['how'] = 'human';
    if (mine.length > 0) {
      for (const c of mine) {
        const ofC = hits.filter((h) => h.context === c || (sessions.get(c) !== undefined && h.session === sessions.get(c)));
        hit = ofC.find(sameFile) ?? ofC[0];
        if (hit) break;
      }
      if (hit) how = 'linked';
    } else {
      hit = hits.find(sameFile);
      if (hit) how = 'matched';
    }
    if (hit) {
      const key = `${hit.context} ${hit.entry}`;
      if (!prompts.has(key)) prompts.set(key, promptOf(ctx, hit.context, hit.entry));
    }
    out.push({
      ...l,
      context: hit?.context ?? null,
      how,
      entry: hit?.entry ?? null,
      tool: hit?.tool ?? null,
      toolPath: hit?.path ?? null,
      branch: hit?.branch ?? null,
      session: hit?.session ?? null,
      prompt: null,
    });
  }
  carryOver(out, (l) => normalise(l.text) === null);
  for (const l of out) if (l.context !== null) l.prompt = await prompts.get(`${l.context} ${l.entry}`)!;
  return { top: f.top, path: f.path, rev: o.rev ?? 'HEAD', lines: out };
}

/**
 * A line too short to index (a lone brace, `end`) goes with the lines around it: in a run of lines of
 * one code commit, it takes the context of the nearest indexed line above, or, with none above, of
 * the nearest below.
 */
function carryOver(lines: BlameLine[], short: (l: BlameLine) => boolean): void {
  const significant = lines.map((l) => !short(l));
  const near = (i: number, step: 1 | -1): BlameLine | null => {
    for (let j = i + step; j >= 0 && j < lines.length && lines[j].commit === lines[i].commit && lines[j].line === lines[j - step].line + step; j += step) if (significant[j]) return lines[j];
    return null;
  };
  lines.forEach((l, i) => {
    if (significant[i] || l.context !== null) return;
    const from = near(i, -1) ?? near(i, 1);
    if (from?.context != null) Object.assign(l, { context: from.context, how: from.how, entry: from.entry, tool: from.tool, toolPath: from.toolPath, branch: from.branch, session: from.session });
  });
}

function blameError(e: unknown): never {
  if (!(e instanceof CodeBlameError)) throw e;
  if (e.kind === 'range') throw new UsageError(`blame: ${e.message}`);
  throw new NotFoundError(`blame: ${e.message}`);
}

/**
 * code sha → the contexts linked to it (40 hex), as contextsOfCode finds them but for every commit of
 * the file in one git run: its link records, the Ctx-Context lines of its message, and the records of
 * a commit it was cherry-picked from. A claim is borne out line by line: only what it wrote is its.
 */
async function linkedContexts(ctx: RepoContext, top: string, codes: readonly string[]): Promise<Map<string, string[]>> {
  const index = await linkIndex(ctx);
  const messages = await codeMessages(top, codes);
  const out = new Map<string, string[]>();
  for (const code of codes) {
    const message = messages.get(code) ?? '';
    const list: string[] = [];
    const add = (c: string) => void (list.includes(c) || list.push(c));
    for (const l of index.get(code) ?? []) add(l.context);
    for (const c of contextClaims(message)) add(c);
    for (const from of cherryPickedFrom(message)) for (const l of index.get(from) ?? []) add(l.context);
    if (list.length) out.set(code, list);
  }
  return out;
}

/** context commit → its session id, for those the store holds (a trailer may name one it does not). */
async function sessionsOf(ctx: RepoContext, contexts: readonly string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  if (contexts.length === 0) return out;
  const present = await ctx.engine.readObjects(contexts);
  const held = contexts.filter((_, i) => present[i]?.type === 'commit');
  const stored = await readStoredCommits(ctx.engine, held).catch(() => []);
  stored.forEach((s, i) => out.set(held[i], s.meta.session_id));
  return out;
}
