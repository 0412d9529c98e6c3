// Which context wrote a line of code. A line is a context's when that context wrote that exact line
// (the content index): a context linked to the line's code commit first (a link record, a
// Ctx-Context trailer, a cherry-pick's source), its own session's calls counting (a link names the
// tip after the edits); when no context is linked to the commit, any context whose call wrote the
// line into a file of that name, marked `matched`; else the line is `human`. A line too short to be
// indexed (a lone brace, `end`) takes the context of the nearest indexed line above it from the same
// code commit (below, when none is above).
import { readStoredCommits } from '../../store/context-commits.js';
import { samePath } from '../../core/path-match.js';
import type { RepoContext } from '../repo/repo-context.js';
import { contentIndex, normalise, type ContentHit, type ContentIndex } from './content-index.js';

/** A line of a file at a code revision, and the code commit that last changed it. */
export interface CodeLine {
  line: number;
  commit: string;
  text: string;
}

export interface Attribution {
  /** the context commit whose tool call wrote the line (40 hex), or null: a person did */
  context: string | null;
  /** `linked`: a context linked to the code commit wrote it; `matched`: none is linked, the content matched; `human` */
  how: 'linked' | 'matched' | 'human';
  /** the conversation the line belongs to: the linked context it was found through, or, matched, the commit that wrote it */
  conversation: string | null;
  /** where in the context: the tool call's entry, its tool and path, the branch and session */
  entry: number | null;
  tool: string | null;
  toolPath: string | null;
  branch: string | null;
  session: string | null;
  /** the prompt before the call in its commit (null: none there, or a person's line) */
  prompt: string | null;
}

/** Each line of the file `path` (relative to its repository's top) with who wrote it; `linked`: code commit → its linked contexts (40 hex), strongest first. */
export async function attributeLines<T extends CodeLine>(ctx: RepoContext, lines: readonly T[], linked: ReadonlyMap<string, readonly string[]>, path: string, index?: ContentIndex): Promise<(T & Attribution)[]> {
  const who = await attributions(ctx, lines, linked, path, index);
  return lines.map((l, i) => Object.assign({}, l, who[i]));
}

/**
 * Who wrote each line, as attributeLines says, in an array beside `lines`: a caller with thousands
 * of lines builds its records in one literal (V8 copies `{ ...a, ...b }` into a slow object, ~40 µs each).
 */
export async function attributions(ctx: RepoContext, lines: readonly CodeLine[], linked: ReadonlyMap<string, readonly string[]>, path: string, index?: ContentIndex): Promise<Attribution[]> {
  index ??= await contentIndex(ctx);
  const sessions = await sessionsOf(ctx, [...new Set([...linked.values()].flat())], index);
  const query = path.split('/');
  const same = new Map<string, boolean>();
  const sameFile = (h: ContentHit) => same.get(h.path) ?? same.set(h.path, samePath(query, h.path)).get(h.path)!;
  const keys = lines.map((l) => normalise(l.text));
  const out = lines.map((l, i): Attribution => {
    const key = keys[i];
    if (key === null) return human();
    const hits = index!.hits(key);
    if (hits.length === 0) return human();
    const mine = linked.get(l.commit);
    if (mine === undefined || mine.length === 0) {
      const hit = hits.find(sameFile);
      return hit ? written(hit, 'matched', hit.context) : human();
    }
    for (const c of mine) {
      // c's hits (its own, or its session's): the first in this file, else the first
      const session = sessions.get(c);
      let first: ContentHit | undefined;
      for (const h of hits) {
        if (h.context !== c && (session === undefined || h.session !== session)) continue;
        if (sameFile(h)) return written(h, 'linked', c);
        first ??= h;
      }
      if (first) return written(first, 'linked', c);
    }
    return human();
  });
  carryOver(lines, out, keys.map((k) => k !== null));
  return out;
}

const human = (): Attribution => ({ context: null, how: 'human', conversation: null, entry: null, tool: null, toolPath: null, branch: null, session: null, prompt: null });
const written = (h: ContentHit, how: Attribution['how'], conversation: string): Attribution => ({ context: h.context, how, conversation, entry: h.entry, tool: h.tool, toolPath: h.path, branch: h.branch, session: h.session, prompt: h.prompt });

function carryOver(lines: readonly CodeLine[], who: Attribution[], significant: readonly boolean[]): void {
  const near = (i: number, step: 1 | -1): Attribution | null => {
    for (let j = i + step; j >= 0 && j < lines.length && lines[j].commit === lines[i].commit && lines[j].line === lines[j - step].line + step; j += step) if (significant[j]) return who[j];
    return null;
  };
  who.forEach((a, i) => {
    if (significant[i] || a.context !== null) return;
    const from = near(i, -1) ?? near(i, 1);
    if (from?.context != null) who[i] = { ...from };
  });
}

/** context commit → its session id, for those the store holds (a trailer may name one it does not); the index knows those it read. */
async function sessionsOf(ctx: RepoContext, contexts: readonly string[], index: ContentIndex): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const unknown: string[] = [];
  for (const c of contexts) {
    const s = index.sessionOf(c);
    if (s !== undefined) out.set(c, s);
    else unknown.push(c);
  }
  if (unknown.length === 0) return out;
  const present = await ctx.engine.readObjects(unknown);
  const held = unknown.filter((_, i) => present[i]?.type === 'commit');
  const stored = await readStoredCommits(ctx.engine, held).catch(() => []);
  stored.forEach((s, i) => out.set(held[i], s.meta.session_id));
  return out;
}
