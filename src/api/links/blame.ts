// `ctx blame`: git blame of a code file, then for each line the context whose tool call wrote it
// (attribute.ts says how), and the prompt that led to that call: the user message before it.
import { cherryPickedFrom, contextClaims } from '../../core/links.js';
import { NotFoundError, UsageError } from '../../errors/index.js';
import { CodeBlameError, codeBlame, codeFileOf, codeMessages, type CodeBlameLine } from '../../store/code/blame.js';
import type { RepoContext } from '../repo/repo-context.js';
import { attributions, type Attribution } from './attribute.js';
import { promptFinder } from './prompt.js';
import { linkIndex } from './records.js';
import { drainAt } from './drain.js';

export interface BlameOptions {
  /** the file, relative to `cwd` or absolute */
  file: string;
  cwd: string;
  /** lines LINE..END, 1-based, inclusive */
  range?: [number, number];
  /** the code revision blamed (default HEAD) */
  rev?: string;
  /** the process waits for each git (the CLI: nothing else to do meanwhile, and less CPU; store/code/blame.ts) */
  blocking?: boolean;
}

/** A blamed line; its `prompt` is the user message that led to the tool call. */
export interface BlameLine extends CodeBlameLine, Omit<Attribution, 'conversation'> {}

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
  await drainAt(ctx, f.top);
  const lines = await codeBlame(f, { rev: o.rev, ranges: o.range ? [o.range] : undefined, blocking: o.blocking }).catch(blameError);
  const linked = await linkedContexts(ctx, f.top, [...new Set(lines.map((l) => l.commit))], o.blocking);
  const who = await attributions(ctx, lines, linked, f.path);
  // one literal per line: V8 makes `{ ...line, ...who }` a slow object, and a file has thousands
  const out = lines.map((l, i): BlameLine => {
    const a = who[i];
    return { line: l.line, commit: l.commit, original: l.original, path: l.path, text: l.text, author: l.author, authorMail: l.authorMail, authorTime: l.authorTime, summary: l.summary, boundary: l.boundary, context: a.context, how: a.how, entry: a.entry, tool: a.tool, toolPath: a.toolPath, branch: a.branch, session: a.session, prompt: a.prompt };
  });
  // the index holds the prompt of the call's own commit; one committed before it is looked for
  const missing = out.filter((l) => l.context !== null && l.prompt === null);
  // grep's module is loaded only when a prompt is missing
  const promptOf = missing.length > 0 ? await promptFinder(ctx) : null;
  const prompts = new Map<string, Promise<string | null>>();
  for (const l of missing) {
    const key = `${l.context} ${l.entry}`;
    if (!prompts.has(key)) prompts.set(key, promptOf!(l.context!, l.entry!));
    l.prompt = await prompts.get(key)!;
  }
  return { top: f.top, path: f.path, rev: o.rev ?? 'HEAD', lines: out };
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
async function linkedContexts(ctx: RepoContext, top: string, codes: readonly string[], blocking?: boolean): Promise<Map<string, string[]>> {
  const index = await linkIndex(ctx);
  const messages = await codeMessages(top, codes, blocking);
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
