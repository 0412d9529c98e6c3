// GitHub Copilot CLI's session events (`~/.copilot/session-state/<id>/events.jsonl`) to and from the
// neutral model. The conversation is `user.message` (what the user typed: `content`), `assistant.message`
// (text, `reasoningText`, `toolRequests`), `tool.execution_complete` (a call's result or error); a
// successful `session.compaction_complete` replaces everything before it with its summary, as Copilot's
// own resume sends it. Events of a sub-agent (`parentToolCallId`) and the UI's (hooks, usage, turns) carry none.
import { createHash } from 'node:crypto';
import { compact, isRecord, resultText, str, type Block, type NeutralMessage } from '../core/neutral.js';

export type CopilotEvent = Record<string, unknown> & { type: string; data: Record<string, unknown> };

export const isCopilotEvent = (e: unknown): e is CopilotEvent => isRecord(e) && typeof e.type === 'string' && isRecord(e.data);

/** An event of the main agent's conversation (not a sub-agent's). */
const mainAgent = (e: CopilotEvent) => e.data.parentToolCallId === undefined && e.agentId === undefined;

/** Whether the event is one a model turn is made of. */
export const isConversationEvent = (e: unknown): boolean =>
  isCopilotEvent(e) && mainAgent(e) && (e.type === 'user.message' || e.type === 'assistant.message' || e.type === 'tool.execution_complete');

/** A successful compaction: the conversation before it is its summary from here on. */
export const isCompaction = (e: unknown): boolean => isCopilotEvent(e) && e.type === 'session.compaction_complete' && e.data.success === true && mainAgent(e);

/** The texts token estimates count: prompts, replies, reasoning, tool arguments and results, summaries. */
export function eventTexts(e: unknown): string[] {
  if (!isCopilotEvent(e)) return [];
  const d = e.data;
  switch (e.type) {
    case 'user.message':
      return typeof d.content === 'string' ? [d.content] : [];
    case 'assistant.message':
      return [str(d.content), str(d.reasoningText), ...requests(d).flatMap((r) => [str(r.name), JSON.stringify(r.arguments ?? {})])].filter((s): s is string => s !== undefined && s !== '');
    case 'tool.execution_complete':
      return [resultOf(d).text];
    case 'session.compaction_complete':
      return typeof d.summaryContent === 'string' ? [d.summaryContent] : [];
    default:
      return [];
  }
}

const requests = (d: Record<string, unknown>) => (Array.isArray(d.toolRequests) ? d.toolRequests.filter(isRecord) : []);

function resultOf(d: Record<string, unknown>): { text: string; error: boolean } {
  const error = isRecord(d.error) ? str(d.error.message) ?? JSON.stringify(d.error) : undefined;
  const result = isRecord(d.result) ? (str(d.result.content) ?? str(d.result.detailedContent) ?? JSON.stringify(d.result)) : undefined;
  return { text: result ?? error ?? '', error: d.success === false };
}

/** The summary message a compaction leaves, in the words Copilot's resume uses for it. */
export const summaryText = (summary: string) => `Some of the conversation history has been summarized to free up context.\n\nHere is a summary of the prior context:\n<summary>\n${summary}\n</summary>`;

/** Events → neutral messages: a user message per prompt, an assistant message per reply, a tool message per result. */
export function copilotEventsToNeutral(entries: readonly unknown[]): NeutralMessage[] {
  let out: NeutralMessage[] = [];
  for (const e of entries) {
    if (!isCopilotEvent(e) || !mainAgent(e)) continue;
    const d = e.data;
    const base = { timestamp: str(e.timestamp), ...(typeof e.id === 'string' ? { ids: { id: e.id } } : {}) };
    if (isCompaction(e)) {
      out = [compact({ role: 'user' as const, content: [{ type: 'text' as const, text: summaryText(str(d.summaryContent) ?? '') }], ...base })];
    } else if (e.type === 'user.message' && typeof d.content === 'string' && d.content !== '') {
      out.push(compact({ role: 'user' as const, content: [{ type: 'text' as const, text: d.content }], ...base }));
    } else if (e.type === 'assistant.message') {
      const content: Block[] = [];
      if (typeof d.reasoningText === 'string' && d.reasoningText !== '') content.push({ type: 'thinking', text: d.reasoningText });
      if (typeof d.content === 'string' && d.content !== '') content.push({ type: 'text', text: d.content });
      for (const r of requests(d)) content.push({ type: 'tool_call', id: String(r.toolCallId ?? ''), name: String(r.name ?? ''), input: r.arguments ?? {} });
      if (content.length) out.push(compact({ role: 'assistant' as const, content, ...base }));
    } else if (e.type === 'tool.execution_complete' && typeof d.toolCallId === 'string') {
      const r = resultOf(d);
      out.push(compact({ role: 'tool' as const, content: [compact({ type: 'tool_result' as const, call_id: d.toolCallId, content: r.text, is_error: r.error ? true : undefined })], ...base }));
    }
  }
  return out;
}

/** The `producer` and `copilotVersion` ctx's events claim: a Copilot CLI whose sessions this build reads and writes. */
export const PRODUCER = { producer: 'copilot-agent', copilotVersion: '1.0.102' };

/**
 * Neutral messages → events as Copilot CLI writes them (a tool call: a `toolRequests` entry, its
 * result a `tool.execution_complete`), chained by `parentId` from `parent`. Deterministic: ids are
 * hashes of the messages before them.
 */
export function neutralToCopilotEvents(messages: readonly NeutralMessage[], parent: string | null = null): CopilotEvent[] {
  const hash = createHash('sha256').update('ctx copilot-events-v1 from neutral\n');
  const uuid = (salt: string) => {
    const h = hash.copy().update(salt).digest('hex');
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
  };
  const out: CopilotEvent[] = [];
  let time = '1970-01-01T00:00:00.000Z';
  let turn = 0;
  const push = (type: string, data: Record<string, unknown>, salt: string) => {
    const id = uuid(`${type} ${salt}`);
    out.push({ type, data, id, timestamp: time, parentId: parent });
    parent = id;
  };
  const called = new Set<string>();
  for (const m of messages) {
    hash.update(`${JSON.stringify(m)}\n`);
    if (m.timestamp !== undefined && !Number.isNaN(Date.parse(m.timestamp))) time = new Date(m.timestamp).toISOString();
    if (m.role === 'assistant') {
      const text = m.content.flatMap((b) => (b.type === 'text' ? [b.text] : b.type === 'tool_result' ? [resultText(b.content)] : [])).join('\n');
      const reasoning = m.content.flatMap((b) => (b.type === 'thinking' ? [b.text] : [])).join('\n');
      const calls = m.content.flatMap((b) => (b.type === 'tool_call' ? [b] : []));
      if (text === '' && calls.length === 0) continue;
      for (const c of calls) called.add(c.id);
      const toolRequests = calls.map((c) => ({ toolCallId: c.id, name: c.name, arguments: isRecord(c.input) ? c.input : { input: c.input }, type: 'function' }));
      push('assistant.message', { messageId: uuid('message'), content: text, toolRequests, ...(reasoning ? { reasoningText: reasoning } : {}), turnId: String(turn) }, 'a');
      continue;
    }
    // Copilot's own system prompt is sent on resume: another runtime's is not carried over
    if (m.role === 'system') continue;
    const texts: string[] = [];
    for (const b of m.content) {
      if (b.type === 'tool_result' && called.has(b.call_id)) {
        push('tool.execution_complete', { toolCallId: b.call_id, success: !b.is_error, ...(b.is_error ? { error: { message: resultText(b.content) } } : { result: { content: resultText(b.content) } }) }, b.call_id);
      } else if (b.type === 'tool_result') {
        // a result whose call is not in the context: the model would refuse a result of no call
        texts.push(`[result of tool call ${b.call_id}, whose call is not in this context]\n${resultText(b.content)}`);
      } else if (b.type === 'tool_call') texts.push(`[tool call ${b.name}] ${JSON.stringify(b.input)}`);
      else if (b.type === 'text' || b.type === 'thinking') texts.push(b.text);
      else if (b.type === 'image') texts.push(`[image${b.media_type ? ` ${b.media_type}` : ''}]`);
    }
    // a user.message per text: another runtime's own additions (its environment, say) stay apart from the prompt
    texts.filter((t) => t !== '').forEach((content, i) => {
      turn++;
      push('user.message', { content, messageId: uuid(`message ${i}`) }, `u ${i}`);
    });
  }
  return out;
}

/**
 * A context that starts at Copilot's own compaction: Copilot's resume lists the prompts from before
 * it with the summary, so they are put in front of it (with the session.start), as the events they were.
 */
export function withPrompts(context: Uint8Array): ((before: () => Promise<Uint8Array>) => Promise<Uint8Array>) | null {
  const nl = Buffer.from(context).indexOf(0x0a);
  let first: unknown;
  try {
    first = JSON.parse(Buffer.from(context.subarray(0, nl === -1 ? context.length : nl)).toString('utf8'));
  } catch {
    return null;
  }
  if (!isCompaction(first)) return null;
  return async (before) => {
    const prior = Buffer.from(await before()).toString('utf8');
    const kept = prior.split('\n').filter((line) => {
      if (line === '') return false;
      try {
        const e: unknown = JSON.parse(line);
        return isCopilotEvent(e) && mainAgent(e) && (e.type === 'session.start' || (e.type === 'user.message' && typeof e.data.content === 'string'));
      } catch {
        return false;
      }
    });
    return Buffer.concat([Buffer.from(kept.map((l) => `${l}\n`).join(''), 'utf8'), context]);
  };
}
