// Whether a context made a code commit, by what its tool calls did: they edited or wrote the commit's
// files, or wrote its added lines. A `Ctx-Context:` trailer is a claim anyone can write; this is what
// turns it into a verified link (or leaves it claimed). The tool calls' effects are the runtimes' to
// say (search/effects.ts).
import type { NeutralMessage } from '../../core/neutral.js';
import type { AddedLines } from '../../store/code/history.js';
import { knownFormat } from '../../formats/registry.js';
import { COMMIT_TYPES, SYNTHETIC_TRAILER, type CommitType } from '../../core/meta.js';
import type { ChainLink } from '../../store/engine.js';
import { readParts, trailer, walkContext, type ContextPart, type Walked } from '../read/context-reader.js';
import { effectsReader, type EffectsReader, type ToolEffect } from '../search/effects.js';
import type { RepoContext } from '../repo/repo-context.js';

/** One message of a context's chain, with the commit it came from and its tool calls' effects. */
export interface ChainMessage {
  message: NeutralMessage;
  /** index of its commit in the commits read (`oids`), oldest first */
  part: number;
  /** its index among its commit's own messages (as `ctx grep` and `ctx files` number them) */
  entry: number;
  /** for each tool call of the message, by its block index */
  effects: { block: number; tool: string; effects: ToolEffect[] }[];
}

/** The newest commits of a context's chain (or all of them), with every message and its effects. */
export interface ChainRead {
  tip: string;
  /** the commits read, oldest first (ids only; a copy `ctx snapshot` or `ctx compact` made is among them, unread) */
  oids: string[];
  /** whether they reach the chain's root */
  complete: boolean;
  /** the commits read, oldest first, with their artifacts (as read: not copied) */
  parts: { oid: string; format: string; artifact: Uint8Array }[];
  /** their messages, `part` indexing `oids` */
  messages: ChainMessage[];
}

// chains read lately in this process (the deepest read of each): why reads a context to verify it, then to show it
const recent = new Map<string, ChainRead>();

/**
 * The last `depth` commits of the context at `tip` (all by default), each tool call with its effects;
 * null when the store has no such commit (a CtxError when it cannot be read). Only those commits are
 * listed and read (a 10,000-commit chain's last turns cost what a short chain's do); each artifact is
 * read alone, as `ctx grep` reads it (a format whose artifacts are whole contexts: the messages its
 * parent held left out).
 */
export async function readChain(ctx: RepoContext, tip: string, depth = Infinity, effects?: EffectsReader): Promise<ChainRead | null> {
  const key = `${ctx.gitdir}\0${tip}`;
  const cached = recent.get(key);
  if (cached && (cached.complete || cached.oids.length >= depth)) return cached;
  const [obj] = await ctx.engine.readObjects([tip]);
  if (!obj || obj.type !== 'commit') return null;
  const links = await ctx.engine.chain(tip, Number.isFinite(depth) ? depth + 1 : undefined);
  const complete = links.length <= depth;
  const window = (complete ? links : links.slice(0, depth)).reverse();
  const read = await reading(ctx, tip, window, complete ? null : links[depth].oid, effects ?? (await effectsReader()));
  recent.set(key, read);
  if (recent.size > 4) recent.delete(recent.keys().next().value!);
  return read;
}

/** The window's commits as the walk describes them, from their trailers; what they do not tell, from the walk itself. */
async function walked(ctx: RepoContext, tip: string, window: readonly ChainLink[], before: string | null): Promise<Walked[]> {
  const out: Walked[] = [];
  for (const l of window) {
    const type = trailer(l.message, 'Ctx-Type') as CommitType;
    const format = trailer(l.message, 'Ctx-Format');
    if (!COMMIT_TYPES.includes(type) || type === 'snapshot' || !format) return (await walkContext(ctx, tip, before === null ? { kind: 'root' } : { kind: 'ancestor', oid: before })).parts;
    // what ctx compact made up holds nothing the session's tool calls did
    if (type === 'compaction' && trailer(l.message, SYNTHETIC_TRAILER) !== undefined) continue;
    out.push({ oid: l.oid, tree: l.tree, message: l.message, type, format });
  }
  return out;
}

async function reading(ctx: RepoContext, tip: string, window: readonly ChainLink[], before: string | null, reader: EffectsReader): Promise<ChainRead> {
  const parts: ContextPart[] = await readParts(ctx, await walked(ctx, tip, window, before));
  const oids = window.map((l) => l.oid);
  const at = new Map(oids.map((o, i) => [o, i]));
  const messages: ChainMessage[] = [];
  let before_ = 0;
  parts.forEach((p, k) => {
    const f = knownFormat(p.format);
    if (!f?.toNeutral) return void (before_ = 0);
    const ms = f.toNeutral(f.parse(p.artifact, { lastOfFile: true }));
    // a whole-context artifact repeats its parent's messages: only what is new here is its own
    const whole = p.type === 'snapshot' || f.concatRule === 'snapshot';
    const from = whole && k > 0 && parts[k - 1].format === p.format ? Math.min(before_, ms.length) : 0;
    before_ = ms.length;
    const part = at.get(p.oid)!;
    for (let entry = from; entry < ms.length; entry++) {
      const message = ms[entry];
      const calls: ChainMessage['effects'] = [];
      message.content.forEach((b, block) => {
        if (b.type === 'tool_call') calls.push({ block, tool: b.name, effects: reader(p.format, b) });
      });
      messages.push({ message, part, entry, effects: calls });
    }
  });
  return { tip, oids, complete: before === null, parts: parts.map((p) => ({ oid: p.oid, format: p.format, artifact: p.artifact })), messages };
}

/** What a context's tool calls did to one code commit. */
export interface Verification {
  /** the commit's files the context edited or wrote (repository-relative, as the commit names them) */
  files: string[];
  /** how many of the commit's added lines (non-blank) the context wrote */
  lines: number;
  verified: boolean;
}

/** Path components, `.` and empty ones dropped. */
const components = (p: string) => p.split(/[\\/]+/).filter((c) => c !== '' && c !== '.');

/**
 * Whether a tool's path names a repository file: an absolute path by the repository's top when it is
 * under it, else (another clone, a relative path) by the file's path being a suffix of it.
 */
export function namesFile(toolPath: string, file: string, top?: string): boolean {
  if (top && toolPath.startsWith(`${top}/`)) return toolPath.slice(top.length + 1) === file;
  const t = components(toolPath);
  const f = components(file);
  if (t.length === 0 || f.length === 0) return false;
  const [short, long] = t.length <= f.length ? [t, f] : [f, t];
  return short.every((c, i) => c === long[long.length - short.length + i]);
}

/** The effects that change files: an edit or write, or a command that wrote lines (a patch). */
const writes = (e: ToolEffect) => e.action === 'edit' || e.action === 'write' || (e.added?.length ?? 0) > 0;

/** A line that says something: a brace or a blank line written somewhere proves nothing. */
const significant = (t: string) => t.length >= 4 && /[\p{L}\p{N}]/u.test(t);

/**
 * Check a context's chain (or the messages of it given) against a code commit's files and added
 * lines: verified when its tool calls edited or wrote one of the files, or wrote at least half of the
 * commit's significant added lines (a rename or a squash can hide the files, not the lines).
 */
export function verifyAgainst(messages: readonly ChainMessage[], files: readonly string[], added: readonly AddedLines[], top?: string): Verification {
  const touched = new Set<string>();
  const written = new Set<string>();
  for (const m of messages)
    for (const call of m.effects)
      for (const e of call.effects) {
        if (!writes(e)) continue;
        for (const f of files) if (!touched.has(f) && namesFile(e.path, f, top)) touched.add(f);
        for (const l of e.added ?? []) if (l.trim() !== '') written.add(l.trim());
      }
  let lines = 0;
  let sig = 0;
  let sigWritten = 0;
  for (const f of added)
    for (const [, text] of f.lines) {
      const t = text.trim();
      const w = t !== '' && written.has(t);
      if (w) lines++;
      if (significant(t)) (sig++, w && sigWritten++);
    }
  return { files: files.filter((f) => touched.has(f)), lines, verified: touched.size > 0 || (sigWritten > 0 && sigWritten * 2 >= sig) };
}
