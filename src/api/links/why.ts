// `ctx why`: the contexts that made a code commit, who and what ran them, and the slice of each
// conversation that led to the commit: its prompts, the assistant's text and reasoning, and the tool
// calls that wrote the commit's files, from the context's previous linked code commit on.
import { fullId, shortId } from '../../core/ids.js';
import { CtxError } from '../../errors/index.js';
import type { Meta } from '../../core/meta.js';
import { resultText, type NeutralMessage } from '../../core/neutral.js';
import { runtimeRegistry } from '../capture/sessions.js';
import { readTipMeta } from '../read/context-reader.js';
import type { RepoContext } from '../repo/repo-context.js';
import { refs } from '../../store/refs.js';
import { linkIndex } from './records.js';
import { contextsOfCode, type CodeContext, type CodeContexts } from './resolve-code.js';
import { namesFile, readChain, type ChainRead } from './verify-link.js';

export type SliceKind = 'prompt' | 'text' | 'reasoning' | 'tool';

/** One step of the conversation that led to a commit. */
export interface SliceEntry {
  /** the context commit that holds the message, `ctx-<40 hex>` */
  commit: string;
  /** the message's index among that commit's messages (as `ctx grep` and `ctx files` number them) */
  entry: number;
  kind: SliceKind;
  /** the prompt, text or reasoning; for a tool call, its input's summary */
  text: string;
  /** a tool call: its name, and the commit's files it wrote */
  tool?: string;
  paths?: string[];
  at?: string;
}

/** A context that made the commit, with who and what ran it and the slice of its conversation. */
export interface WhyContext extends CodeContext {
  /** `ctx-<40 hex>` */
  id: string;
  /** what the store knows of it: null when it does not hold it, or cannot read it */
  session: string | null;
  branch: string | null;
  runtime: { name: string; title: string } | null;
  model: string | null;
  principal: string | null;
  /** the agent whose entries these are (meta.json author), when recorded */
  author: string | null;
  /** the context commit the slice starts after (its previous linked code commit's); null: the chain's start, or not read (`total` null) */
  since: string | null;
  /** the slice's entries (the last `limit` when bounded), and how many there are in all (null: more than `limit`, not counted) */
  entries: SliceEntry[];
  total: number | null;
}

export interface WhyReport extends Omit<CodeContexts, 'contexts'> {
  contexts: WhyContext[];
}

export interface WhyOptions {
  /** the last N entries of each slice (default 50; 0: all) */
  limit?: number;
}

export const DEFAULT_LIMIT = 50;

/** `ctx why REV`: the contexts that made the code commit `rev` of the repository at `codeCwd`. */
export async function why(ctx: RepoContext, codeCwd: string, rev: string, o: WhyOptions = {}): Promise<WhyReport> {
  const code = await contextsOfCode(ctx, codeCwd, rev);
  const limit = o.limit ?? DEFAULT_LIMIT;
  const linked = new Set<string>();
  for (const [sha, list] of await linkIndex(ctx)) if (sha !== code.commit.sha) for (const l of list) linked.add(l.context);
  const paths = [...new Set([...code.files.map((f) => f.path), ...code.added.map((a) => a.path)])];
  const contexts: WhyContext[] = [];
  for (const c of code.contexts) contexts.push(await described(ctx, c, code, paths, linked, limit));
  return { ...code, contexts };
}

async function described(ctx: RepoContext, c: CodeContext, code: CodeContexts, paths: string[], linked: Set<string>, limit: number): Promise<WhyContext> {
  const none: WhyContext = { ...c, id: fullId(c.context), session: null, branch: null, runtime: null, model: null, principal: null, author: null, since: null, entries: [], total: null };
  if (!c.inStore) return none;
  let meta: Meta;
  let slice: { chain: ChainRead; from: number; entries: SliceEntry[]; whole: boolean } | null;
  try {
    meta = await readTipMeta(ctx, c.context);
    slice = await readSlice(ctx, c.context, paths, code.repo, linked, limit);
  } catch (e) {
    // damaged or unreadable: the link is still reported, with what kept it from being shown
    if (!(e instanceof CtxError)) throw e;
    ctx.warn(`${shortId(c.context)}: ${e.message}`);
    return none;
  }
  if (!slice) return none;
  const { chain, from, entries, whole } = slice;
  const { runtimeOfFormat } = await runtimeRegistry();
  const rt = await runtimeOfFormat(meta.format);
  return {
    ...none,
    session: meta.session_id,
    branch: branchOf(ctx, c.context, rt?.sessionBranch(meta.session_id)),
    runtime: rt ? { name: rt.name, title: rt.title } : null,
    model: modelOf(meta) ?? modelIn(chain, from, rt?.transcript?.sourceFields),
    principal: meta.principal,
    author: meta.author ?? null,
    since: from >= 0 ? fullId(chain.oids[from]) : null,
    entries: limit > 0 ? entries.slice(-limit) : entries,
    total: whole ? entries.length : null,
  };
}

/**
 * The slice of the context at `tip` after its previous linked commit, read from the tip back in
 * growing steps until it reaches that commit or the chain's root (`whole`), or holds `limit` entries
 * (0: no limit). `from` indexes the previous linked commit in the commits read, -1 when none was read.
 */
async function readSlice(ctx: RepoContext, tip: string, paths: string[], top: string, linked: Set<string>, limit: number) {
  for (let depth = limit > 0 ? limit : Infinity; ; depth *= 8) {
    const chain = await readChain(ctx, tip, depth);
    if (!chain) return null;
    let from = -1;
    for (let i = chain.oids.length - 2; i >= 0 && from < 0; i--) if (linked.has(chain.oids[i])) from = i;
    const entries = sliceEntries(chain, from, paths, top);
    const whole = from >= 0 || chain.complete;
    if (whole || (limit > 0 && entries.length >= limit)) return { chain, from, entries, whole };
  }
}

/** The model meta.json's source names (Claude Code's import records it), else null. */
function modelOf(meta: Meta): string | null {
  const m = meta.source?.model;
  return typeof m === 'string' && m !== '' ? m : null;
}

/** The model the runtime reads in the slice's artifacts (newest first), when meta.json did not record it. */
function modelIn(chain: ChainRead, from: number, fields: ((bytes: Uint8Array) => Record<string, unknown>) | undefined): string | null {
  if (!fields) return null;
  for (let i = chain.parts.length - 1; i >= 0 && i >= chain.parts.length - 20; i--) {
    if (from >= 0 && chain.oids.indexOf(chain.parts[i].oid) <= from) break;
    const m = fields(chain.parts[i].artifact).model;
    if (typeof m === 'string' && m !== '') return m;
  }
  return null;
}

/**
 * A branch the context commit is on, found cheaply: one whose tip it is, else the session's own branch
 * when the commit is on it. null when neither (a fork elsewhere holds it).
 */
function branchOf(ctx: RepoContext, oid: string, own: string | undefined): string | null {
  const at: string[] = [];
  for (const [name, tip] of ctx.allTips(false)) if (tip === oid) at.push(name);
  if (at.length) return at.sort()[0];
  if (own && ctx.refs.read(refs.branch(own))) return own;
  return null;
}

/** The messages after part `from` as slice entries: prompts, text, reasoning, and the tool calls that wrote the commit's files. */
function sliceEntries(chain: ChainRead, from: number, paths: string[], top: string): SliceEntry[] {
  const out: SliceEntry[] = [];
  for (const m of chain.messages) {
    if (m.part <= from) continue;
    const at = m.message.timestamp;
    const commit = fullId(chain.oids[m.part]);
    const base = (kind: SliceKind, text: string): SliceEntry => ({ commit, entry: m.entry, kind, text, ...(at ? { at } : {}) });
    if (m.message.role === 'user') {
      const text = userText(m.message);
      if (text) out.push(base('prompt', text));
      continue;
    }
    if (m.message.role !== 'assistant') continue;
    m.message.content.forEach((b, block) => {
      if (b.type === 'thinking' && b.text.trim()) out.push(base('reasoning', b.text));
      else if (b.type === 'text' && b.text.trim()) out.push(base('text', b.text));
      else if (b.type === 'tool_call') {
        const call = m.effects.find((e) => e.block === block);
        const wrote = new Set<string>();
        for (const e of call?.effects ?? []) if (e.action === 'edit' || e.action === 'write' || e.added?.length) for (const p of paths) if (namesFile(e.path, p, top)) wrote.add(p);
        if (wrote.size) out.push({ ...base('tool', toolSummary(b.input)), tool: b.name, paths: [...wrote] });
      }
    });
  }
  return out;
}

/** A user message's own text (tool results are the tools', not the user's). */
function userText(m: NeutralMessage): string {
  return m.content
    .flatMap((b) => (b.type === 'text' ? [b.text] : []))
    .join('\n')
    .trim();
}

/** A tool call's input in a line or a few: its path and, for a command, the command. */
function toolSummary(input: unknown): string {
  if (typeof input === 'string') return input;
  if (!input || typeof input !== 'object') return '';
  const a = input as Record<string, unknown>;
  const pick = ['file_path', 'notebook_path', 'path', 'command', 'cmd'].map((k) => a[k]).find((v) => typeof v === 'string' || Array.isArray(v));
  if (pick !== undefined) return Array.isArray(pick) ? pick.map(String).join(' ') : String(pick);
  return resultText(JSON.stringify(input));
}
