// The real `gemini` CLI (Gemini CLI 0.61.0, pinned in .ci/agents) run non-interactively (`gemini -p`)
// against a mock Gemini API on 127.0.0.1, in a temp HOME: the sessions it writes import byte-exact
// as delta commits, its hooks capture every turn, and `ctx export gemini-cli` writes sessions that
// `gemini --resume` sends back to the model as they were.
import { existsSync, readFileSync, readdirSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { CTX, FIXTURES, ctx, fsck, git, objectCount, refSnapshot } from './helpers.js';
import { agentMissing, describeAgent } from './agent-clis.js';
import { MOCK_SNAPSHOT } from './mock-gemini-api.js';
import { gemini, readThenText, sandbox, type Sandbox } from './gemini-cli.js';

const ENV = { CTX_PRINCIPAL: 'alice', CTX_MACHINE: 'box', CTX_NOW: '2026-01-02T03:04:05.678Z' };

/** The project's session files Gemini wrote, oldest first. */
function sessions(sb: Sandbox): string[] {
  const dir = join(sb.home, '.gemini', 'tmp', 'proj', 'chats');
  return existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.jsonl')).sort().map((f) => join(dir, f)) : [];
}

const sessionIdOf = (file: string) => JSON.parse(readFileSync(file, 'utf8').split('\n')[0]).sessionId as string;

/** What the model saw of the conversation: the first user turn without the session context Gemini puts first. */
function conversation(contents: unknown): unknown[] {
  const [first, ...rest] = contents as { role: string; parts: { text?: string }[] }[];
  expect(first.parts[0].text).toMatch(/^<session_context>\n/);
  return first.parts.length > 1 ? [{ ...first, parts: first.parts.slice(1) }, ...rest] : rest;
}

/** Contents with each function response once. */
function onceEach(contents: unknown[]): unknown[] {
  const seen = new Set<string>();
  return (contents as { role: string; parts: { functionResponse?: { id: string } }[] }[]).map((c) => ({
    ...c,
    parts: c.parts.filter((p) => p.functionResponse === undefined || (!seen.has(p.functionResponse.id) && !!seen.add(p.functionResponse.id))),
  }));
}

describeAgent('gemini-cli with the real gemini CLI', agentMissing('gemini'), () => {
  it('imports the session it wrote as delta commits, byte-exact; after another turn only the new lines', async () => {
    const sb = await sandbox();
    const store = join(sb.proj, '.ctx');
    const first = await gemini(sb, ['-p', 'read notes.txt please']);
    expect([first.code, first.stdout]).toEqual([0, 'answer 1\n']);
    const [file] = sessions(sb);
    const id = sessionIdOf(file);
    const branch = `gemini/${id}`;
    // the model saw the tool call and its result
    expect(conversation(sb.mock.turns()[1].contents)).toEqual([
      { role: 'user', parts: [{ text: 'read notes.txt please' }] },
      { role: 'model', parts: [{ functionCall: { id: expect.any(String), name: 'read_file', args: { file_path: join(sb.proj, 'notes.txt') } }, thoughtSignature: expect.any(String) }] },
      { role: 'user', parts: [{ functionResponse: { id: expect.any(String), name: 'read_file', response: { output: 'hello from notes\n' } } }] },
    ]);

    const imported = ctx(store, ['import', 'gemini-cli', file], { env: ENV, cwd: sb.proj });
    expect([imported.code, imported.stdout.replace(/ctx-[0-9a-f]{12}/, 'ctx-…')]).toEqual([0, `${branch}\tctx-…\t1 commits\n`]);
    expect(ctx(store, ['materialize', branch, '--stop', 'root', '--verify'], { env: ENV }).bytes.equals(readFileSync(file))).toBe(true);

    const second = await gemini(sb, ['--resume', id, '-p', 'and now?']);
    expect([second.code, second.stdout]).toEqual([0, 'answer 2\n']);
    const later = ctx(store, ['import', 'gemini-cli', file], { env: ENV, cwd: sb.proj });
    expect([later.code, later.stdout.replace(/ctx-[0-9a-f]{12}/, 'ctx-…'), later.stderr]).toEqual([0, `${branch}\tctx-…\t1 commits\n`, '']);
    expect(ctx(store, ['materialize', branch, '--stop', 'root', '--verify'], { env: ENV }).bytes.equals(readFileSync(file))).toBe(true);
    const log = ctx(store, ['log', branch, '--json'], { env: ENV }).stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
    expect(log.map((c) => [c.type, c.format, c.summary])).toEqual([
      ['delta', 'gemini-cli-jsonl-v1', 'and now?'],
      ['delta', 'gemini-cli-jsonl-v1', 'read notes.txt please'],
    ]);
    const before = [refSnapshot(store), objectCount(store)];
    const again = ctx(store, ['import', 'gemini-cli', file], { env: ENV, cwd: sb.proj });
    expect([again.code, again.stdout.replace(/ctx-[0-9a-f]{12}/, 'ctx-…'), again.stderr]).toEqual([0, `${branch}\tctx-…\t0 commits\n`, `${branch} already holds this chat: nothing written\n`]);
    expect([refSnapshot(store), objectCount(store)]).toEqual(before);

    // the resumed session holds the calls as functionCall/functionResponse parts: translation keeps them
    const chat = JSON.parse(ctx(store, ['materialize', branch, '--format', 'openai-chat-v1'], { env: ENV }).stdout);
    expect(chat.slice(1)).toEqual([
      { role: 'user', content: 'read notes.txt please' },
      { role: 'assistant', content: null, tool_calls: [{ id: expect.any(String), type: 'function', function: { name: 'read_file', arguments: JSON.stringify({ file_path: join(sb.proj, 'notes.txt') }) } }] },
      { role: 'tool', tool_call_id: chat[2].tool_calls[0].id, content: 'hello from notes\n' },
      { role: 'assistant', content: 'answer 1' },
      { role: 'user', content: 'and now?' },
      { role: 'assistant', content: 'answer 2' },
    ]);

    // exported as a new session, resumed: the model gets the same conversation again
    const exported = ctx(store, ['export', 'gemini-cli', branch, '--session-id', '22222222-3333-4444-8555-666666666666'], { env: { ...ENV, HOME: sb.home }, cwd: sb.proj });
    expect([exported.code, exported.stdout]).toEqual([0, 'gemini --resume 22222222-3333-4444-8555-666666666666\n']);
    const third = await gemini(sb, ['--resume', '22222222-3333-4444-8555-666666666666', '-p', 'third']);
    expect([third.code, third.stdout]).toEqual([0, 'answer 3\n']);
    const turns = sb.mock.turns();
    // Gemini CLI repeats a call's response on every resume of its own files (a `<id>_response` record): once each
    expect(onceEach(conversation(turns[3].contents))).toEqual([...onceEach(conversation(turns[2].contents)), { role: 'model', parts: [{ text: 'answer 2' }] }, { role: 'user', parts: [{ text: 'third' }] }]);
    expect(fsck(store)).toEqual({ code: 0, output: '' });
  }, 120_000);

  it('captures every turn through the hooks ctx hooks install writes, byte-exact, and a compression as a compaction commit', async () => {
    // a long second answer, and a threshold that makes the next turn compress (0.61 runs no /compress under -p)
    const long = Array.from({ length: 1500 }, (_, i) => `item ${i} weighs ${(i * 7919) % 10007} grams.`).join(' ');
    const sb = await sandbox((proj) => (n) => (n === 1 ? [{ text: long }] : readThenText(proj)(n)), { model: { compressionThreshold: 0.000001 } });
    const command = `${process.execPath} ${realpathSync(CTX)} hook gemini-cli`;
    const installed = ctx(join(sb.proj, '.ctx'), ['hooks', 'install', 'gemini-cli'], { cwd: sb.proj });
    expect([installed.code, installed.stdout, installed.stderr]).toEqual([
      0,
      `AfterAgent\t${command}\nSessionEnd\t${command}\n`,
      `installed in ${join(sb.proj, '.gemini', 'settings.json')}\n`,
    ]);
    const entry = { hooks: [{ type: 'command', command, name: 'ctx', timeout: 30000 }] };
    expect(readFileSync(join(sb.proj, '.gemini', 'settings.json'), 'utf8')).toBe(`${JSON.stringify({ hooks: { AfterAgent: [entry], SessionEnd: [entry] } }, null, 2)}\n`);

    const store = join(sb.proj, '.ctx');
    const first = await gemini(sb, ['-p', 'read notes.txt please']);
    expect([first.code, first.stdout]).toEqual([0, `${long}\n`]);
    const [file] = sessions(sb);
    const branch = `gemini/${sessionIdOf(file)}`;
    expect(existsSync(join(store, 'ctx', 'hook.log'))).toBe(false);
    expect(ctx(store, ['materialize', branch, '--stop', 'root', '--verify'], { env: ENV }).bytes.equals(readFileSync(file))).toBe(true);

    const second = await gemini(sb, ['--resume', sessionIdOf(file), '-p', 'and now?']);
    expect([second.code, second.stdout]).toEqual([0, 'answer 2\n']);
    // Gemini compressed before the turn: the model was asked with the summary in place of the first exchange
    expect(conversation(sb.mock.turns()[2].contents)).toEqual([
      { role: 'user', parts: [{ text: MOCK_SNAPSHOT }] },
      { role: 'model', parts: [{ text: 'Got it. Thanks for the additional context!' }] },
      { role: 'user', parts: [{ text: 'and now?' }] },
    ]);
    expect(existsSync(join(store, 'ctx', 'hook.log'))).toBe(false);
    expect(ctx(store, ['materialize', branch, '--stop', 'root', '--verify'], { env: ENV }).bytes.equals(readFileSync(file))).toBe(true);
    const log = ctx(store, ['log', branch, '--json'], { env: ENV }).stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
    // the compression says what it compacted; the reply captured apart from its prompt, what the model said (cut at a word within 500)
    const summaries = log.map((c) => c.summary);
    expect(summaries).toEqual(['and now?', 'compacted: The user read notes.txt; it says hello.', expect.stringMatching(/^continued: item 0 weighs 0 grams\. .* item 18 weighs$/), 'read notes.txt please']);
    expect(summaries[2].length).toBeLessThanOrEqual(500);
    expect(log.filter((c) => c.type === 'compaction')).toHaveLength(1);
    // from the compaction on: the summary, the acknowledgement, and the turn after it
    const chat = JSON.parse(ctx(store, ['materialize', branch, '--format', 'openai-chat-v1'], { env: ENV }).stdout);
    expect(chat.slice(1)).toEqual([
      { role: 'user', content: MOCK_SNAPSHOT },
      { role: 'assistant', content: 'Got it. Thanks for the additional context!' },
      { role: 'user', content: 'and now?' },
      { role: 'assistant', content: 'answer 2' },
    ]);
    const tip = JSON.parse(git(store, ['show', `${branch}:meta.json`]));
    expect(tip).toMatchObject({ template: 'gemini-cli', format: 'gemini-cli-jsonl-v1', session_id: sessionIdOf(file), source: { file: file.split('/').pop() } });
    expect(fsck(store)).toEqual({ code: 0, output: '' });
  }, 120_000);

  it('exports a Codex chain that gemini --resume sends with its tool calls as functionCall/functionResponse', async () => {
    const sb = await sandbox(() => () => [{ text: 'resumed' }]);
    const store = join(sb.proj, '.ctx');
    const rollout = join(FIXTURES, 'codex', 'rollout-2025-11-20T09-00-00-0a1b2c3d-4e5f-7a8b-9c0d-1e2f3a4b5c6d.jsonl');
    expect(ctx(store, ['import', 'codex', rollout], { env: ENV, cwd: sb.proj }).code).toBe(0);
    const id = '11111111-2222-4333-8444-555555555555';
    const exported = ctx(store, ['export', 'gemini-cli', 'codex/0a1b2c3d-4e5f-7a8b-9c0d-1e2f3a4b5c6d', '--stop', 'root', '--session-id', id], { env: { ...ENV, HOME: sb.home }, cwd: sb.proj });
    const file = join(sb.home, '.gemini', 'tmp', 'proj', 'chats', 'session-2026-01-02T03-04-11111111.jsonl');
    expect([exported.code, exported.stdout, exported.stderr]).toEqual([0, `gemini --resume ${id}\n`, `wrote ${file} (11 lines from ctx-47feb946df91); run it in ${sb.proj}\n`]);
    expect(JSON.parse(readFileSync(join(sb.home, '.gemini', 'projects.json'), 'utf8'))).toEqual({ projects: { [sb.proj]: 'proj' } });

    const r = await gemini(sb, ['--resume', id, '-p', 'next']);
    expect([r.code, r.stdout]).toEqual([0, 'resumed\n']);
    const shell = (callId: string, command: string[], output: string) => [
      { role: 'model', parts: [{ functionCall: { id: callId, name: 'shell', args: { command } } }] },
      { role: 'user', parts: [{ functionResponse: { id: callId, name: 'shell', response: { output } } }] },
    ];
    expect(conversation(sb.mock.turns()[0].contents)).toEqual([
      // Codex's environment context is Codex's own: Gemini CLI sends its own session context instead
      { role: 'user', parts: [{ text: 'Add a --done flag to todo list.' }] },
      ...shell('call_a1', ['rg', '-n', 'def list', 'src'], '{"output":"src/cli.py:12:def list(args):\\n","metadata":{"exit_code":0,"duration_seconds":0.1}}'),
      { role: 'model', parts: [{ text: 'Added `--done`: it lists only finished items.' }] },
      { role: 'user', parts: [{ text: 'Now write tests for it.' }] },
      ...shell('call_a2', ['pytest', '-q'], '{"output":"3 passed\\n","metadata":{"exit_code":0,"duration_seconds":1.9}}'),
      { role: 'model', parts: [{ text: 'Tests added in tests/test_list.py; all pass.' }] },
      { role: 'user', parts: [{ text: 'Thanks. Which files changed?' }] },
      { role: 'model', parts: [{ text: 'src/cli.py and tests/test_list.py.' }] },
      { role: 'user', parts: [{ text: 'next' }] },
    ]);
  }, 120_000);
});
