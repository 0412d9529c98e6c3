// `ctx grep`: search every session's messages. Each commit is searched once however many branches
// share it (forks share history); its artifact's raw bytes are checked first for a literal the
// pattern requires, and only the artifacts that hold it are parsed into neutral messages, where the
// pattern is matched against each block's text (tool calls and results as role `tool`).
import { fullId, shortId } from '../core/ids.js';
import { artifactName, COMMIT_TYPES, type CommitType, type Meta } from '../core/meta.js';
import { resultText, type Block, type NeutralMessage } from '../core/neutral.js';
import { parseSince } from '../core/window.js';
import { IntegrityError, UsageError } from '../errors/index.js';
import { knownFormat } from '../formats/registry.js';
import type { StorageFormat } from '../formats/format.js';
import { parseMeta, readArtifacts, readArtifactsAt, readStoredCommits } from '../store/context-commits.js';
import type { GitObject } from '../store/engine.js';
import { trailer } from './context-reader.js';
import type { RepoContext } from './repo-context.js';

export interface GrepOptions {
  /** a JavaScript regular expression, or a plain string with `fixed` */
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
  /** at most this many hits */
  limit?: number;
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

/** The pattern as a regular expression; a bad one is a usage error (exit 2). */
export function grepPattern(o: Pick<GrepOptions, 'pattern' | 'ignoreCase' | 'fixed'>): RegExp {
  if (o.pattern === '') throw new UsageError('grep: the pattern is empty');
  const source = o.fixed ? escapeRegExp(o.pattern) : o.pattern;
  try {
    return new RegExp(source, o.ignoreCase ? 'i' : '');
  } catch (e) {
    throw new UsageError(`grep: bad regular expression: ${(e as Error).message.replace(/^Invalid regular expression: /, '')}`);
  }
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

// characters every JSON writer of the stored formats (and CBOR) keeps as they are: a literal of them
// found in a block's text is found in the artifact's bytes too
const SAFE_CLASS = "A-Za-z0-9 _\\-.,:;!?#$%()*+=@^|~{}[\\]'/&<>`";
const SAFE = new RegExp(`[${SAFE_CLASS}]`);
const UNSAFE = new RegExp(`[^${SAFE_CLASS}]`);

/**
 * A literal every match contains, spelled with characters stored as they are; null when the pattern
 * has none worth looking for (then every artifact is parsed).
 */
export function requiredLiteral(pattern: string, fixed?: boolean): string | null {
  const runs = fixed ? pattern.split(UNSAFE) : regexRuns(pattern);
  const best = (runs ?? []).reduce((a, b) => (b.length > a.length ? b : a), '');
  return best.length >= 3 ? best : null;
}

/** The runs of plain characters every match of a regular expression holds; null when it is too clever to tell. */
function regexRuns(p: string): string[] | null {
  // an alternation or a group could make any run optional; escapes with a payload (\x41, \u, \1, \k, \p) spell other text
  if (/[|()]/.test(p.replace(/\\./g, '')) || /\\[xucpPk0-9]/.test(p)) return null;
  const runs: string[] = [];
  let run = '';
  const cut = () => (runs.push(run), (run = ''));
  for (let i = 0; i < p.length; i++) {
    let c = p[i];
    let plain = SAFE.test(c) && !/[.*+?^$[\]{}]/.test(c);
    if (c === '\\') {
      c = p[++i] ?? '';
      plain = /[.*+?^${}[\]\\/-]/.test(c) && SAFE.test(c);
    } else if (c === '[') i = skipTo(p, i, ']');
    else if (c === '{') i = skipTo(p, i, '}');
    const next = p[i + 1];
    if (!plain || next === '?' || next === '*' || next === '{') cut();
    else if (next === '+') (run += c), cut();
    else run += c;
  }
  cut();
  return runs;
}

/** Past a class or a quantifier's braces: the index of its closing character. */
function skipTo(p: string, i: number, close: string): number {
  for (let j = i + 1; j < p.length; j++) {
    if (p[j] === '\\') j++;
    else if (p[j] === close && (close !== ']' || j > i + 1)) return j;
  }
  return p.length;
}

/** Whether raw artifact bytes may hold a match: the required literal is among them. */
export function rawCheck(literal: string | null, ignoreCase: boolean): (bytes: Uint8Array) => boolean {
  if (literal === null) return () => true;
  if (!ignoreCase) {
    const needle = Buffer.from(literal, 'latin1');
    return (bytes) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).indexOf(needle) >= 0;
  }
  const re = new RegExp(escapeRegExp(literal), 'i');
  return (bytes) => re.test(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1'));
}

/** The text a block is searched in, and the role it counts as. */
export function blockText(b: Block): string | null {
  switch (b.type) {
    case 'text':
    case 'thinking':
      return b.text;
    case 'tool_call':
      return [b.name, ...leaves(b.input)].join('\n');
    case 'tool_result':
      return readable(resultText(b.content));
    default:
      return null;
  }
}

/** A result that is a JSON object (Codex's `{"output": …, "metadata": …}`) as its values, else as it is. */
function readable(text: string): string {
  if (!text.startsWith('{')) return text;
  try {
    const v: unknown = JSON.parse(text);
    return v && typeof v === 'object' ? leaves(v).join('\n') : text;
  } catch {
    return text;
  }
}

/** A tool call's arguments as their string and number values, in order (what a person searches for). */
function leaves(v: unknown): string[] {
  if (typeof v === 'string') return [v];
  if (typeof v === 'number' || typeof v === 'boolean') return [String(v)];
  if (Array.isArray(v)) return v.flatMap(leaves);
  if (v && typeof v === 'object') return Object.values(v).flatMap(leaves);
  return [];
}

/** The first match in a message, per block, among blocks of `role` (when given). */
export function matchMessage(m: NeutralMessage, re: RegExp, role?: string): { role: string; snippet: string } | null {
  for (const b of m.content) {
    const blockRole = b.type === 'tool_call' || b.type === 'tool_result' ? 'tool' : m.role;
    if (role !== undefined && blockRole !== role) continue;
    const text = blockText(b);
    if (text === null) continue;
    const found = re.exec(text);
    if (found) return { role: blockRole, snippet: snippet(text, found.index, found.index + found[0].length) };
  }
  return null;
}

const CONTEXT = 40;

/** The match with up to 40 characters either side, whitespace runs as one space, control characters as U+FFFD, cuts marked `…`. */
export function snippet(text: string, start: number, end: number): string {
  const from = Math.max(0, start - CONTEXT);
  const to = Math.min(text.length, Math.max(end, start + 1) + CONTEXT, start + 400);
  // one line, and inert on a terminal: a tool's output may hold escape sequences
  const flat = (s: string) => s.replace(/\s+/g, ' ').replace(/[\x00-\x1f\x7f-\x9f]/g, '\ufffd');
  return `${from > 0 ? '…' : ''}${flat(text.slice(from, to)).trim()}${to < text.length ? '…' : ''}`;
}

/** A commit to search, with where its artifact is. */
interface Candidate {
  oid: string;
  tree: string;
  parent: Candidate | null;
  branch: string;
  /** undefined: a format this build does not know */
  format: StorageFormat | undefined;
  type: CommitType;
}

const BATCH = 4096;

/** Hits across the chosen branches, branch by branch (by name, or as given), newest commit first, entries in order. */
export async function* grep(ctx: RepoContext, o: GrepOptions): AsyncIterable<GrepHit> {
  const re = grepPattern(o);
  if (o.role !== undefined && !GREP_ROLES.includes(o.role)) throw new UsageError(`--role takes ${GREP_ROLES.join(', ')}, not '${o.role}'`);
  const since = o.since === undefined ? null : (parseSince(o.since, ctx.now())?.start ?? null);
  const limit = o.limit ?? Infinity;
  if (limit <= 0) return;
  const mayHold = rawCheck(requiredLiteral(o.pattern, o.fixed), o.ignoreCase ?? false);
  let found = 0;
  for await (const c of scanCommits(ctx, await searchedTips(ctx, o), mayHold, since !== null)) {
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

/** A commit whose artifact may hold what is looked for, read into messages. */
export interface ScannedCommit {
  oid: string;
  branch: string;
  /** read when asked for (`withMeta`), else null */
  meta: Meta | null;
  messages: NeutralMessage[];
  /** the first message new in this commit (a format whose every artifact is the whole context repeats its parent's) */
  from: number;
}

/**
 * Every commit of the chains once (tip first per branch; `ctx snapshot` commits, copies of a chain, left out),
 * its artifact's bytes handed to `mayHold` as they stream by; those it keeps are parsed, and with
 * `withMeta` their meta.json read.
 */
export async function* scanCommits(ctx: RepoContext, tips: readonly [string, string][], mayHold: (bytes: Uint8Array) => boolean, withMeta = false): AsyncIterable<ScannedCommit> {
  for await (const batch of commitBatches(ctx, tips)) yield* await scanBatch(ctx, batch, mayHold, withMeta);
}

async function* commitBatches(ctx: RepoContext, tips: readonly [string, string][]): AsyncIterable<Candidate[]> {
  const seen = new Set<string>();
  let batch: Candidate[] = [];
  // a few chains read ahead while one is searched: each is a `git rev-list` of its own
  const chains = aheadOf(tips.map(([, tip]) => () => ctx.engine.chain(tip)), 4);
  for (const [k, [branch]] of tips.entries()) {
    const links = await chains(k);
    let child: Candidate | null = null;
    for (const l of links) {
      const type = trailer(l.message, 'Ctx-Type') as CommitType;
      const format = knownFormat(trailer(l.message, 'Ctx-Format') ?? '');
      const c: Candidate = { oid: l.oid, tree: l.tree, parent: null, branch, format, type };
      if (child) child.parent = c;
      child = c;
      if (seen.has(l.oid)) break;
      seen.add(l.oid);
      if (!format?.toNeutral || !COMMIT_TYPES.includes(type)) continue;
      batch.push(c);
      if (batch.length >= BATCH) {
        yield batch;
        batch = [];
      }
    }
  }
  if (batch.length) yield batch;
}

/** `jobs` run in order, at most `n` ahead of the one asked for; `at(k)` is job k's result. */
function aheadOf<T>(jobs: readonly (() => Promise<T>)[], n: number): (k: number) => Promise<T> {
  const started: Promise<T>[] = [];
  const start = (k: number) => {
    while (started.length < Math.min(jobs.length, k + n + 1)) {
      const p = jobs[started.length]();
      p.catch(() => {}); // awaited in turn; until then a failure waits there
      started.push(p);
    }
  };
  return (k) => (start(k), started[k]);
}

async function scanBatch(ctx: RepoContext, batch: Candidate[], mayHold: (b: Uint8Array) => boolean, withMeta: boolean): Promise<ScannedCommit[]> {
  const specs = batch.map((c) => artifactSpec(c));
  const held = new Map<number, Uint8Array>();
  const chunked: number[] = [];
  const take = (i: number, obj: GitObject | null) => {
    if (obj?.type === 'tree') chunked.push(i);
    else if (obj?.type === 'blob' && mayHold(obj.data)) held.set(i, Uint8Array.from(obj.data));
  };
  if (ctx.engine.readEach) await ctx.engine.readEach(specs, take);
  else (await ctx.engine.readObjects(specs)).forEach((obj, i) => take(i, obj));
  if (chunked.length) {
    const whole = await readArtifactsAt(ctx.engine, chunked.map((i) => ({ oid: batch[i].oid, spec: specs[i] })));
    chunked.forEach((i, k) => mayHold(whole[k]) && held.set(i, whole[k]));
  }
  const order = [...held.keys()].sort((a, b) => a - b);
  // a snapshot's meta.json says whether it copies a chain (`ctx snapshot`): those are not searched
  const metaOf = order.filter((i) => withMeta || batch[i].type === 'snapshot');
  const blobs = await ctx.engine.readObjects(metaOf.map((i) => `${batch[i].tree}:meta.json`));
  const metas = new Map(metaOf.map((i, k) => {
    if (!blobs[k]) throw new IntegrityError(`${shortId(batch[i].oid)}: meta.json is missing`);
    return [i, parseMeta(batch[i].oid, blobs[k]!.data)];
  }));
  const out: ScannedCommit[] = [];
  for (const i of order) {
    const c = batch[i];
    const meta = metas.get(i) ?? null;
    if (meta?.snapshot_of) continue;
    const whole = c.type === 'snapshot' || c.format!.concatRule === 'snapshot';
    out.push({ oid: c.oid, branch: c.branch, meta, messages: messagesOf(c.format!, held.get(i)!), from: whole ? await knownBefore(ctx, c) : 0 });
  }
  return out;
}

const artifactSpec = (c: Candidate) => `${c.tree}:${artifactName(c.type, c.format!.ext)}`;

/** A commit's own artifact as neutral messages, as grep and files number them (`entry`); null for a format ctx cannot read into messages. */
export async function commitMessages(ctx: RepoContext, spec: string): Promise<NeutralMessage[] | null> {
  const oid = await ctx.resolve(spec);
  const [stored] = await readStoredCommits(ctx.engine, [oid]);
  const format = knownFormat(stored.meta.format);
  if (!format?.toNeutral) return null;
  return messagesOf(format, (await readArtifacts(ctx.engine, [stored]))[0]);
}

function messagesOf(format: StorageFormat, bytes: Uint8Array): NeutralMessage[] {
  return format.toNeutral!(format.parse(bytes, { lastOfFile: true }));
}

/** An artifact that is the whole context (a snapshot, or such a format): the messages its parent's already held are not new here. */
async function knownBefore(ctx: RepoContext, c: Candidate): Promise<number> {
  const p = c.parent;
  if (!p?.format || p.format !== c.format || (p.type !== 'snapshot' && p.format.concatRule !== 'snapshot')) return 0;
  const [bytes] = await readArtifactsAt(ctx.engine, [{ oid: p.oid, spec: artifactSpec(p) }]);
  return messagesOf(p.format, bytes).length;
}
