// The content index: every line the sessions' tool calls wrote into a file (the `added` lines of
// their edit and write effects, as the runtime plug-in reads them), normalised, → where it was
// written: the context commit, the entry among that commit's messages, the tool and its path, the
// branch and the session, and the prompt that led to the call. `ctx blame` and `ctx why` look a code line up here to find the context
// that wrote it when no trailer or link says so, or to say which entry of a linked context did.
//
// API:
//   contentIndex(ctx): Promise<ContentIndex>   brought up to date, then answering
//   index.lookup(line): ContentHit[]           the places that wrote `line` (any spacing around it), in the order indexed
//   index.hits(key): ContentHit[]              the same for a line already normalised
//   normalise(line): string | null             the key a line is indexed under, or null when it says too little
//   index.sessionOf(context): string | undefined  a read commit's session
//
// The normalisation rule: a line is trimmed of white space at both ends (indentation and trailing
// spaces do not matter; nothing inside the line changes). It is left out when, once every character
// that is not a letter or a digit is taken away, fewer than 4 remain (blank lines, lone braces and
// brackets, `});`, `*/`, `end`, `fi`, `i++`, `x = 1;`) or what remains is one of BLOCK_WORDS (`else`,
// `return`, `break`, `done`, …: lines every program has). A line an edit both took out and put back
// (the unchanged context an edit's new text repeats) is not counted as written by it.
//
// Kept under <repo>/ctx/content/index.json (derived data). Context commits never change, so an
// update reads only the commits not indexed yet: a branch whose tip was indexed is not walked at all,
// and on the others the commits indexed before are walked past. A file that cannot be read is rebuilt.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { derivedDir, writeDerived } from '../../store/derived.js';
import { effectsReader } from '../search/effects.js';
import { MAX_PROMPT, userText } from './prompt.js';
import type { RepoContext } from '../repo/repo-context.js';

/** One place a line was written. */
export interface ContentHit {
  /** the context commit, 40 hex */
  context: string;
  /** the tool call's message among the commit's messages (as `ctx grep` and `ctx files` number them) */
  entry: number;
  /** the file as the tool named it (absolute, or relative to the session's working directory) */
  path: string;
  /** the tool's name and what it did: `edit` or `write` */
  tool: string;
  action: 'edit' | 'write';
  /** the branch that held the commit when it was indexed */
  branch: string;
  /** meta.json's session_id */
  session: string;
  /** the prompt that led to the call: the last user message with words before it in the same commit (cut to 500 characters); null when the commit holds none before it */
  prompt: string | null;
}

export interface ContentIndex {
  lookup(line: string): ContentHit[];
  hits(key: string): ContentHit[];
  /** the session of a context commit (40 hex) the index has read, else undefined */
  sessionOf(context: string): string | undefined;
  /** how many context commits were read into the index, and how many lines it holds */
  readonly commits: number;
  readonly lines: number;
}

/** Lines that are one of these words (letters only, any case) say nothing about who wrote them. */
export const BLOCK_WORDS: ReadonlySet<string> = new Set(
  ['else', 'elif', 'elsif', 'endif', 'then', 'done', 'esac', 'begin', 'return', 'break', 'continue', 'pass', 'try', 'finally', 'default', 'endfor', 'endwhile', 'none', 'null', 'true', 'false', 'self', 'this'],
);
const MIN_SIGNIFICANT = 4;
/** At most this many places are kept per line (the first indexed): a line written everywhere says little anyway. */
const MAX_HITS = 200;

/** 16 ASCII letters or digits from the start, with only ASCII between them: longer than every block word. */
const WORDY = /^(?:[\x00-\x2f\x3a-\x40\x5b-\x60\x7b-\x7f]*[0-9A-Za-z]){16}/;

/** The key a line is indexed under: the line trimmed; null when it is too short or too common to say who wrote it. */
export function normalise(line: string): string | null {
  const t = line.trim();
  // most code is ASCII: one native match instead of counting in JavaScript (a blame normalises every line)
  if (WORDY.test(t)) return t;
  const significant = t.replace(/[^\p{L}\p{N}]/gu, '');
  if (significant.length < MIN_SIGNIFICANT) return null;
  if (BLOCK_WORDS.has(significant.toLowerCase())) return null;
  return t;
}

const FILE_VERSION = 2;
const FIELDS = 5;

/** The file: tables of commits, paths, tools and prompts, and per line its places as [commit, entry, path, tool, prompt or -1] index quintuples. */
interface IndexFile {
  v: typeof FILE_VERSION;
  /** every commit read (hits or not), 40 hex, with its branch and session: a hit's commit is an index here */
  commits: [string, string, string][];
  /** the tips walked, so an unchanged branch is not walked again */
  tips: string[];
  paths: string[];
  tools: [string, 'edit' | 'write'][];
  prompts: string[];
  lines: Record<string, number[]>;
}

const emptyFile = (): IndexFile => ({ v: FILE_VERSION, commits: [], tips: [], paths: [], tools: [], prompts: [], lines: Object.create(null) });

function readIndexFile(file: string): IndexFile {
  try {
    const f = JSON.parse(readFileSync(file, 'utf8')) as IndexFile;
    const ok =
      f?.v === FILE_VERSION &&
      Array.isArray(f.commits) && f.commits.every((c) => Array.isArray(c) && typeof c[0] === 'string' && /^[0-9a-f]{40,64}$/.test(c[0]) && typeof c[1] === 'string' && typeof c[2] === 'string') &&
      Array.isArray(f.tips) && f.tips.every((t) => typeof t === 'string') &&
      Array.isArray(f.paths) && f.paths.every((p) => typeof p === 'string') &&
      Array.isArray(f.tools) && f.tools.every((t) => Array.isArray(t) && typeof t[0] === 'string' && (t[1] === 'edit' || t[1] === 'write')) &&
      Array.isArray(f.prompts) && f.prompts.every((p) => typeof p === 'string') &&
      f.lines !== null && typeof f.lines === 'object' && !Array.isArray(f.lines);
    // `lines` as parsed, with Object's prototype: a key like `constructor` reads an inherited value, never
    // an array, so hits() finds nothing there; addCommits copies it to a null-prototype object before it
    // writes (copying 2,000 keys cost a blame ~2.5 ms)
    if (ok) return f;
  } catch {
    // none yet, or unreadable: rebuilt
  }
  return emptyFile();
}

/** The content index of every branch (local and remote-tracking), brought up to date first. */
export async function contentIndex(ctx: RepoContext): Promise<ContentIndex> {
  const file = join(ctx.gitdir, 'ctx', 'content', 'index.json');
  const f = readIndexFile(file);
  const tips = [...ctx.allTips(true)].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const read = new Set(f.commits.map((c) => c[0]));
  const walked = new Set(f.tips);
  const fresh = tips.filter(([, tip]) => !walked.has(tip) && !read.has(tip));
  if (fresh.length > 0) {
    await addCommits(ctx, f, fresh, read);
    f.tips = tips.map(([, t]) => t);
    try {
      writeDerived(join(derivedDir(ctx.gitdir, 'content'), 'index.json'), JSON.stringify(f));
    } catch {
      // a read-only store still answers
    }
  }
  return answering(f);
}

async function addCommits(ctx: RepoContext, f: IndexFile, tips: [string, string][], read: Set<string>): Promise<void> {
  // a key `__proto__` or `constructor` is a line like any other here
  if (Object.getPrototypeOf(f.lines) !== null) f.lines = Object.assign(Object.create(null), f.lines);
  const effects = await effectsReader();
  // loaded only when there is something to read: blame on an index up to date does without grep's regular expressions
  const { scanCommits } = await import('../search/scan.js');
  const pathAt = tableOf(f.paths, (p) => p);
  const toolAt = tableOf(f.tools, (t) => `${t[0]}\t${t[1]}`);
  const promptAt = tableOf(f.prompts, (p) => p);
  for await (const c of scanCommits(ctx, tips, () => true, true, (oid) => read.has(oid))) {
    const commit = f.commits.push([c.oid, c.branch, c.meta!.session_id]) - 1;
    read.add(c.oid);
    let prompt = -1;
    for (let entry = 0; entry < c.messages.length; entry++) {
      const said = userText(c.messages[entry]);
      if (said !== null) prompt = promptAt(said.length > MAX_PROMPT ? `${said.slice(0, MAX_PROMPT - 1)}…` : said);
      if (entry < c.from) continue;
      for (const b of c.messages[entry].content) {
        if (b.type !== 'tool_call') continue;
        for (const e of effects(c.meta!.format, b)) {
          if ((e.action !== 'edit' && e.action !== 'write') || !e.added?.length) continue;
          const path = pathAt(e.path);
          const tool = toolAt([b.name, e.action]);
          for (const key of writtenLines(e.added, e.removed)) {
            const list = f.lines[key] ?? (f.lines[key] = []);
            if (list.length >= MAX_HITS * FIELDS) continue;
            // one place per line and call, however often the call wrote it
            const n = list.length;
            if (n >= FIELDS && list[n - FIELDS] === commit && list[n - FIELDS + 1] === entry && list[n - FIELDS + 2] === path) continue;
            list.push(commit, entry, path, tool, prompt);
          }
        }
      }
    }
  }
}

/** The keys of the lines a call put in, less those it took out (an edit repeats the lines around its change). */
function writtenLines(added: readonly string[], removed: readonly string[] | undefined): string[] {
  const out = new Map<string, number>();
  for (const l of added) {
    const k = normalise(l);
    if (k !== null) out.set(k, (out.get(k) ?? 0) + 1);
  }
  for (const l of removed ?? []) {
    const k = normalise(l);
    const n = k === null ? undefined : out.get(k);
    if (n !== undefined) n > 1 ? out.set(k!, n - 1) : out.delete(k!);
  }
  return [...out.keys()];
}

/** An append-only table and a function giving a value's index in it, adding it when new. */
function tableOf<T>(table: T[], key: (v: T) => string): (v: T) => number {
  const at = new Map(table.map((v, i) => [key(v), i]));
  return (v) => {
    const k = key(v);
    let i = at.get(k);
    if (i === undefined) at.set(k, (i = table.push(v) - 1));
    return i;
  };
}

function answering(f: IndexFile): ContentIndex {
  const hits = (key: string): ContentHit[] => {
    const list = f.lines[key];
    if (!Array.isArray(list)) return [];
    const out: ContentHit[] = [];
    for (let i = 0; i + FIELDS - 1 < list.length; i += FIELDS) {
      // derived data on disk: an index out of its table is skipped
      const c = f.commits[list[i]];
      const path = f.paths[list[i + 2]];
      const tool = f.tools[list[i + 3]];
      const entry = list[i + 1];
      const prompt = list[i + 4] === -1 ? null : f.prompts[list[i + 4]];
      if (!c || path === undefined || !tool || !Number.isInteger(entry) || entry < 0 || prompt === undefined) continue;
      out.push({ context: c[0], entry, path, tool: tool[0], action: tool[1], branch: c[1], session: c[2], prompt });
    }
    return out;
  };
  let sessions: Map<string, string> | null = null;
  return {
    hits,
    sessionOf: (context) => (sessions ??= new Map(f.commits.map((c) => [c[0], c[2]]))).get(context),
    lookup: (line) => {
      const k = normalise(line);
      return k === null ? [] : hits(k);
    },
    commits: f.commits.length,
    get lines() {
      return Object.keys(f.lines).length;
    },
  };
}
