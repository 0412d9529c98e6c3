// gemini-cli-chat-v1: a Gemini CLI chat recording (~/.gemini/tmp/<hash>/chats/session-*.json), one
// whole JSON document as the runtime wrote it (pretty-printed, often without a trailing newline).
// The runtime rewrites the file whole, so every artifact is a snapshot: the last one is the context.
import { BadInputError } from '../errors/index.js';
import { contentTexts, type StorageFormat } from './format.js';
import { compact, isRecord, str, type Block, type NeutralMessage } from '../core/neutral.js';

const utf8 = new TextDecoder('utf-8', { fatal: true });

export interface GeminiChat {
  sessionId?: string;
  messages: { type?: string; content?: unknown; timestamp?: string }[];
  lastUpdated?: string;
  startTime?: string;
}

export function parseGeminiChat(bytes: Uint8Array): GeminiChat {
  let value: unknown;
  try {
    value = JSON.parse(utf8.decode(bytes));
  } catch (e) {
    throw new BadInputError(`not a JSON document: ${(e as Error).message}`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value) || !Array.isArray((value as { messages?: unknown }).messages))
    throw new BadInputError('not a Gemini CLI chat: no "messages" array');
  return value as GeminiChat;
}

const isMessage = (m: unknown) => {
  const t = (m as { type?: unknown } | null)?.type;
  return t === 'user' || t === 'gemini';
};

/** A tool call's result: the `output` of its functionResponse, else the response as JSON. */
function callResult(call: Record<string, unknown>, id: string): Block {
  const responses = Array.isArray(call.result) ? call.result : [];
  const texts = responses.map((r) => {
    const response = isRecord(r) && isRecord(r.functionResponse) ? r.functionResponse.response : r;
    return isRecord(response) && typeof response.output === 'string' ? response.output : JSON.stringify(response ?? null);
  });
  return compact({ type: 'tool_result' as const, call_id: id, content: texts.join('\n'), is_error: call.status === 'error' ? true : undefined });
}

/** `user` and `gemini` messages; a gemini message's thoughts, text and tool calls, then a tool message with the results. */
function toNeutral(entries: readonly unknown[]): NeutralMessage[] {
  const out: NeutralMessage[] = [];
  for (const m of entries) {
    if (!isRecord(m) || (m.type !== 'user' && m.type !== 'gemini')) continue;
    const base = { timestamp: str(m.timestamp), ids: typeof m.id === 'string' ? { id: m.id } : undefined };
    const text: Block[] = typeof m.content === 'string' && m.content !== '' ? [{ type: 'text', text: m.content }] : [];
    if (m.type === 'user') {
      if (text.length) out.push(compact({ role: 'user', content: text, ...base }));
      continue;
    }
    const thoughts: Block[] = (Array.isArray(m.thoughts) ? m.thoughts : []).flatMap((t) =>
      isRecord(t) ? [{ type: 'thinking' as const, text: [str(t.subject), str(t.description)].filter(Boolean).join('\n') }] : [],
    );
    const calls = (Array.isArray(m.toolCalls) ? m.toolCalls : []).filter(isRecord);
    const callBlocks: Block[] = calls.map((c) => ({ type: 'tool_call', id: String(c.id ?? ''), name: String(c.name ?? ''), input: c.args ?? {} }));
    const content = [...thoughts, ...text, ...callBlocks];
    if (content.length) out.push(compact({ role: 'assistant', content, ...base }));
    if (calls.length) out.push(compact({ role: 'tool', content: calls.map((c) => callResult(c, String(c.id ?? ''))), timestamp: base.timestamp }));
  }
  return out;
}

export const geminiChat: StorageFormat = {
  name: 'gemini-cli-chat-v1',
  ext: 'json',
  parse: (bytes) => parseGeminiChat(bytes).messages,
  concat: (parts) => {
    if (parts.length === 0) throw new BadInputError('nothing to concatenate');
    return parts[parts.length - 1];
  },
  concatRule: 'snapshot',
  count: (entries) => entries.filter(isMessage).length,
  tokenTexts: (entries) => entries.filter(isMessage).flatMap((m) => contentTexts((m as { content?: unknown }).content)),
  toNeutral,
};
