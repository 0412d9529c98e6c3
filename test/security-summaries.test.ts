// Stored summaries (meta.json, so --json and the web page too): a prompt's whole first line
// (bounded at 500 characters, cut at a word); a compaction says what it compacted and the turn
// going on after it what the agent did; checkpoints and session appends without a summary get one.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXED_ENV, FIXTURES, ctx, newStore, tempDir } from './helpers.js';
// @ts-expect-error the bundle is JavaScript; its types are in dist/types
import * as lib from '../dist/index.js';

const summaries = (store: string, branch: string) =>
  ctx(store, ['log', branch, '--json'], { env: FIXED_ENV })
    .stdout.trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l).summary as string);

const jsonl = (lines: unknown[]) => lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
const at = (s: number) => `2026-01-05T10:00:${String(s).padStart(2, '0')}.000Z`;
const user = (content: unknown, s: number, extra: object = {}) => ({ type: 'user', sessionId: 'sum-1', timestamp: at(s), uuid: `u${s}`, message: { role: 'user', content }, ...extra });
const assistant = (content: unknown[], s: number) => ({ type: 'assistant', sessionId: 'sum-1', timestamp: at(s), uuid: `a${s}`, message: { id: `m${s}`, role: 'assistant', content } });

const LONG = 'Refactor the session store so that every append checks the caller list against the branch tip and explain why';
const CLAUDE = jsonl([
  user(`${LONG}\nsecond line is not the summary`, 1),
  assistant([{ type: 'text', text: 'On it.' }], 2),
  { type: 'system', subtype: 'compact_boundary', sessionId: 'sum-1', timestamp: at(3), uuid: 'b3', compactMetadata: { trigger: 'auto', preTokens: 170000 } },
  user(
    'This session is being continued from a previous conversation that ran out of context. The summary below covers the earlier portion of the conversation.\n\nAnalysis:\nLet me chronologically analyze this conversation:\n\n1. **Primary Request**: The user asked for a refactor of the session store.\n2. More.',
    4,
    { isCompactSummary: true, isVisibleInTranscriptOnly: true },
  ),
  assistant([{ type: 'thinking', thinking: 'Read the file first.', signature: 's' }, { type: 'tool_use', id: 't5', name: 'Read', input: { file_path: 'src/store.ts' } }], 5),
  user([{ type: 'tool_result', tool_use_id: 't5', content: 'export {}' }], 6),
  assistant([{ type: 'tool_use', id: 't7', name: 'Edit', input: { file_path: 'src/store.ts' } }], 7),
  user([{ type: 'tool_result', tool_use_id: 't7', content: 'ok' }], 8),
  assistant([{ type: 'text', text: 'Updated src/store.ts: appends now check the tip.\nDetails follow.' }], 9),
  user('Thanks', 10),
]);

describe('stored summaries', () => {
  it("keep a prompt's whole first line, also in --json and show --json", () => {
    const store = newStore();
    const file = join(tempDir(), 'long.jsonl');
    writeFileSync(file, CLAUDE);
    expect(ctx(store, ['import', 'claude-code', file, '-b', 'long'], { env: FIXED_ENV }).code).toBe(0);
    expect(summaries(store, 'long').at(-1)).toBe(LONG);
    expect(JSON.parse(ctx(store, ['show', 'long~3', '--json'], { env: FIXED_ENV }).stdout).meta.summary).toBe(LONG);
  });

  it('bound a pathological first line at 500 characters, cut at a word without an ellipsis', () => {
    const store = newStore();
    const words = `a ${Array.from({ length: 120 }, (_, i) => `word${i}`).join(' ')}`;
    const input = jsonl([user(words, 1), user(`${'x'.repeat(600)} tail`, 2)]);
    const file = join(tempDir(), 'p.jsonl');
    writeFileSync(file, input);
    expect(ctx(store, ['import', 'claude-code', file, '-b', 'q'], { env: FIXED_ENV }).code).toBe(0);
    const [second, first] = summaries(store, 'q');
    expect(first).toBe(words.slice(0, words.lastIndexOf(' ', 500)));
    // a cut at 500 would end inside `word72`
    expect([first.length, first.slice(-7), words[first.length]]).toEqual([495, ' word71', ' ']);
    // one word longer than the bound: cut at the bound
    expect(second).toBe('x'.repeat(500));
  });

  it('of a Claude Code compaction and the turn after it say what was compacted and what the agent did (import and hook)', () => {
    const expected = [
      'Thanks',
      'continued: Updated src/store.ts: appends now check the tip.',
      'compacted: Primary Request: The user asked for a refactor of the session store.',
      LONG,
    ];
    const store = newStore();
    const dir = tempDir();
    const file = join(dir, 'sum-1.jsonl');
    writeFileSync(file, CLAUDE);
    expect(ctx(store, ['import', 'claude-code', file, '-b', 'c'], { env: FIXED_ENV }).code).toBe(0);
    expect(summaries(store, 'c')).toEqual(expected);
    const hooked = newStore();
    const input = JSON.stringify({ session_id: 'sum-1', transcript_path: file, hook_event_name: 'Stop', cwd: dir });
    expect(ctx(hooked, ['hook', 'claude-code'], { input, env: FIXED_ENV }).code).toBe(0);
    expect(ctx(hooked, ['log', '--all', '--format', '%s'], { env: FIXED_ENV }).stdout).toBe(expected.join('\n') + '\n');
  });

  it('of a turn with only tool calls after a compaction name the tools', () => {
    const store = newStore();
    const file = join(tempDir(), 'tools.jsonl');
    const lines = CLAUDE.trimEnd().split('\n').slice(0, 8);
    writeFileSync(file, lines.join('\n') + '\n');
    expect(ctx(store, ['import', 'claude-code', file, '-b', 't'], { env: FIXED_ENV }).code).toBe(0);
    expect(summaries(store, 't')[0]).toBe('continued: Read, Edit');
  });

  it('of Codex and Gemini CLI compactions and the turn after them', () => {
    const store = newStore();
    const codex = join(FIXTURES, 'codex', 'rollout-2025-11-20T09-00-00-0a1b2c3d-4e5f-7a8b-9c0d-1e2f3a4b5c6d.jsonl');
    expect(ctx(store, ['import', 'codex', codex, '-b', 'cx'], { env: FIXED_ENV }).code).toBe(0);
    expect(summaries(store, 'cx')).toEqual([
      'Thanks. Which files changed?',
      'continued: Tests added in tests/test_list.py; all pass.',
      'compacted: The user asked for a --done flag on `todo list`; it was added in src/cli.py. Tests for it were being written; pytest passes (3 tests).',
      'Now write tests for it.',
      'Add a --done flag to todo list.',
    ]);
    const gemini = join(FIXTURES, 'gemini-cli', 'session-2026-01-12T08-00-cccc3333.jsonl');
    expect(ctx(store, ['import', 'gemini-cli', gemini, '-b', 'gm'], { env: FIXED_ENV }).code).toBe(0);
    expect(summaries(store, 'gm')).toEqual(['And now?', 'compacted: The user weighed the items.', 'Weigh every item']);
  });

  it('of ctx checkpoint without --summary are derived from the messages, in any format', () => {
    const store = newStore();
    const cp = (branch: string, format: string, input: string, ...more: string[]) => ctx(store, ['checkpoint', '-b', branch, '--format', format, ...more, '-'], { input, env: FIXED_ENV });
    expect(cp('a', 'claude-code-v1', jsonl([user('<system-reminder>x</system-reminder>go on with the refactor\nmore', 1)])).code).toBe(0);
    expect(cp('b', 'openai-chat-v1', JSON.stringify([{ role: 'assistant', content: null, tool_calls: [{ id: 'c', type: 'function', function: { name: 'Bash', arguments: '{}' } }] }])).code).toBe(0);
    expect(cp('c', 'claude-code-v1', CLAUDE.split('\n').slice(3, 4).join('\n') + '\n', '--type', 'compaction').code).toBe(0);
    expect(cp('d', 'openai-chat-v1', JSON.stringify([{ role: 'user', content: 'given one wins' }]), '--summary', 'mine').code).toBe(0);
    expect(['a', 'b', 'c', 'd'].map((b) => summaries(store, b)[0])).toEqual([
      'go on with the refactor',
      'continued: Bash',
      'compacted: Primary Request: The user asked for a refactor of the session store.',
      'mine',
    ]);
  });

  it("of the library's session.append are derived the same way", async () => {
    const store = await lib.openStore(join(tempDir(), '.ctx'), { create: true, env: FIXED_ENV });
    try {
      const s = store.session('loop');
      const conversation = [{ role: 'user', content: 'List the files in src\nplease' }, { role: 'assistant', content: 'src/a.ts' }];
      expect((await s.append(conversation)).meta.summary).toBe('List the files in src');
      conversation.push({ role: 'assistant', content: 'and src/b.ts' });
      expect((await s.append(conversation)).meta.summary).toBe('continued: and src/b.ts');
    } finally {
      await store.close?.();
    }
  });
});
