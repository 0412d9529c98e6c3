// Gemini CLI's message records (`user`, `gemini`; `info`, `error`, `warning` are the UI's) to and
// from the neutral model, shared by the chat document (gemini-cli-chat-v1) and the JSONL session
// (gemini-cli-jsonl-v1). Content is a string or a list of Gemini API parts: text (thought: true is
// thinking), inlineData, fileData, functionCall, functionResponse. Tool calls are a gemini record's
// `toolCalls` (with their results) or, once Gemini has resumed a session, functionCall parts in its
// content answered by a user record of functionResponse parts.
import { compact, isRecord, resultText, str, type Block, type NeutralMessage, type Origin, type ToolResultBlock } from '../core/neutral.js';

export type GeminiRecord = Record<string, unknown>;

export const isGeminiMessage = (m: unknown): m is GeminiRecord => isRecord(m) && (m.type === 'user' || m.type === 'gemini');

/** Content as parts: a string is one text part. */
export function partsOf(content: unknown): GeminiRecord[] {
  if (typeof content === 'string') return content === '' ? [] : [{ text: content }];
  if (Array.isArray(content)) return content.flatMap((p) => (typeof p === 'string' ? [{ text: p }] : isRecord(p) ? [p] : []));
  return isRecord(content) ? [content] : [];
}

/** The text of a record's content: its text parts, joined (thoughts left out). */
export function contentText(content: unknown): string {
  return partsOf(content)
    .filter((p) => typeof p.text === 'string' && p.thought !== true)
    .map((p) => p.text as string)
    .join('');
}

/** A functionResponse's result: its `output`, else its `error`, else the response as JSON. */
function responseResult(r: GeminiRecord, id: string): ToolResultBlock {
  const response = r.response;
  if (isRecord(response) && typeof response.output === 'string') return { type: 'tool_result', call_id: id, content: response.output };
  if (isRecord(response) && typeof response.error === 'string') return { type: 'tool_result', call_id: id, content: response.error, is_error: true };
  return { type: 'tool_result', call_id: id, content: JSON.stringify(response ?? null) };
}

/** Parts other than function calls and responses → blocks. */
function partBlocks(parts: readonly GeminiRecord[]): Block[] {
  return parts.flatMap((p): Block[] => {
    if (typeof p.text === 'string') return p.text === '' ? [] : [p.thought === true ? { type: 'thinking', text: p.text } : { type: 'text', text: p.text }];
    const inline = p.inlineData;
    if (isRecord(inline)) return [compact({ type: 'image' as const, media_type: str(inline.mimeType), data: str(inline.data) })];
    const file = p.fileData;
    if (isRecord(file)) return [compact({ type: 'image' as const, media_type: str(file.mimeType), url: str(file.fileUri) })];
    return [];
  });
}

/**
 * A call's id as the model saw it: Gemini CLI records a call the model left unnamed as
 * `<tool>__<tool>_<time>_<n>` while the API carried `<tool>_<time>_<n>`; the tool's prefix is dropped.
 */
export function callId(c: GeminiRecord): string {
  const id = String(c.id ?? '');
  const prefix = `${String(c.name ?? '')}__`;
  return prefix.length > 2 && id.startsWith(prefix) && id.length > prefix.length ? id.slice(prefix.length) : id;
}

const PREAMBLE: Origin = { runtime: 'gemini-cli', kind: 'preamble' };
/** Gemini CLI's setup message (the date, the OS, the workspace's files) and, in older sessions, the model's reply to it. */
const SETUP = /^\s*(<session_context>|This is the Gemini CLI\. We are setting up the context for our chat\.)/;
const SETUP_REPLY = 'Got it. Thanks for the context!';

const callOf = (p: GeminiRecord) => (isRecord(p.functionCall) ? p.functionCall : undefined);
const responseOf = (p: GeminiRecord) => (isRecord(p.functionResponse) ? p.functionResponse : undefined);

/**
 * Message records (as the session ends up: replacements and updates already applied) → neutral
 * messages. A tool call gets one result: from the functionResponse record that answers it, else
 * from its `toolCalls` entry; a repeated response to the same call is left out.
 */
export function geminiMessagesToNeutral(records: readonly unknown[]): NeutralMessage[] {
  const messages = records.filter(isGeminiMessage);
  const answeredByRecord = new Set(
    messages.filter((m) => m.type === 'user').flatMap((m) => partsOf(m.content).flatMap((p) => (responseOf(p) ? [callId(responseOf(p)!)] : []))),
  );
  const answered = new Set<string>();
  const out: NeutralMessage[] = [];
  const pushResults = (results: ToolResultBlock[], timestamp: string | undefined) => {
    const fresh = results.filter((r) => !answered.has(r.call_id) && answered.add(r.call_id));
    if (fresh.length) out.push(compact({ role: 'tool', content: fresh, timestamp }));
  };
  for (const m of messages) {
    const base = { timestamp: str(m.timestamp), ids: typeof m.id === 'string' ? { id: m.id } : undefined };
    const parts = partsOf(m.content);
    if (m.type === 'user') {
      pushResults(
        parts.flatMap((p) => (responseOf(p) ? [responseResult(responseOf(p)!, callId(responseOf(p)!))] : [])),
        base.timestamp,
      );
      const content = partBlocks(parts.filter((p) => !responseOf(p)));
      const setup = content[0]?.type === 'text' && SETUP.test(content[0].text);
      if (content.length) out.push(compact({ role: 'user', content, ...base, origin: setup ? PREAMBLE : undefined }));
      continue;
    }
    const inContent = parts.flatMap((p) => (callOf(p) ? [callOf(p)!] : []));
    const toolCalls = (Array.isArray(m.toolCalls) ? m.toolCalls : []).filter(isRecord);
    const calls = inContent.length ? inContent : toolCalls;
    const thoughts: Block[] = parts.some((p) => p.thought === true)
      ? []
      : (Array.isArray(m.thoughts) ? m.thoughts : []).flatMap((t) =>
          isRecord(t) ? [{ type: 'thinking' as const, text: [str(t.subject), str(t.description)].filter(Boolean).join('\n') }] : [],
        );
    const callBlocks: Block[] = calls.map((c) => ({ type: 'tool_call', id: callId(c), name: String(c.name ?? ''), input: c.args ?? {} }));
    const content = [...thoughts, ...partBlocks(parts.filter((p) => !callOf(p))), ...callBlocks];
    const setupReply = out.at(-1)?.origin === PREAMBLE && content.length === 1 && content[0].type === 'text' && content[0].text.trim() === SETUP_REPLY;
    if (content.length) out.push(compact({ role: 'assistant', content, ...base, origin: setupReply ? PREAMBLE : undefined }));
    const recorded = toolCalls.filter((c) => !answeredByRecord.has(callId(c)));
    pushResults(
      recorded.map((c) => toolCallResult(c)),
      base.timestamp,
    );
  }
  return out;
}

/** A `toolCalls` entry's result: its functionResponse parts (or string), an error when its status says so. */
function toolCallResult(call: GeminiRecord): ToolResultBlock {
  const id = callId(call);
  const result = call.result;
  const responses = typeof result === 'string' ? [] : partsOf(result).flatMap((p) => (responseOf(p) ? [responseResult(responseOf(p)!, id)] : []));
  const text = typeof result === 'string' ? result : responses.map((r) => resultText(r.content)).join('\n');
  return compact({ type: 'tool_result' as const, call_id: id, content: text, is_error: call.status === 'error' || responses.some((r) => r.is_error) ? true : undefined });
}

/**
 * Neutral messages → message records as Gemini CLI writes them (content as parts, tool calls as
 * functionCall parts answered by a user record of functionResponse parts), which is what its
 * resume sends to the model. Ids come from the messages where they are unique, else `ctx-<n>`.
 */
export function neutralToGeminiMessages(messages: readonly NeutralMessage[]): GeminiRecord[] {
  const names = new Map<string, string>();
  const used = new Set<string>();
  const out: GeminiRecord[] = [];
  const idOf = (m: NeutralMessage, n: number) => {
    const own = m.ids?.id ?? m.ids?.uuid;
    const id = own !== undefined && !used.has(own) ? own : `ctx-${n}`;
    used.add(id);
    return id;
  };
  messages.forEach((m, n) => {
    const head = (type: string) => compact({ id: idOf(m, n), timestamp: m.timestamp, type });
    if (m.role === 'assistant') {
      const thoughts = m.content.flatMap((b) => (b.type === 'thinking' ? [compact({ subject: '', description: b.text, timestamp: m.timestamp })] : []));
      const parts = m.content.flatMap((b): GeminiRecord[] => {
        if (b.type === 'tool_call') {
          names.set(b.id, b.name);
          return [{ functionCall: { id: b.id, name: b.name, args: isRecord(b.input) ? b.input : { input: b.input } } }];
        }
        return b.type === 'thinking' || b.type === 'tool_result' ? [] : blockParts(b);
      });
      if (parts.length === 0 && thoughts.length === 0) return;
      out.push({ ...head('gemini'), content: parts, ...(thoughts.length ? { thoughts } : {}) });
      return;
    }
    const parts = m.content.flatMap((b): GeminiRecord[] => {
      if (b.type !== 'tool_result') return blockParts(b);
      const text = resultText(b.content);
      const name = names.get(b.call_id);
      // a result whose call is not in the context: the model would refuse a response to no call
      if (name === undefined) return [{ text: `[result of tool call ${b.call_id}, whose call is not in this context]\n${text}` }];
      return [{ functionResponse: { id: b.call_id, name, response: b.is_error ? { error: text } : { output: text } } }];
    });
    if (parts.length) out.push({ ...head('user'), content: parts });
  });
  return out;
}

function blockParts(b: Block): GeminiRecord[] {
  switch (b.type) {
    case 'text':
    case 'thinking':
      return b.text === '' ? [] : [{ text: b.text }];
    case 'image':
      if (b.data !== undefined) return [{ inlineData: compact({ mimeType: b.media_type, data: b.data }) }];
      return b.url !== undefined ? [{ fileData: compact({ mimeType: b.media_type, fileUri: b.url }) }] : [];
    default:
      return [];
  }
}
