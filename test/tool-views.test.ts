// Each runtime's view of its tool calls (ToolKnowledge.view, the neutral shapes the web view draws):
// the calls of the runtime's fixture, read through its own format, each with the exact view; and the
// tools its fixtures do not hold (todo lists, patches, multi-edits, subagents), as the runtime writes them.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ToolView } from '../src/api/capture/runtime.js';
import { argEntries, argsLine } from '../src/core/tool-args.js';
import { storageFormat } from '../src/formats/registry.js';
import { allRuntimes } from '../src/runtimes/registry.js';
import { FIXTURES } from './helpers.js';

type Call = { name: string; input: unknown };

async function viewOf(runtime: string): Promise<(c: Call) => ToolView | undefined> {
  const r = (await allRuntimes()).find((x) => x.name === runtime)!;
  return (c) => r.tools!.view!(c);
}

/** The tool calls of a fixture as the runtime's format reads them into neutral messages. */
function neutralCalls(format: string, file: string): Call[] {
  const f = storageFormat(format);
  return f.toNeutral!(f.parse(readFileSync(join(FIXTURES, file)), { lastOfFile: true })).flatMap((m) => m.content.flatMap((b) => (b.type === 'tool_call' ? [{ name: b.name, input: b.input }] : [])));
}

/** A JSON-lines fixture's calls found by `pick` on each line (formats that read from a compaction on leave earlier calls out). */
const lineCalls = (file: string, pick: (line: any) => Call[]): Call[] =>
  readFileSync(join(FIXTURES, file), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .flatMap((l) => pick(JSON.parse(l)));

const TEST_FILE = `import { describe, expect, it } from 'vitest';\nimport { parseTodos } from '../src/list.js';\n\n${Array.from({ length: 22 }, (_, i) => `it('keeps todo ${i + 1}', () => expect(parseTodos('\\n${i + 1}')).toEqual(['${i + 1}']));\n`).join('')}`;

describe('ToolKnowledge.view of each runtime', () => {
  it('claude-code: Edit, Write, Bash, TodoWrite, Task, WebSearch (one line) on fixtures/claude-code/conversation.jsonl; Read, MultiEdit, Agent', async () => {
    const view = await viewOf('claude-code');
    const calls = neutralCalls('claude-code-v1', 'claude-code/conversation.jsonl');
    expect(calls.map((c) => [c.name, view(c)])).toEqual([
      ['Edit', { kind: 'edit', path: '/home/alex/src/todo-cli/src/list.ts', edits: [{ old: "  for (const line of text.split('\\n')) {\n    if (line === '') break;\n    todos.push(line);", new: "  for (const line of text.split('\\n')) {\n    if (line.trim() === '') continue;\n    todos.push(line);" }] }],
      ['Write', { kind: 'write', path: '/home/alex/src/todo-cli/test/list.test.ts', text: TEST_FILE }],
      ['Bash', { kind: 'shell', command: 'npx vitest run test/list.test.ts' }],
      ['TodoWrite', { kind: 'todo', items: [{ text: 'Fix parseTodos', status: 'completed' }, { text: 'Add tests', status: 'in_progress' }, { text: 'Update the changelog', status: 'pending' }] }],
      ['Task', { kind: 'agent', description: 'Find other blank-line bugs', prompt: 'Search src/ for other loops that **stop** at an empty line.', agent: 'Explore' }],
      ['WebSearch', { kind: 'brief', text: '"vitest toEqual arrays"' }],
    ]);
    // a tool named like a property of every object is no tool the runtime knows
    expect(view({ name: 'constructor', input: {} })).toBeUndefined();
    expect(view({ name: 'Read', input: { file_path: '/a/b.ts' } })).toEqual({ kind: 'read', path: '/a/b.ts' });
    expect(view({ name: 'MultiEdit', input: { file_path: 'x.py', edits: [{ old_string: 'a', new_string: 'b' }, { old_string: 'c', new_string: '' }] } })).toEqual({ kind: 'edit', path: 'x.py', edits: [{ old: 'a', new: 'b' }, { old: 'c', new: '' }] });
    expect(view({ name: 'Agent', input: { description: 'd', prompt: 'p' } })).toEqual({ kind: 'agent', description: 'd', prompt: 'p' });
    // arguments without the file they name give no view: the page shows them as they are
    expect(view({ name: 'Edit', input: { old_string: 'a', new_string: 'b' } })).toBeUndefined();
  });

  it('codex: shell and exec_command as their commands, apply_patch as its files, update_plan as a checklist, a shell running apply_patch as the patch', async () => {
    const view = await viewOf('codex');
    const calls = neutralCalls('codex-rollout-v1', 'find/rollout-2026-11-20T10-00-00-0b1c2d3e-4f5a-7b6c-8d9e-0f1a2b3c4d5e.jsonl');
    expect(calls.map((c) => [c.name, view(c)])).toEqual([
      ['shell', { kind: 'shell', command: 'bash -lc rg -n refreshToken src/auth.ts' }],
      ['apply_patch', { kind: 'patch', files: [{ path: 'src/auth.ts', action: 'update', diff: '@@\n-export async function refreshToken() {\n+export async function renewToken() {' }, { path: 'src/renew.test.ts', action: 'add', diff: "+test('renews', () => {});" }] }],
      ['exec_command', { kind: 'shell', command: 'cat src/auth.ts' }],
    ]);
    expect(neutralCalls('codex-rollout-v1', 'codex/rollout-2025-11-20T09-00-00-0a1b2c3d-4e5f-7a8b-9c0d-1e2f3a4b5c6d.jsonl').map(view)).toEqual([
      { kind: 'shell', command: 'rg -n def list src' },
      { kind: 'shell', command: 'pytest -q' },
    ]);
    expect(view({ name: 'update_plan', input: { plan: [{ step: 'Read', status: 'completed' }, { step: 'Fix', status: 'in_progress' }, { step: 'Test', status: 'pending' }] } })).toEqual({
      kind: 'todo',
      items: [{ text: 'Read', status: 'completed' }, { text: 'Fix', status: 'in_progress' }, { text: 'Test', status: 'pending' }],
    });
    expect(view({ name: 'shell', input: { command: ['apply_patch', '*** Begin Patch\n*** Delete File: old.txt\n*** End Patch'] } })).toEqual({ kind: 'patch', files: [{ path: 'old.txt', action: 'delete', diff: '' }] });
  });

  it('gemini-cli: read_file, replace, write_file, run_shell_command on fixtures/find; list_directory has none; write_todos', async () => {
    const view = await viewOf('gemini-cli');
    expect(neutralCalls('gemini-cli-jsonl-v1', 'find/session-2026-11-20T11-00-cccc9999.jsonl').map((c) => [c.name, view(c)])).toEqual([
      ['read_file', { kind: 'read', path: '/home/alice/app/src/auth.ts' }],
      ['replace', { kind: 'edit', path: '/home/alice/app/src/auth.ts', edits: [{ old: '{}', new: "{ console.log('retry'); }" }] }],
      ['write_file', { kind: 'write', path: '/home/alice/app/docs/retry.md', text: 'Each retry is logged.' }],
      ['run_shell_command', { kind: 'shell', command: 'npm test -- src/auth.ts' }],
    ]);
    expect(neutralCalls('gemini-cli-jsonl-v1', 'gemini-cli/session-2026-01-10T09-00-aaaa1111.jsonl').map((c) => [c.name, view(c)])).toEqual([
      ['list_directory', { kind: 'brief', text: '.' }],
      ['read_file', { kind: 'read', path: 'a.txt' }],
    ]);
    expect(view({ name: 'write_todos', input: { todos: [{ description: 'Plan', status: 'completed' }, { description: 'Drop it', status: 'cancelled' }] } })).toEqual({
      kind: 'todo',
      items: [{ text: 'Plan', status: 'completed' }, { text: 'Drop it', status: 'cancelled' }],
    });
  });

  it('pi: read, edit (its edits list, and the older oldText/newText), write, bash', async () => {
    const view = await viewOf('pi');
    const calls = lineCalls('pi/2026-01-10T09-00-00-000Z_019a0001-aaaa-7bbb-8ccc-000000000001.jsonl', (l) => (l.message?.role === 'assistant' ? l.message.content.filter((b: any) => b.type === 'toolCall').map((b: any) => ({ name: b.name, input: b.arguments })) : []));
    expect(calls.map((c) => [c.name, view(c)])).toEqual([
      ['read', { kind: 'read', path: 'src/cli.py' }],
      ['edit', { kind: 'edit', path: 'src/cli.py', edits: [{ old: '    return items\n', new: '    if args.done:\n        return [i for i in items if i.done]\n    return items\n' }] }],
      ['write', { kind: 'write', path: 'tests/test_list.py', text: 'def test_done():\n    assert list_done() == []\n' }],
      ['bash', { kind: 'shell', command: 'pytest -q tests/test_list.py' }],
    ]);
    expect(view({ name: 'edit', input: { path: 'a', oldText: 'x', newText: 'y' } })).toEqual({ kind: 'edit', path: 'a', edits: [{ old: 'x', new: 'y' }] });
  });

  it('copilot: bash on fixtures/copilot/events.jsonl; view, create, edit, update_todo (a markdown checklist)', async () => {
    const view = await viewOf('copilot');
    const calls = lineCalls('copilot/events.jsonl', (l) => (l.type === 'assistant.message' ? l.data.toolRequests.map((t: any) => ({ name: t.name, input: t.arguments })) : []));
    expect(calls.map((c) => [c.name, view(c)])).toEqual([
      ['bash', { kind: 'shell', command: 'echo hi > f.txt && echo ok' }],
      ['bash', { kind: 'shell', command: 'env > /home/alice/env.txt; echo ok' }],
    ]);
    expect(view({ name: 'view', input: { path: '/p/a.md' } })).toEqual({ kind: 'read', path: '/p/a.md' });
    expect(view({ name: 'create', input: { path: 'n.txt', file_text: 'hi\n' } })).toEqual({ kind: 'write', path: 'n.txt', text: 'hi\n' });
    expect(view({ name: 'edit', input: { path: 'n.txt', old_str: 'hi', new_str: 'ho' } })).toEqual({ kind: 'edit', path: 'n.txt', edits: [{ old: 'hi', new: 'ho' }] });
    expect(view({ name: 'update_todo', input: { todos: '- [x] Read the code\n- [ ] Fix it\n' } })).toEqual({ kind: 'todo', items: [{ text: 'Read the code', status: 'completed' }, { text: 'Fix it', status: 'pending' }] });
  });

  it('opencode: bash on fixtures/opencode/session.json; edit, multiedit, write, patch, todowrite, task', async () => {
    const view = await viewOf('opencode');
    expect(neutralCalls('opencode-session-v1', 'opencode/session.json').map((c) => [c.name, view(c)])).toEqual([['bash', { kind: 'shell', command: 'echo hi > a.txt' }]]);
    expect(view({ name: 'edit', input: { filePath: '/w/a.ts', oldString: 'a', newString: 'b' } })).toEqual({ kind: 'edit', path: '/w/a.ts', edits: [{ old: 'a', new: 'b' }] });
    expect(view({ name: 'multiedit', input: { filePath: '/w/a.ts', edits: [{ oldString: 'a', newString: 'b' }] } })).toEqual({ kind: 'edit', path: '/w/a.ts', edits: [{ old: 'a', new: 'b' }] });
    expect(view({ name: 'write', input: { filePath: '/w/b.ts', content: 'x' } })).toEqual({ kind: 'write', path: '/w/b.ts', text: 'x' });
    expect(view({ name: 'patch', input: { patchText: '*** Begin Patch\n*** Update File: a.ts\n@@\n-a\n+b\n*** End Patch' } })).toEqual({ kind: 'patch', files: [{ path: 'a.ts', action: 'update', diff: '@@\n-a\n+b' }] });
    expect(view({ name: 'todowrite', input: { todos: [{ content: 'one', status: 'in_progress', priority: 'high', id: '1' }] } })).toEqual({ kind: 'todo', items: [{ text: 'one', status: 'in_progress' }] });
    expect(view({ name: 'task', input: { description: 'look', prompt: 'find x', subagent_type: 'general' } })).toEqual({ kind: 'agent', description: 'look', prompt: 'find x', agent: 'general' });
  });
});

describe('the generic view of a tool no runtime describes', () => {
  it('shows lists and objects nested past 16 levels as …, so arguments nested 100,000 deep neither overflow the stack nor print it all', () => {
    let small: unknown = 'end';
    for (let i = 0; i < 18; i++) small = { k: small };
    expect(argEntries({ q: small })).toEqual([{ key: 'q', value: `${'k: '.repeat(16)}…` }]);
    expect(argsLine({ q: small })).toBe(`q: ${'k: '.repeat(16)}…`);
    let deep: unknown = 'end';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(argEntries({ q: deep })).toEqual([{ key: 'q', value: `${'- '.repeat(16)}…` }]);
    expect(argsLine({ q: deep })).toBe('q: …');
  });
});
