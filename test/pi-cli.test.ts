// The real `pi` CLI against the mock Messages API (test/pi-cli.ts): the sessions it writes import
// byte-exact, the extension `ctx hooks install pi` writes captures every turn, a compaction becomes
// a compaction commit, and `ctx export pi` writes sessions that `pi --session` resumes as its own.
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { CTX, FIXTURES, ctx, fsck } from './helpers.js';
import { agentMissing, describeAgent } from './agent-clis.js';
import { messagesOf, pi, piSandbox, piSessionDir, piSessionId, piSessions, type PiSandbox } from './pi-cli.js';

const ENV = { CTX_PRINCIPAL: 'alice', CTX_MACHINE: 'box', CTX_NOW: '2026-01-02T03:04:05.678Z' };

const logOf = (store: string, branch: string) =>
  ctx(store, ['log', branch, '--json'], { env: ENV })
    .stdout.trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l) as { type: string; format: string; summary: string });

const rootBytes = (store: string, branch: string) => ctx(store, ['materialize', branch, '--stop', 'root', '--verify'], { env: ENV }).bytes;

describeAgent('pi with the real pi CLI', agentMissing('pi'), () => {
  it('imports the session it wrote as a commit per prompt, byte-exact; after another turn only the new lines', async () => {
    const sb = await piSandbox();
    const store = join(sb.proj, '.ctx');
    const first = await pi(sb, ['read notes.txt please']);
    expect([first.code, first.stdout]).toEqual([0, 'read: 3 messages\n']);
    const [file] = piSessions(sb);
    const branch = `pi/${piSessionId(file)}`;
    expect(messagesOf(sb.mock.requests[1])).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'read notes.txt please' }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_mock_1', name: 'read', input: { path: 'notes.txt' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_mock_1', content: 'hello from notes\n', is_error: false }] },
    ]);

    const imported = ctx(store, ['import', 'pi', file], { env: ENV, cwd: sb.proj });
    expect([imported.code, imported.stdout.replace(/ctx-[0-9a-f]{12}/, 'ctx-…'), imported.stderr]).toEqual([0, `${branch}\tctx-…\t1 commits\n`, expect.stringMatching(/^(created context store at .*\n)?$/)]);
    expect(rootBytes(store, branch).equals(readFileSync(file))).toBe(true);

    const second = await pi(sb, ['-c', 'and now?']);
    expect([second.code, second.stdout]).toEqual([0, 'answer: and now?\n']);
    expect(piSessions(sb)).toEqual([file]);
    const later = ctx(store, ['import', 'pi', file], { env: ENV, cwd: sb.proj });
    expect([later.code, later.stdout.replace(/ctx-[0-9a-f]{12}/, 'ctx-…'), later.stderr]).toEqual([0, `${branch}\tctx-…\t1 commits\n`, '']);
    expect(rootBytes(store, branch).equals(readFileSync(file))).toBe(true);
    expect(logOf(store, branch).map((c) => [c.type, c.format, c.summary])).toEqual([
      ['delta', 'pi-session-v3', 'and now?'],
      ['delta', 'pi-session-v3', 'read notes.txt please'],
    ]);
    // the neutral reading: the call and its result paired
    const chat = JSON.parse(ctx(store, ['materialize', branch, '--format', 'openai-chat-v1'], { env: ENV }).stdout);
    expect(chat).toEqual([
      { role: 'user', content: 'read notes.txt please' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'toolu_mock_1', type: 'function', function: { name: 'read', arguments: '{"path":"notes.txt"}' } }] },
      { role: 'tool', tool_call_id: 'toolu_mock_1', content: 'hello from notes\n' },
      { role: 'assistant', content: 'read: 3 messages' },
      { role: 'user', content: 'and now?' },
      { role: 'assistant', content: 'answer: and now?' },
    ]);
    // a directory import takes the session files in it
    const again = ctx(join(sb.root, 'other', '.ctx'), ['import', 'pi', piSessionDir(sb)], { env: ENV, cwd: sb.proj });
    expect(again.code).toBe(0);
    expect(rootBytes(join(sb.root, 'other', '.ctx'), branch).equals(readFileSync(file))).toBe(true);
    expect(fsck(store)).toEqual({ code: 0, output: '' });
  }, 180_000);

  it('captures every turn through the extension ctx hooks install writes, byte-exact, and removes it on uninstall', async () => {
    const sb = await piSandbox();
    const store = join(sb.proj, '.ctx');
    const command = `${process.execPath} ${realpathSync(CTX)} hook pi`;
    const ext = join(sb.proj, '.pi', 'extensions', 'ctx.ts');
    const installed = ctx(store, ['hooks', 'install', 'pi'], { cwd: sb.proj, env: ENV });
    expect([installed.code, installed.stdout, installed.stderr]).toEqual([
      0,
      ['turn_end', 'agent_end', 'session_compact', 'session_shutdown'].map((e) => `${e}\t${command}\n`).join(''),
      `installed in ${ext}\ncovers pi sessions started in ${sb.proj}\n`,
    ]);
    expect(readFileSync(ext, 'utf8')).toContain(`const COMMAND = ${JSON.stringify(command)};`);

    const first = await pi(sb, ['read notes.txt please'], ENV);
    expect([first.code, first.stdout]).toEqual([0, 'read: 3 messages\n']);
    const [file] = piSessions(sb);
    const branch = `pi/${piSessionId(file)}`;
    expect(rootBytes(store, branch).equals(readFileSync(file))).toBe(true);
    const second = await pi(sb, ['-c', 'and now?'], ENV);
    expect([second.code, second.stdout]).toEqual([0, 'answer: and now?\n']);
    expect(rootBytes(store, branch).equals(readFileSync(file))).toBe(true);
    const log = logOf(store, branch);
    // a checkpoint after each model call and its tools (turn_end), the prompt's end (agent_end) adding nothing more
    expect(log.map((c) => [c.type, c.summary])).toEqual([
      ['delta', 'and now?'],
      ['delta', 'continued: read: 3 messages'],
      ['delta', 'read notes.txt please'],
    ]);
    expect(existsSync(join(store, 'ctx', 'hook.log'))).toBe(false);

    const status = ctx(store, ['hooks', 'status', 'pi'], { cwd: sb.proj, env: ENV });
    expect(status.stdout).toBe(installed.stdout);
    const removed = ctx(store, ['hooks', 'uninstall', 'pi'], { cwd: sb.proj, env: ENV });
    expect([removed.code, removed.stdout, removed.stderr]).toEqual([0, ['turn_end', 'agent_end', 'session_compact', 'session_shutdown'].map((e) => `${e}\t-\n`).join(''), `removed from ${ext}\n`]);
    expect(existsSync(ext)).toBe(false);
  }, 180_000);

  it('captures a compaction as a compaction commit, and an export of it resumes as pi resumes its own session', async () => {
    // a window the first turn already fills: pi compacts after it (keeping its last answer)
    const sb = await piSandbox({ contextWindow: 2000, settings: { compaction: { enabled: true, reserveTokens: 1990, keepRecentTokens: 1 } } });
    const store = join(sb.proj, '.ctx');
    expect(ctx(store, ['hooks', 'install', 'pi'], { cwd: sb.proj, env: ENV }).code).toBe(0);
    const first = await pi(sb, ['read notes.txt please'], ENV);
    expect([first.code, first.stdout]).toEqual([0, 'read: 3 messages\n']);
    const [file] = piSessions(sb);
    const id = piSessionId(file);
    const branch = `pi/${id}`;
    const entries = readFileSync(file, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l));
    expect(entries.map((e) => e.type)).toEqual(['session', 'model_change', 'thinking_level_change', 'message', 'message', 'message', 'message', 'compaction']);
    expect(rootBytes(store, branch).equals(readFileSync(file))).toBe(true);
    expect(logOf(store, branch).map((c) => c.type)).toEqual(['compaction', 'delta', 'delta']);
    // the default materialization starts at the compaction with what pi's resume reads: the header, the entry it kept, the compaction
    const native = ctx(store, ['materialize', branch], { env: ENV }).stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
    expect(native).toEqual([entries[0], entries[6], entries[7]]);
    expect(entries[7].firstKeptEntryId).toBe(entries[6].id);

    const copy = '33333333-4444-4555-8666-777777777777';
    const exported = ctx(store, ['export', 'pi', branch, '--session-id', copy], { env: { ...ENV, HOME: sb.home }, cwd: sb.proj });
    const out = join(piSessionDir(sb), `2026-01-02T03-04-05-678Z_${copy}.jsonl`);
    expect([exported.code, exported.stdout, exported.stderr.replace(/ctx-[0-9a-f]{12}/, 'ctx-…')]).toEqual([0, `pi --session ${copy}\n`, `wrote ${out} (3 lines from ctx-…); run it in ${sb.proj}; its hook capture continues pi/${copy}\n`]);
    expect(readFileSync(out, 'utf8').split('\n')[0]).toBe(JSON.stringify({ type: 'session', version: 3, id: copy, timestamp: '2026-01-02T03:04:05.678Z', cwd: sb.proj }));
    await sameResume(sb, id, copy);
    // the copy's capture goes on from the exported commit
    const tracked = logOf(store, `pi/${copy}`).map((c) => c.type);
    expect(tracked.slice(-3)).toEqual(['compaction', 'delta', 'delta']);
    expect(tracked.length).toBeGreaterThan(3);
    expect(fsck(store)).toEqual({ code: 0, output: '' });
  }, 240_000);

  it('exports a pi chain that pi --session resumes as its own session, never over an existing file', async () => {
    const sb = await piSandbox();
    const store = join(sb.proj, '.ctx');
    expect((await pi(sb, ['read notes.txt please'])).code).toBe(0);
    const [file] = piSessions(sb);
    const id = piSessionId(file);
    expect(ctx(store, ['import', 'pi', file], { env: ENV, cwd: sb.proj }).code).toBe(0);
    const copy = '44444444-5555-4666-8777-888888888888';
    const exported = ctx(store, ['export', 'pi', `pi/${id}`, '--session-id', copy], { env: { ...ENV, HOME: sb.home }, cwd: sb.proj });
    expect([exported.code, exported.stdout]).toEqual([0, `pi --session ${copy}\n`]);
    const out = join(piSessionDir(sb), `2026-01-02T03-04-05-678Z_${copy}.jsonl`);
    // every entry as pi wrote it, under a new header
    expect(readFileSync(out, 'utf8').split('\n').slice(1).join('\n')).toBe(readFileSync(file, 'utf8').split('\n').slice(1).join('\n'));
    const again = ctx(store, ['export', 'pi', `pi/${id}`, '--session-id', copy], { env: { ...ENV, HOME: sb.home }, cwd: sb.proj });
    expect([again.code, again.stdout, again.stderr]).toEqual([1, '', `ctx: ${out} already exists\n`]);
    await sameResume(sb, id, copy);
  }, 240_000);

  it('exports a Codex chain that pi --session resumes with its tool calls and results paired', async () => {
    const sb = await piSandbox();
    const store = join(sb.proj, '.ctx');
    const rollout = join(FIXTURES, 'codex', 'rollout-2025-11-20T09-00-00-0a1b2c3d-4e5f-7a8b-9c0d-1e2f3a4b5c6d.jsonl');
    expect(ctx(store, ['import', 'codex', rollout], { env: ENV, cwd: sb.proj }).code).toBe(0);
    const copy = '55555555-6666-4777-8888-999999999999';
    const exported = ctx(store, ['export', 'pi', 'codex/0a1b2c3d-4e5f-7a8b-9c0d-1e2f3a4b5c6d', '--stop', 'root', '--session-id', copy], { env: { ...ENV, HOME: sb.home }, cwd: sb.proj });
    expect([exported.code, exported.stdout]).toEqual([0, `pi --session ${copy}\n`]);
    const r = await pi(sb, ['--session', copy, 'next']);
    expect([r.code, r.stdout]).toEqual([0, 'answer: next\n']);
    const env = JSON.parse(readFileSync(rollout, 'utf8').split('\n')[1]).payload.content[0].text;
    const text = (role: string, t: string) => ({ role, content: [{ type: 'text', text: t }] });
    const shell = (id: string, command: string[], output: string) => [
      { role: 'assistant', content: [{ type: 'tool_use', id, name: 'shell', input: { command } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: output, is_error: false }] },
    ];
    // Codex's own environment context is not carried into pi (docs/format.md §8.3)
    expect(env).toContain('<environment_context>');
    expect(JSON.stringify(sb.mock.turns()[0])).not.toContain('<environment_context>');
    expect(messagesOf(sb.mock.turns()[0])).toEqual([
      text('user', 'Add a --done flag to todo list.'),
      ...shell('call_a1', ['rg', '-n', 'def list', 'src'], '{"output":"src/cli.py:12:def list(args):\\n","metadata":{"exit_code":0,"duration_seconds":0.1}}'),
      text('assistant', 'Added `--done`: it lists only finished items.'),
      text('user', 'Now write tests for it.'),
      ...shell('call_a2', ['pytest', '-q'], '{"output":"3 passed\\n","metadata":{"exit_code":0,"duration_seconds":1.9}}'),
      text('assistant', 'Tests added in tests/test_list.py; all pass.'),
      text('user', 'Thanks. Which files changed?'),
      text('assistant', 'src/cli.py and tests/test_list.py.'),
      text('user', 'next'),
    ]);
  }, 240_000);
});

/** `pi --session` of the original and of its export, each with the same prompt: the model gets the same messages. */
async function sameResume(sb: PiSandbox, original: string, copy: string): Promise<void> {
  const before = sb.mock.requests.length;
  const own = await pi(sb, ['--session', original, 'once more'], ENV);
  expect([own.code, own.stdout]).toEqual([0, 'answer: once more\n']);
  const mid = sb.mock.requests.length;
  const theirs = await pi(sb, ['--session', copy, 'once more'], ENV);
  expect([theirs.code, theirs.stdout]).toEqual([0, 'answer: once more\n']);
  expect(messagesOf(sb.mock.requests[mid])).toEqual(messagesOf(sb.mock.requests[before]));
  expect(sb.mock.requests[mid].body.system).toEqual(sb.mock.requests[before].body.system);
}
