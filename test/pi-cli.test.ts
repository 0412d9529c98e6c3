// The real `pi` CLI against the mock Messages API (test/pi-cli.ts): the sessions it writes import
// byte-exact, the extension `ctx hooks install pi` writes captures every turn, a compaction becomes
// a compaction commit, and `ctx export pi` writes sessions that `pi --session` resumes as its own.
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { CTX, ctx, fsck } from './helpers.js';
import { agentMissing, describeAgent } from './agent-clis.js';
import { messagesOf, pi, piSandbox, piSessionDir, piSessionId, piSessions } from './pi-cli.js';

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
});
