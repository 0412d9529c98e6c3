// claude-code-v1 written from neutral messages: the lines `claude --resume` reads, the same every time.
import { describe, expect, it } from 'vitest';
import type { NeutralMessage } from '../core/neutral.js';
import { claudeCode } from './claude-code.js';

const MESSAGES: NeutralMessage[] = [
  { role: 'system', content: [{ type: 'text', text: 'be brief' }] },
  { role: 'user', content: [{ type: 'text', text: 'list files' }], timestamp: '2025-11-20T09:00:01Z' },
  { role: 'assistant', content: [{ type: 'thinking', text: 'no signature' }, { type: 'tool_call', id: 'call:1/a', name: 'shell', input: { command: ['ls'] } }] },
  { role: 'tool', content: [{ type: 'tool_result', call_id: 'call:1/a', content: [{ type: 'text', text: 'a.txt' }], is_error: true }] },
  { role: 'assistant', content: [{ type: 'text', text: '' }] },
  { role: 'assistant', content: [{ type: 'text', text: 'one file' }] },
];

describe('claude-code-v1 fromNeutral', () => {
  it('writes a user/assistant line per message, chained by uuid, tool calls as tool_use/tool_result, deterministically', () => {
    const bytes = claudeCode.fromNeutral!(MESSAGES);
    expect(Buffer.from(claudeCode.fromNeutral!(MESSAGES)).equals(Buffer.from(bytes))).toBe(true);
    const lines = Buffer.from(bytes).toString('utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
    // the empty assistant message has nothing to send: no line; an id the Messages API refuses has its
    // characters replaced and its own hash appended, for the call and its result alike
    expect(lines.map((l) => [l.type, l.message.content])).toEqual([
      ['user', [{ type: 'text', text: 'be brief' }]],
      ['user', [{ type: 'text', text: 'list files' }]],
      ['assistant', [{ type: 'tool_use', id: 'call_1_a_4608f7eb', name: 'shell', input: { command: ['ls'] } }]],
      ['user', [{ type: 'tool_result', tool_use_id: 'call_1_a_4608f7eb', content: 'a.txt', is_error: true }]],
      ['assistant', [{ type: 'text', text: 'one file' }]],
    ]);
    expect(lines[0].parentUuid).toBeNull();
    for (let i = 1; i < lines.length; i++) expect(lines[i].parentUuid).toBe(lines[i - 1].uuid);
    expect(new Set(lines.map((l) => l.sessionId)).size).toBe(1);
    expect(lines.map((l) => l.timestamp)).toEqual(['1970-01-01T00:00:00.000Z', ...Array(4).fill('2025-11-20T09:00:01.000Z')]);
    expect(lines[2]).toMatchObject({ isSidechain: false, userType: 'external', version: '2.1.330', message: { role: 'assistant', type: 'message', stop_reason: 'tool_use' } });
    // read back: the same conversation
    expect(claudeCode.toNeutral!(claudeCode.parse(bytes)).map((m) => [m.role, m.content])).toEqual([
      ['user', [{ type: 'text', text: 'be brief' }]],
      ['user', [{ type: 'text', text: 'list files' }]],
      ['assistant', [{ type: 'tool_call', id: 'call_1_a_4608f7eb', name: 'shell', input: { command: ['ls'] } }]],
      ['tool', [{ type: 'tool_result', call_id: 'call_1_a_4608f7eb', content: 'a.txt', is_error: true }]],
      ['assistant', [{ type: 'text', text: 'one file' }]],
    ]);
  });
});
