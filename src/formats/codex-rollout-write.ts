// Neutral messages → codex-rollout-v1 lines (structural translation into a Codex thread): a
// `session_meta` whose `base_instructions` is the leading system prompt, then response items as
// Codex writes them: messages, `function_call` / `function_call_output` for tool calls, and the
// `user_message` event Codex writes beside each prompt (its session list reads it). The session's
// id, cwd and model provider are left empty: an export fills them in for the thread it writes.
import { resultText, type Block, type NeutralMessage } from '../core/neutral.js';

/** The time of lines whose message has none: a fixed one, so equal messages give equal bytes. */
const EPOCH = '1970-01-01T00:00:00.000Z';

export function writeRollout(messages: readonly NeutralMessage[]): Uint8Array {
  let at = messages.find((m) => m.timestamp)?.timestamp ?? EPOCH;
  const out: string[] = [];
  const line = (type: string, payload: Record<string, unknown>) => out.push(`${JSON.stringify({ timestamp: at, type, payload })}\n`);
  let first = 0;
  const system: string[] = [];
  for (; first < messages.length && messages[first].role === 'system'; first++) system.push(texts(messages[first].content).join('\n'));
  line('session_meta', { id: '', timestamp: at, cwd: '', originator: 'ctx', cli_version: '', source: 'exec', model_provider: '', ...(system.length ? { base_instructions: { text: system.join('\n\n') } } : {}) });
  for (const m of messages.slice(first)) {
    at = m.timestamp ?? at;
    if (m.role === 'system') line('response_item', message('developer', 'input_text', m.content));
    else if (m.role === 'assistant') {
      if (texts(m.content).length) line('response_item', message('assistant', 'output_text', m.content));
      for (const b of m.content) if (b.type === 'tool_call') line('response_item', { type: 'function_call', name: b.name, arguments: typeof b.input === 'string' ? b.input : JSON.stringify(b.input ?? {}), call_id: b.id });
    }
    for (const b of m.content) if (b.type === 'tool_result') line('response_item', { type: 'function_call_output', call_id: b.call_id, output: resultText(b.content) });
    if (m.role === 'user' && m.content.some((b) => b.type === 'text' || b.type === 'image')) {
      line('response_item', message('user', 'input_text', m.content));
      const images = m.content.flatMap((b) => (b.type === 'image' && imageUrl(b) ? [imageUrl(b)] : []));
      line('event_msg', { type: 'user_message', message: texts(m.content).join('\n'), images });
    }
  }
  return Buffer.from(out.join(''), 'utf8');
}

const texts = (content: readonly Block[]) => content.flatMap((b) => (b.type === 'text' ? [b.text] : []));

/** A message item of text and images (thinking is not carried: Codex's reasoning items are the model's own). */
function message(role: string, textType: string, content: readonly Block[]): Record<string, unknown> {
  const blocks = content.flatMap((b): Record<string, unknown>[] => {
    if (b.type === 'text') return [{ type: textType, text: b.text }];
    if (b.type === 'image' && role === 'user' && imageUrl(b)) return [{ type: 'input_image', image_url: imageUrl(b) }];
    return [];
  });
  return { type: 'message', role, content: blocks };
}

function imageUrl(b: Extract<Block, { type: 'image' }>): string | undefined {
  return b.url ?? (b.data ? `data:${b.media_type ?? 'image/png'};base64,${b.data}` : undefined);
}
