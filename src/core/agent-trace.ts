// Agent Trace (cursor/agent-trace, v0.1.0): the vendor-neutral record of which conversation wrote
// which lines of a revision. Built here from plain data: files → conversations → line ranges with a
// content hash, each conversation's contributor ai (its model when known), human, or mixed for a
// range where a person edited around the agent's lines. The spec's JSON schema asks `version` to be
// MAJOR.MINOR, so records say "0.1".
import { createHash } from 'node:crypto';

export const AGENT_TRACE_MIME = 'application/vnd.agent-trace.record+json';
export const AGENT_TRACE_VERSION = '0.1';
/** ctx's namespace for the records' version-5 ids: a record's id is the UUID of this and the code commit's sha. */
export const TRACE_NAMESPACE = '3b0c5a57-7d2e-4a35-9c61-0f6d2a1e8b44';

export type ContributorType = 'human' | 'ai' | 'mixed' | 'unknown';

export interface TraceContributor {
  type: ContributorType;
  model_id?: string;
}

export interface TraceRange {
  start_line: number;
  end_line: number;
  content_hash?: string;
  contributor?: TraceContributor;
}

export interface TraceConversation {
  url?: string;
  contributor?: TraceContributor;
  ranges: TraceRange[];
  related?: { type: string; url: string }[];
}

export interface TraceRecord {
  version: string;
  id: string;
  timestamp: string;
  vcs?: { type: 'git' | 'jj' | 'hg' | 'svn'; revision: string };
  tool?: { name: string; version: string };
  files: { path: string; conversations: TraceConversation[] }[];
  metadata?: Record<string, unknown>;
}

/** One added line of a file at the revision, and the conversation that wrote it (null: a person). */
export interface TracedLine {
  line: number;
  text: string;
  conversation: string | null;
}

/** A conversation's description: its URL, model and related resources. */
export interface ConversationInfo {
  url: string;
  model_id?: string;
  related?: { type: string; url: string }[];
}

/** `sha256:<hex>` of a range's lines, each ended by a newline. */
export function contentHash(lines: readonly string[]): string {
  const h = createHash('sha256');
  for (const l of lines) h.update(`${l}\n`);
  return `sha256:${h.digest('hex')}`;
}

/** An RFC 4122 version-5 UUID of `name` (so a revision's record keeps its id). */
export function uuid5(namespace: string, name: string): string {
  const h = createHash('sha1').update(Buffer.from(namespace.replace(/-/g, ''), 'hex')).update(name).digest();
  h[6] = (h[6] & 0x0f) | 0x50;
  h[8] = (h[8] & 0x3f) | 0x80;
  const x = h.subarray(0, 16).toString('hex');
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20)}`;
}

/** A model as models.dev names it, `provider/model`, when the provider can be told from the name. */
export function modelId(model: string | undefined): string | undefined {
  if (!model || model === 'unknown') return undefined;
  if (model.includes('/')) return model.slice(0, 250);
  const provider = /^claude/.test(model) ? 'anthropic' : /^(gpt|o\d|codex|chatgpt)/.test(model) ? 'openai' : /^gemini/.test(model) ? 'google' : null;
  return (provider ? `${provider}/${model}` : model).slice(0, 250);
}

/**
 * One file's conversations: its added lines split into runs of consecutive lines with one writer; a
 * run of a person's lines between two runs of one conversation joins them as one range, `mixed`.
 * Conversations in the order they first write; a person's lines last, as a conversation of their own.
 */
export function fileConversations(lines: readonly TracedLine[], info: ReadonlyMap<string, ConversationInfo>): TraceConversation[] {
  const sorted = [...lines].sort((a, b) => a.line - b.line);
  type Run = { who: string | null; lines: TracedLine[]; mixed: boolean };
  const runs: Run[] = [];
  for (const l of sorted) {
    const last = runs[runs.length - 1];
    const next = last && last.lines[last.lines.length - 1].line + 1 === l.line;
    if (next && last.who === l.conversation) last.lines.push(l);
    else runs.push({ who: l.conversation, lines: [l], mixed: false });
  }
  // ai, human, the same ai, all adjacent: one mixed range
  for (let i = 0; i + 2 < runs.length; ) {
    const [a, h, b] = [runs[i], runs[i + 1], runs[i + 2]];
    const adjacent = (x: Run, y: Run) => x.lines[x.lines.length - 1].line + 1 === y.lines[0].line;
    if (a.who !== null && h.who === null && b.who === a.who && adjacent(a, h) && adjacent(h, b)) runs.splice(i, 3, { who: a.who, lines: [...a.lines, ...h.lines, ...b.lines], mixed: true });
    else i++;
  }
  const byWho = new Map<string | null, TraceRange[]>();
  for (const r of runs) {
    const range: TraceRange = { start_line: r.lines[0].line, end_line: r.lines[r.lines.length - 1].line, content_hash: contentHash(r.lines.map((l) => l.text)) };
    if (r.mixed) range.contributor = { type: 'mixed', ...(info.get(r.who!)?.model_id ? { model_id: info.get(r.who!)!.model_id } : {}) };
    const list = byWho.get(r.who) ?? byWho.set(r.who, []).get(r.who)!;
    list.push(range);
  }
  const out: TraceConversation[] = [];
  for (const [who, ranges] of byWho) {
    if (who === null) continue;
    const i = info.get(who);
    out.push({
      ...(i ? { url: i.url } : {}),
      contributor: { type: 'ai', ...(i?.model_id ? { model_id: i.model_id } : {}) },
      ranges,
      ...(i?.related?.length ? { related: i.related } : {}),
    });
  }
  const human = byWho.get(null);
  if (human) out.push({ contributor: { type: 'human' }, ranges: human });
  return out;
}
