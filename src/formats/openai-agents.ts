// openai-agents-v1: a JSON array of the OpenAI Agents SDK's items (`AgentInputItem`: messages,
// function_call / function_call_result with camelCase `callId`, reasoning, hosted and computer
// calls), as a `Session` stores them. Items are kept as the SDK gave them; reading into messages
// takes what the neutral model holds (text, reasoning, tool calls and results) and skips the rest.
import { BadInputError } from '../errors/index.js';
import type { StorageFormat } from './format.js';
import { compact, isRecord, parseArguments, resultText, str, type Block, type NeutralMessage } from '../core/neutral.js';
import { NO_RESULT, jsonArrayLines, orphanResultText, parseJsonArray } from './openai-chat.js';

export const OPENAI_AGENTS_FORMAT = 'openai-agents-v1';

type Item = Record<string, unknown>;

function parse(bytes: Uint8Array): Item[] {
  const items = parseJsonArray(bytes, 'an Agents SDK item array');
  items.forEach((it, i) => {
    if (!isRecord(it) || (typeof it.type !== 'string' && typeof it.role !== 'string')) throw new BadInputError(`item ${i} is not an object with a string type or role`);
  });
  return items as Item[];
}

/** Text, image and file parts of a message, or a tool output, as neutral blocks. */
function partBlocks(content: unknown): Block[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  if (!Array.isArray(content)) return isRecord(content) ? partBlocks([content]) : [];
  return content.flatMap((p): Block[] => {
    if (!isRecord(p)) return [];
    const text = str(p.text) ?? str(p.refusal) ?? str(p.transcript);
    if (text !== undefined) return [{ type: 'text', text }];
    const image = typeof p.image === 'string' ? p.image : isRecord(p.image) ? (str(p.image.url) ?? str(p.image.data)) : undefined;
    if (image === undefined) return [];
    const data = /^data:([^;,]+);base64,(.*)$/s.exec(image);
    return [data ? { type: 'image', media_type: data[1], data: data[2] } : { type: 'image', url: image }];
  });
}

/** The id a call or result pairs on: `callId` (function, shell, apply_patch), else the item's `id`. */
const callIdOf = (it: Item) => str(it.callId) ?? str(it.id) ?? '';

/** A call item's arguments: its `arguments` string parsed, else what it carries besides its ids. */
function callInput(it: Item): unknown {
  if (typeof it.arguments === 'string') return parseArguments(it.arguments);
  const { type: _t, id: _i, callId: _c, name: _n, status: _s, providerData: _p, ...rest } = it;
  return rest;
}

const isCall = (t: string) => /_call$/.test(t) && t !== 'tool_search_call';
const isResult = (t: string) => /_call_result$|_call_output$|^tool_search_output$/.test(t);

function toNeutral(entries: readonly unknown[]): NeutralMessage[] {
  const out: NeutralMessage[] = [];
  const push = (role: NeutralMessage['role'], block: Block) => {
    const prev = out[out.length - 1];
    if (prev?.role === role && (role === 'tool' || block.type === 'tool_call')) prev.content.push(block);
    else out.push({ role, content: [block] });
  };
  for (const it of entries as Item[]) {
    const type = str(it.type) ?? 'message';
    if (type === 'message') {
      const role = it.role === 'developer' ? 'system' : (it.role as NeutralMessage['role']);
      out.push(compact({ role, content: partBlocks(it.content), ids: typeof it.id === 'string' ? { id: it.id } : undefined }));
    } else if (type === 'reasoning') {
      const text = partBlocks(it.content).map((b) => (b.type === 'text' ? b.text : '')).join('\n');
      if (text) out.push({ role: 'assistant', content: [{ type: 'thinking', text }] });
    } else if (isCall(type)) {
      push('assistant', { type: 'tool_call', id: callIdOf(it), name: str(it.name) ?? type, input: callInput(it) });
    } else if (isResult(type)) {
      const output = it.output ?? it.tools;
      const blocks = typeof output === 'string' ? output : partBlocks(output);
      push('tool', { type: 'tool_result', call_id: callIdOf(it), content: blocks.length || typeof output !== 'object' ? blocks : JSON.stringify(output ?? null) });
    }
  }
  return out;
}

function userContent(blocks: readonly Block[]): Item['content'] {
  const parts = blocks.flatMap((b): Item[] => {
    if (b.type === 'text') return [{ type: 'input_text', text: b.text }];
    if (b.type === 'image' && (b.data || b.url)) return [{ type: 'input_image', image: b.data ? `data:${b.media_type ?? 'image/png'};base64,${b.data}` : b.url }];
    return [];
  });
  return parts.length === 1 && parts[0].type === 'input_text' ? parts[0].text : parts;
}

/**
 * Neutral messages → items the SDK sends back: thinking becomes a reasoning item, tool calls
 * function_call items, results function_call_result items named after their call. As in
 * openai-chat-v1, a result without its call becomes a user message saying so, and a call no result
 * answers gets a NO_RESULT result, so the API never refuses the history.
 */
function fromNeutral(messages: readonly NeutralMessage[]): Uint8Array {
  const out: Item[] = [];
  const names = new Map<string, string>();
  const answered = new Set(messages.flatMap((m) => m.content.flatMap((b) => (b.type === 'tool_result' ? [b.call_id] : []))));
  const result = (callId: string, text: string) => out.push({ type: 'function_call_result', name: names.get(callId)!, callId, status: 'completed', output: { type: 'text', text } });
  for (const m of messages) {
    if (m.role === 'assistant') {
      for (const b of m.content) {
        if (b.type === 'thinking') out.push({ type: 'reasoning', content: [{ type: 'input_text', text: b.text }] });
        else if (b.type === 'text') out.push({ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: b.text }] });
        else if (b.type === 'tool_call') {
          names.set(b.id, b.name);
          out.push({ type: 'function_call', callId: b.id, name: b.name, status: 'completed', arguments: typeof b.input === 'string' ? b.input : JSON.stringify(b.input ?? {}) });
          if (!answered.has(b.id)) result(b.id, NO_RESULT);
        }
      }
      continue;
    }
    for (const b of m.content) {
      if (b.type !== 'tool_result') continue;
      if (names.has(b.call_id)) result(b.call_id, resultText(b.content));
      else out.push({ type: 'message', role: 'user', content: orphanResultText(b.call_id, resultText(b.content)) });
    }
    const rest = m.content.filter((b) => b.type !== 'tool_result');
    if (!rest.length) continue;
    if (m.role === 'system') out.push({ type: 'message', role: 'system', content: rest.map((b) => (b.type === 'text' ? b.text : '')).join('\n') });
    else out.push({ type: 'message', role: 'user', content: userContent(rest) });
  }
  return jsonArrayLines(out);
}

/** The texts a token estimate counts: those the items read into. */
const tokenTexts = (entries: readonly unknown[]) =>
  toNeutral(entries).flatMap((m) => m.content.flatMap((b) => (b.type === 'text' || b.type === 'thinking' ? [b.text] : b.type === 'tool_call' ? [b.name, JSON.stringify(b.input ?? {})] : b.type === 'tool_result' ? [resultText(b.content)] : [])));

export const openaiAgents: StorageFormat = {
  name: OPENAI_AGENTS_FORMAT,
  ext: 'json',
  parse,
  concat: (parts) => (parts.length === 1 ? parts[0] : jsonArrayLines(parts.flatMap(parse))),
  concatRule: 'merge',
  encode: (entries) => jsonArrayLines(entries),
  count: (entries) => entries.length,
  tokenTexts,
  toNeutral,
  fromNeutral,
};
