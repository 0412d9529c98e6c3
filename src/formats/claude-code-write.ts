// Neutral messages → Claude Code transcript lines (claude-code-v1's fromNeutral): what lets a chain
// of any runtime be exported as a session `claude --resume` continues. Pure and deterministic: the
// same messages give the same lines (uuids are hashes of the messages before them).
import { createHash } from 'node:crypto';
import { resultText, type Block, type NeutralMessage } from '../core/neutral.js';

/** The Claude Code version the lines claim: one whose transcripts this build reads and writes. */
const VERSION = '2.1.330';

type Line = Record<string, unknown>;

export function claudeLinesFromNeutral(messages: readonly NeutralMessage[]): Uint8Array {
  const hash = createHash('sha256');
  const uuid = () => {
    const h = hash.copy().digest('hex');
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
  };
  hash.update('ctx claude-code-v1 from neutral\n');
  const sessionId = uuid();
  const out: string[] = [];
  let parent: string | null = null;
  let time = '1970-01-01T00:00:00.000Z';
  for (const m of messages) {
    hash.update(`${JSON.stringify(m)}\n`);
    const assistant = m.role === 'assistant';
    const content = m.content.flatMap((b) => claudeBlock(b, assistant));
    if (content.length === 0) continue;
    if (m.timestamp !== undefined && !Number.isNaN(Date.parse(m.timestamp))) time = new Date(m.timestamp).toISOString();
    const id = uuid();
    const message = assistant
      ? { id: `msg_ctx_${id.replace(/-/g, '')}`, type: 'message', role: 'assistant', model: 'ctx-translated', content, stop_reason: content.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn', stop_sequence: null, usage: { input_tokens: 0, output_tokens: 0 } }
      : { role: 'user', content };
    const line: Line = { parentUuid: parent, isSidechain: m.author === 'subagent', userType: 'external', sessionId, version: VERSION, type: assistant ? 'assistant' : 'user', message, uuid: id, timestamp: time };
    if (m.author !== undefined && m.author !== 'subagent') line.author = m.author;
    out.push(`${JSON.stringify(line)}\n`);
    parent = id;
  }
  return Buffer.from(out.join(''), 'utf8');
}

/**
 * Tool ids the Messages API accepts (letters, digits, `_` and `-`): an id that is one stays as it is;
 * another gets its own hash appended, so two ids that differ only in the characters replaced stay two.
 */
const toolId = (id: string) => (/^[A-Za-z0-9_-]+$/.test(id) ? id : id === '' ? 'toolu_ctx' : `${id.replace(/[^A-Za-z0-9_-]/g, '_')}_${createHash('sha256').update(id).digest('hex').slice(0, 8)}`);

/** One neutral block as Claude content; a thinking block without its signature cannot be sent back, so it is left out. */
function claudeBlock(b: Block, assistant: boolean): Record<string, unknown>[] {
  switch (b.type) {
    case 'text':
      return b.text === '' ? [] : [{ type: 'text', text: b.text }];
    case 'thinking':
      return assistant && b.signature ? [{ type: 'thinking', thinking: b.text, signature: b.signature }] : [];
    case 'image':
      return [{ type: 'image', source: b.data !== undefined ? { type: 'base64', media_type: b.media_type ?? 'image/png', data: b.data } : { type: 'url', url: b.url } }];
    case 'tool_call':
      return assistant ? [{ type: 'tool_use', id: toolId(b.id), name: b.name, input: b.input !== null && typeof b.input === 'object' ? b.input : { input: b.input } }] : [{ type: 'text', text: `[tool call ${b.name}] ${JSON.stringify(b.input)}` }];
    case 'tool_result': {
      const content = typeof b.content === 'string' ? b.content : b.content.some((x) => x.type === 'image') ? b.content.flatMap((x) => claudeBlock(x, false)) : resultText(b.content);
      return assistant ? [{ type: 'text', text: resultText(b.content) }] : [{ type: 'tool_result', tool_use_id: toolId(b.call_id), content, ...(b.is_error ? { is_error: true } : {}) }];
    }
  }
}
