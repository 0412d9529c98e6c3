// openai-chat-v1: a JSON array of Chat Completions messages (system/developer, user, assistant with
// tool_calls, tool with tool_call_id). Standard fields only are written: thinking is dropped, since
// the API has no place for it (a `reasoning_content` string, as some servers send, is read).
import { BadInputError } from '../errors/index.js';
import type { StorageFormat } from './format.js';
import { compact, isRecord, parseArguments, resultText, str, type Block, type NeutralMessage } from '../core/neutral.js';

const utf8 = new TextDecoder('utf-8', { fatal: true });
const ROLES = ['system', 'developer', 'user', 'assistant', 'tool'];

type Part = { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } };
interface ChatMessage {
  role: string;
  content?: string | Part[] | null;
  name?: string;
  tool_calls?: { id: string; type: 'function'; function: { name: string; arguments: string } }[];
  tool_call_id?: string;
}

/** An artifact that is one JSON array (`what` names it in the error when it is not). */
export function parseJsonArray(bytes: Uint8Array, what: string): unknown[] {
  let value: unknown;
  try {
    value = JSON.parse(utf8.decode(bytes));
  } catch (e) {
    throw new BadInputError(`not a JSON document: ${(e as Error).message}`);
  }
  if (!Array.isArray(value)) throw new BadInputError(`not ${what}`);
  return value;
}

function parse(bytes: Uint8Array): ChatMessage[] {
  const value = parseJsonArray(bytes, 'a Chat Completions message array');
  value.forEach((m, i) => {
    if (!isRecord(m) || !ROLES.includes(m.role as string)) throw new BadInputError(`message ${i} has no role of ${ROLES.join(', ')}`);
    if (m.role === 'tool' && typeof m.tool_call_id !== 'string') throw new BadInputError(`message ${i}: a tool message without a string tool_call_id`);
    const c = m.content;
    if (!(c === undefined || c === null || typeof c === 'string' || (Array.isArray(c) && c.every((p) => isRecord(p) && (p.type !== 'text' || typeof p.text === 'string')))))
      throw new BadInputError(`message ${i}: content must be a string, null or an array of parts (a text part with a string text)`);
    if (m.name !== undefined && typeof m.name !== 'string') throw new BadInputError(`message ${i}: name is not a string`);
    if (m.tool_calls !== undefined) {
      if (m.role !== 'assistant' || !Array.isArray(m.tool_calls)) throw new BadInputError(`message ${i}: tool_calls must be an array on an assistant message`);
      m.tool_calls.forEach((c, j) => {
        if (!isRecord(c) || typeof c.id !== 'string' || !isRecord(c.function) || typeof c.function.name !== 'string' || typeof c.function.arguments !== 'string')
          throw new BadInputError(`message ${i}: tool call ${j} needs an id, a function name and an arguments string`);
      });
    }
  });
  return value as ChatMessage[];
}

/** A JSON array, one element a line, so a diff reads message by message. */
export function jsonArrayLines(entries: readonly unknown[]): Uint8Array {
  return Buffer.from(entries.length ? `[\n${entries.map((m) => JSON.stringify(m)).join(',\n')}\n]\n` : '[]\n');
}
const encode = (messages: readonly ChatMessage[]) => jsonArrayLines(messages);

function partsText(content: ChatMessage['content']): string {
  if (typeof content === 'string') return content;
  return (content ?? []).map((p) => (p.type === 'text' ? p.text : '')).join('\n');
}

function toBlocks(content: ChatMessage['content']): Block[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return (content ?? []).flatMap((p): Block[] => {
    if (p.type === 'text') return [{ type: 'text', text: p.text }];
    const url = p.type === 'image_url' ? p.image_url?.url : undefined;
    if (typeof url !== 'string') return [];
    const data = /^data:([^;,]+);base64,(.*)$/s.exec(url);
    return [data ? { type: 'image', media_type: data[1], data: data[2] } : { type: 'image', url }];
  });
}

function toNeutral(entries: readonly unknown[]): NeutralMessage[] {
  const out: NeutralMessage[] = [];
  for (const m of entries as ChatMessage[]) {
    if (m.role === 'tool') {
      const block: Block = { type: 'tool_result', call_id: m.tool_call_id ?? '', content: partsText(m.content) };
      const prev = out[out.length - 1];
      if (prev?.role === 'tool') prev.content.push(block);
      else out.push({ role: 'tool', content: [block] });
      continue;
    }
    const reasoning = str((m as unknown as Record<string, unknown>).reasoning_content);
    const content: Block[] = [...(reasoning ? [{ type: 'thinking' as const, text: reasoning }] : []), ...toBlocks(m.content)];
    for (const c of m.tool_calls ?? []) content.push({ type: 'tool_call', id: c.id, name: c.function.name, input: parseArguments(c.function.arguments) });
    out.push(compact({ role: m.role === 'developer' ? 'system' : (m.role as NeutralMessage['role']), author: m.name, content }));
  }
  return out;
}

function content(blocks: readonly Block[], images: boolean): string | Part[] | null {
  const parts: Part[] = blocks.flatMap((b): Part[] => {
    if (b.type === 'text') return [{ type: 'text', text: b.text }];
    if (b.type === 'image' && images && (b.data || b.url)) return [{ type: 'image_url', image_url: { url: b.data ? `data:${b.media_type ?? 'image/png'};base64,${b.data}` : b.url! } }];
    return [];
  });
  if (parts.length === 0) return null;
  return parts.length === 1 && parts[0].type === 'text' ? parts[0].text : parts;
}

/** What stands in for a tool result the context does not hold, so every call is answered (the API requires it). */
export const NO_RESULT = '[no result recorded: the context ends before this call returned]';

/** A tool result whose call is not in the context, as text: a tool message must answer a call before it. */
export function orphanResultText(callId: string, text: string): string {
  return `[result of tool call ${callId}, whose call is not in this context]\n${text}`;
}

/** Ids of the calls that a later result answers. */
function answeredCalls(messages: readonly NeutralMessage[]): Set<string> {
  const calls = new Set<string>();
  const answered = new Set<string>();
  for (const b of messages.flatMap((m) => m.content)) {
    if (b.type === 'tool_call') calls.add(b.id);
    else if (b.type === 'tool_result' && calls.has(b.call_id)) answered.add(b.call_id);
  }
  return answered;
}

/**
 * Tool results become tool messages, ahead of any text the same message carried; thinking is
 * dropped. What the Chat Completions API would refuse is made valid, visibly: a result whose call
 * is not before it becomes a user message saying so, and a call that no later message answers gets
 * a NO_RESULT tool message right after its assistant message.
 */
function fromNeutral(messages: readonly NeutralMessage[]): Uint8Array {
  const out: ChatMessage[] = [];
  const called = new Set<string>();
  const answered = answeredCalls(messages);
  const pushResults = (results: Block[]) => {
    for (const r of results) {
      if (r.type !== 'tool_result') continue;
      if (called.has(r.call_id)) out.push({ role: 'tool', tool_call_id: r.call_id, content: resultText(r.content) });
      else out.push({ role: 'user', content: orphanResultText(r.call_id, resultText(r.content)) });
    }
  };
  for (const m of messages) {
    const results = m.content.filter((b) => b.type === 'tool_result');
    const rest = m.content.filter((b) => b.type !== 'tool_result');
    const name = m.author && /^[A-Za-z0-9_-]{1,64}$/.test(m.author) ? m.author : undefined;
    if (m.role !== 'assistant') pushResults(results);
    if (m.role === 'assistant') {
      const calls = rest.flatMap((b) => (b.type === 'tool_call' ? [b] : []));
      const text = content(rest, false);
      if (text === null && calls.length === 0) continue;
      const msg: ChatMessage = compact({ role: 'assistant', name, content: text });
      if (calls.length) msg.tool_calls = calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: typeof c.input === 'string' ? c.input : JSON.stringify(c.input ?? {}) } }));
      out.push(msg);
      for (const c of calls) called.add(c.id);
      pushResults(results);
      for (const c of calls) if (!answered.has(c.id)) out.push({ role: 'tool', tool_call_id: c.id, content: NO_RESULT });
      continue;
    }
    const body = content(rest, m.role === 'user' || m.role === 'tool');
    if (body !== null) out.push(compact({ role: m.role === 'tool' ? 'user' : m.role, name, content: body }));
  }
  return encode(out);
}

export const openaiChat: StorageFormat = {
  name: 'openai-chat-v1',
  ext: 'json',
  parse,
  concat: (parts) => (parts.length === 1 ? parts[0] : encode(parts.flatMap(parse))),
  concatRule: 'merge',
  encode: (entries) => encode(entries as ChatMessage[]),
  count: (entries) => entries.length,
  tokenTexts: (entries) => (entries as ChatMessage[]).flatMap((m) => [partsText(m.content), ...(m.tool_calls ?? []).flatMap((c) => [c.function.name, c.function.arguments])]),
  toNeutral,
  fromNeutral,
};
