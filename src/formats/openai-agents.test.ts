// openai-agents-v1 into and out of the neutral model: the item kinds the Agents SDK stores.
import { describe, expect, it } from 'vitest';
import { openaiAgents } from './openai-agents.js';
import { NO_RESULT } from './openai-chat.js';

const items = [
  { type: 'message', role: 'system', content: 'Be brief.' },
  { role: 'user', content: [{ type: 'input_text', text: 'Look at this' }, { type: 'input_image', image: 'data:image/png;base64,iVBO' }] },
  { type: 'reasoning', id: 'rs_1', content: [{ type: 'input_text', text: 'a screenshot first' }] },
  { type: 'computer_call', callId: 'cc_1', status: 'completed', action: { type: 'screenshot' } },
  { type: 'computer_call_result', callId: 'cc_1', output: { type: 'computer_screenshot', data: 'data:image/png;base64,AAAA' } },
  { type: 'hosted_tool_call', id: 'ws_1', name: 'web_search_call', status: 'completed', arguments: '{"query":"ctx"}' },
  { type: 'function_call', callId: 'call_1', name: 'lookup', status: 'completed', arguments: '{"word":"w1"}' },
  { type: 'function_call_result', callId: 'call_1', name: 'lookup', status: 'completed', output: [{ type: 'input_text', text: 'found w1' }] },
  { id: 'msg_1', type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Done.' }, { type: 'refusal', refusal: 'not that' }] },
  { type: 'compaction', encrypted_content: 'opaque' },
];

describe('openai-agents-v1', () => {
  it('reads messages, reasoning, every kind of call and result; a compaction item is no message', () => {
    const bytes = openaiAgents.encode!(items);
    expect(openaiAgents.parse(bytes)).toEqual(items);
    expect(openaiAgents.toNeutral!(openaiAgents.parse(bytes))).toEqual([
      { role: 'system', content: [{ type: 'text', text: 'Be brief.' }] },
      { role: 'user', content: [{ type: 'text', text: 'Look at this' }, { type: 'image', media_type: 'image/png', data: 'iVBO' }] },
      { role: 'assistant', content: [{ type: 'thinking', text: 'a screenshot first' }, { type: 'tool_call', id: 'cc_1', name: 'computer_call', input: { action: { type: 'screenshot' } } }] },
      { role: 'tool', content: [{ type: 'tool_result', call_id: 'cc_1', content: '{"type":"computer_screenshot","data":"data:image/png;base64,AAAA"}' }] },
      { role: 'assistant', content: [{ type: 'tool_call', id: 'ws_1', name: 'web_search_call', input: { query: 'ctx' } }, { type: 'tool_call', id: 'call_1', name: 'lookup', input: { word: 'w1' } }] },
      { role: 'tool', content: [{ type: 'tool_result', call_id: 'call_1', content: [{ type: 'text', text: 'found w1' }] }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Done.' }, { type: 'text', text: 'not that' }], ids: { id: 'msg_1' } },
    ]);
    expect(openaiAgents.count(items)).toBe(10);
  });

  it('writes what the SDK sends back: results named after their call, a call without one answered, a result without its call as user text', () => {
    const out = openaiAgents.parse(
      openaiAgents.fromNeutral!([
        { role: 'user', content: [{ type: 'text', text: 'hi' }] },
        { role: 'assistant', content: [{ type: 'thinking', text: 'hm' }, { type: 'text', text: 'checking' }, { type: 'tool_call', id: 'a', name: 'Read', input: { path: 'x' } }, { type: 'tool_call', id: 'b', name: 'Bash', input: 'ls' }] },
        { role: 'tool', content: [{ type: 'tool_result', call_id: 'a', content: 'text of x' }, { type: 'tool_result', call_id: 'z', content: 'stray' }] },
      ]),
    );
    expect(out).toEqual([
      { type: 'message', role: 'user', content: 'hi' },
      { type: 'reasoning', content: [{ type: 'input_text', text: 'hm' }] },
      { type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'checking' }] },
      { type: 'function_call', callId: 'a', name: 'Read', status: 'completed', arguments: '{"path":"x"}' },
      { type: 'function_call', callId: 'b', name: 'Bash', status: 'completed', arguments: 'ls' },
      { type: 'function_call_result', name: 'Bash', callId: 'b', status: 'completed', output: { type: 'text', text: NO_RESULT } },
      { type: 'function_call_result', name: 'Read', callId: 'a', status: 'completed', output: { type: 'text', text: 'text of x' } },
      { type: 'message', role: 'user', content: '[result of tool call z, whose call is not in this context]\nstray' },
    ]);
  });

  it('refuses what is no item array', () => {
    expect(() => openaiAgents.parse(Buffer.from('{}'))).toThrow('not an Agents SDK item array');
    expect(() => openaiAgents.parse(Buffer.from('[{"content":"x"}]'))).toThrow('item 0 is not an object with a string type or role');
    expect(() => openaiAgents.parse(Buffer.from('[1]'))).toThrow('item 0 is not an object with a string type or role');
  });
});
