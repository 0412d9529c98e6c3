// Whether a context made a code commit, by what its tool calls did: they edited or wrote the commit's
// files, or wrote its added lines. A `Ctx-Context:` trailer is a claim anyone can write; this is what
// turns it into a verified link (or leaves it claimed). The tool calls' effects are the runtimes' to
// say (search/effects.ts).
import type { NeutralMessage } from '../../core/neutral.js';
import type { AddedLines } from '../../store/code-history.js';
import { knownFormat } from '../../formats/registry.js';
import { readParts, walkContext, type ContextPart } from '../read/context-reader.js';
import { effectsReader, type EffectsReader, type ToolEffect } from '../search/effects.js';
import type { RepoContext } from '../repo/repo-context.js';

/** One message of a context's chain, with the commit it came from and its tool calls' effects. */
export interface ChainMessage {
  message: NeutralMessage;
  /** index of its commit in the chain, oldest first */
  part: number;
  /** its index among its commit's own messages (as `ctx grep` and `ctx files` number them) */
  entry: number;
  /** for each tool call of the message, by its block index */
  effects: { block: number; tool: string; effects: ToolEffect[] }[];
}

/** A context's chain from its root: the commits, oldest first, and every message with its effects. */
export interface ChainRead {
  tip: string;
  /** the commits, oldest first, with their artifacts (as read: not copied) */
  parts: { oid: string; format: string; artifact: Uint8Array }[];
  messages: ChainMessage[];
}

// chains read lately in this process: why reads a context's chain to verify it, then to show it
const recent = new Map<string, Promise<ChainRead | null>>();

/**
 * The context at `tip` from its root, with each tool call's effects; null when the store has no such
 * commit (a CtxError when it cannot be read). Each commit's artifact is read alone, as `ctx grep`
 * reads it (a format whose artifacts are whole contexts: the messages its parent held left out), so
 * a long chain is one pass.
 */
export function readChain(ctx: RepoContext, tip: string, effects?: EffectsReader): Promise<ChainRead | null> {
  const key = `${ctx.gitdir}\0${tip}`;
  let p = recent.get(key);
  if (!p) {
    p = reading(ctx, tip, effects);
    p.catch(() => recent.delete(key));
    recent.set(key, p);
    if (recent.size > 4) recent.delete(recent.keys().next().value!);
  }
  return p;
}

async function reading(ctx: RepoContext, tip: string, effects?: EffectsReader): Promise<ChainRead | null> {
  const [obj] = await ctx.engine.readObjects([tip]);
  if (!obj || obj.type !== 'commit') return null;
  const reader = effects ?? (await effectsReader());
  const walk = await walkContext(ctx, tip, { kind: 'root' });
  const parts: ContextPart[] = await readParts(ctx, walk.parts);
  const messages: ChainMessage[] = [];
  let before = 0;
  parts.forEach((p, part) => {
    const f = knownFormat(p.format);
    if (!f?.toNeutral) return void (before = 0);
    const ms = f.toNeutral(f.parse(p.artifact, { lastOfFile: true }));
    // a whole-context artifact repeats its parent's messages: only what is new here is its own
    const whole = p.type === 'snapshot' || f.concatRule === 'snapshot';
    const from = whole && part > 0 && parts[part - 1].format === p.format ? Math.min(before, ms.length) : 0;
    before = ms.length;
    for (let entry = from; entry < ms.length; entry++) {
      const message = ms[entry];
      const calls: ChainMessage['effects'] = [];
      message.content.forEach((b, block) => {
        if (b.type === 'tool_call') calls.push({ block, tool: b.name, effects: reader(p.format, b) });
      });
      messages.push({ message, part, entry, effects: calls });
    }
  });
  return { tip, parts: parts.map((p) => ({ oid: p.oid, format: p.format, artifact: p.artifact })), messages };
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
