// The real `copilot` CLI (GitHub Copilot CLI 1.0.102) offline against the mock Messages API: the
// sessions it writes import byte-exact as turn commits, ctx's hook file captures every turn and a
// /compact as a compaction commit, and `ctx export copilot` writes sessions that `copilot --resume`
// sends to the model exactly as it sends its own (a Claude Code chain with its tool calls paired).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { CTX, FIXTURES, ctx, fsck } from './helpers.js';
import { agentMissing, describeAgent } from './agent-clis.js';
import { startMockApi, type MockApi, type RecordedRequest, type Reply } from './mock-anthropic-api.js';
import { copilot, copilotBox, eventsOf, sessionIds, withoutClock, type CopilotBox } from './copilot-cli.js';

const ENV = { CTX_PRINCIPAL: 'alice', CTX_MACHINE: 'box', CTX_NOW: '2026-01-02T03:04:05.678Z' };

const open: MockApi[] = [];
afterEach(async () => {
  while (open.length) await open.pop()!.close();
});

const lastHasResult = (req: RecordedRequest) => JSON.stringify(req.body.messages.at(-1)?.content ?? '').includes('"tool_result"');

/** A turn's first answer runs `cat notes.txt` in bash; the answer after its result is text, numbered. */
async function box(script: (req: RecordedRequest, n: number) => Reply = (req, n) => (lastHasResult(req) ? { text: `answer ${n}` } : { tool: { name: 'bash', input: { command: 'cat notes.txt', description: 'read notes' } } })): Promise<CopilotBox> {
  let n = 0;
  const mock = await startMockApi((req) => script(req, ++n));
  open.push(mock);
  return copilotBox(mock);
}

const types = (bytes: Buffer | string) => bytes.toString().split('\n').filter(Boolean).map((l) => JSON.parse(l).type as string);

describeAgent('copilot with the real copilot CLI', agentMissing('copilot'), () => {
  it('imports the session it wrote as turn commits, byte-exact; after another turn only the new lines', async () => {
    const b = await box();
    const store = join(b.proj, '.ctx');
    const first = await copilot(b, ['-p', 'read notes.txt please']);
    expect([first.code, first.stdout]).toEqual([0, 'answer 2\n\n']);
    const [id] = sessionIds(b);
    const file = eventsOf(b, id);
    const branch = `copilot/${id}`;
    // the model saw the tool call and its result
    expect(withoutClock(b.mock.turns()[1].body.messages)).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'read notes.txt please' }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_mock_1', name: 'bash', input: { command: 'cat notes.txt', description: 'read notes' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_mock_1', content: expect.stringMatching(/^hello from notes\n/) }] },
    ]);

    const imported = ctx(store, ['import', 'copilot', file], { env: ENV, cwd: b.proj });
    expect([imported.code, imported.stdout.replace(/ctx-[0-9a-f]{12}/, 'ctx-…')]).toEqual([0, `${branch}\tctx-…\t1 commits\n`]);
    expect(ctx(store, ['materialize', branch, '--stop', 'root', '--verify'], { env: ENV }).bytes.equals(readFileSync(file))).toBe(true);
    // the neutral reading: the prompt, the call and its result paired, the answer
    const chat = JSON.parse(ctx(store, ['materialize', branch, '--format', 'openai-chat-v1'], { env: ENV }).stdout);
    expect(chat).toEqual([
      { role: 'user', content: 'read notes.txt please' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'toolu_mock_1', type: 'function', function: { name: 'bash', arguments: JSON.stringify({ command: 'cat notes.txt', description: 'read notes' }) } }] },
      { role: 'tool', tool_call_id: 'toolu_mock_1', content: expect.stringMatching(/^hello from notes\n/) },
      { role: 'assistant', content: 'answer 2' },
    ]);

    const second = await copilot(b, ['-p', 'and now?', `--resume=${id}`]);
    expect([second.code, second.stdout]).toEqual([0, 'answer 4\n\n']);
    const again = ctx(store, ['import', 'copilot', join(b.copilotHome, 'session-state')], { env: ENV, cwd: b.proj });
    expect([again.code, again.stdout.replace(/ctx-[0-9a-f]{12}/, 'ctx-…')]).toEqual([0, `${file}\t${branch}\tctx-…\t1 commits\n`]);
    expect(ctx(store, ['materialize', branch, '--stop', 'root', '--verify'], { env: ENV }).bytes.equals(readFileSync(file))).toBe(true);
    const log = ctx(store, ['log', branch, '--json'], { env: ENV }).stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
    expect(log.map((c) => [c.type, c.summary])).toEqual([
      ['delta', 'and now?'],
      ['delta', 'read notes.txt please'],
    ]);
    // a Claude Code transcript is not a Copilot session
    const refused = ctx(store, ['import', 'copilot', join(FIXTURES, 'claude-code', 'compacted-session.jsonl')], { env: ENV, cwd: b.proj });
    expect([refused.code, refused.stderr]).toEqual([2, expect.stringMatching(/^ctx: .*not a Copilot CLI session/)]);
    expect(fsck(store)).toEqual({ code: 0, output: '' });
  }, 240_000);

  it('captures every turn through the hook file ctx hooks install --user writes, byte-exact, and a /compact as a compaction commit; the export resumes as copilot resumes its own session', async () => {
    const b = await box();
    const store = join(b.proj, '.ctx');
    const env = { ...ENV, COPILOT_HOME: b.copilotHome };
    const hooksFile = join(b.copilotHome, 'hooks', 'ctx.json');
    const command = `${process.execPath} ${realpathSync(CTX)} hook copilot`;
    const installed = ctx(store, ['hooks', 'install', 'copilot', '--user'], { env, cwd: b.proj });
    expect([installed.code, installed.stdout, installed.stderr]).toEqual([
      0,
      `agentStop\t${command}\npreCompact\t${command}\nsessionEnd\t${command}\n`,
      `installed in ${hooksFile}\ncovers every copilot session of this user (${hooksFile})\n`,
    ]);
    const entry = [{ type: 'command', bash: command, timeoutSec: 30 }];
    expect(readFileSync(hooksFile, 'utf8')).toBe(`${JSON.stringify({ version: 1, hooks: { agentStop: entry, preCompact: entry, sessionEnd: entry } }, null, 2)}\n`);

    // after each run: the chain is the file up to the sessionEnd hook's start; Copilot writes two lines after it
    // (Copilot does not wait for its sessionEnd hook before it exits: on a loaded machine ctx may still be capturing)
    const capturedUpToSessionEnd = async (file: string, branch: string) => {
      const read = () => ctx(store, ['materialize', branch, '--stop', 'root', '--verify'], { env }).bytes;
      const lastHook = (bytes: Buffer) => JSON.parse(bytes.toString().trimEnd().split('\n').at(-1)!).data?.hookType;
      let chain = read();
      for (let waited = 0; lastHook(chain) !== 'sessionEnd' && waited < 120_000; waited += 1000) {
        await new Promise((r) => setTimeout(r, 1000));
        chain = read();
      }
      const whole = readFileSync(file);
      expect(whole.subarray(0, chain.length).equals(chain)).toBe(true);
      expect(types(chain).slice(-1)).toEqual(['hook.start']);
      expect(JSON.parse(chain.toString().trimEnd().split('\n').at(-1)!).data.hookType).toBe('sessionEnd');
      expect(types(whole.subarray(chain.length))).toEqual(['hook.end', 'session.shutdown']);
    };
    const first = await copilot(b, ['-p', 'read notes.txt please'], ENV);
    expect(first.code).toBe(0);
    const [id] = sessionIds(b);
    const file = eventsOf(b, id);
    const branch = `copilot/${id}`;
    expect(existsSync(join(store, 'ctx', 'hook.log'))).toBe(false);
    await capturedUpToSessionEnd(file, branch);

    const second = await copilot(b, ['-p', 'and now?', `--resume=${id}`], ENV);
    expect(second.code).toBe(0);
    expect(existsSync(join(store, 'ctx', 'hook.log'))).toBe(false);
    await capturedUpToSessionEnd(file, branch);

    // /compact under -p: the preCompact hook captures what came before; the next turn, the compaction
    const compacted = await copilot(b, ['-p', '/compact', `--resume=${id}`], ENV);
    expect(compacted.code).toBe(0);
    const third = await copilot(b, ['-p', 'third', `--resume=${id}`], ENV);
    expect(third.code).toBe(0);
    expect(existsSync(join(store, 'ctx', 'hook.log'))).toBe(false);
    await capturedUpToSessionEnd(file, branch);
    const log = ctx(store, ['log', branch, '--json'], { env }).stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
    expect(log.filter((c) => c.type === 'compaction')).toHaveLength(1);
    expect(log.find((c) => c.summary === 'third')).toBeDefined();
    // from the compaction on: the prompts before it and its summary, then the turn after it
    const chat = JSON.parse(ctx(store, ['materialize', branch, '--format', 'openai-chat-v1'], { env }).stdout);
    expect(chat[0]).toEqual({ role: 'user', content: expect.stringMatching(/^Some of the conversation history has been summarized to free up context\.\n\nHere is a summary of the prior context:\n<summary>\n/) });
    expect(chat.slice(-4).map((m: { role: string; content: string | null }) => [m.role, m.role === 'user' ? m.content : null])).toEqual([
      ['user', 'third'],
      ['assistant', null],
      ['tool', null],
      ['assistant', null],
    ]);

    // the export of the tip, resumed, sends what copilot's own resume of the session sends
    const exportId = '11111111-2222-4333-8444-555555555555';
    const ex = ctx(store, ['export', 'copilot', branch, '--session-id', exportId], { env, cwd: b.proj });
    const exported = eventsOf(b, exportId);
    expect([ex.code, ex.stdout, ex.stderr]).toEqual([0, `copilot --resume=${exportId}\n`, expect.stringMatching(new RegExp(`^wrote ${exported} \\(\\d+ lines from ctx-[0-9a-f]{12}\\); run it in ${b.proj}; its hook capture continues copilot/${exportId}\\n$`))]);
    const base = ctx(store, ['materialize', branch, '--stop', 'root'], { env }).bytes;
    const written = readFileSync(exported);
    const before = b.mock.requests.length;
    expect((await copilot(b, ['-p', 'fourth', `--resume=${id}`], ENV)).code).toBe(0);
    const own = b.mock.requests[before].body.messages;
    const mid = b.mock.requests.length;
    expect((await copilot(b, ['-p', 'fourth', `--resume=${exportId}`], ENV)).code).toBe(0);
    expect(withoutClock(b.mock.requests[mid].body.messages)).toEqual(withoutClock(own));
    // and the same system prompt and tools, but for the session's own folder and the checkpoint file
    // Copilot wrote there at its compaction (not in events.jsonl: an export has none to list)
    const rest = (r: { body: Record<string, unknown> }, sid: string) =>
      JSON.stringify({ system: r.body.system, tools: r.body.tools })
        .replaceAll(sid, '<session>')
        .replace(/- checkpoints\/: 1 prior checkpoints \(index\.md has full list\)\\n/, '')
        .replace(/\\n\\nCheckpoints \(read those relevant to your current task\):\\n {2}001-session-[0-9a-f]{8}\.md - Session [0-9a-f]{8}\\n\\nCheckpoint titles indicate what was accomplished\. Read relevant checkpoints for prior history, technical decisions, and file changes\./, '');
    expect(rest(b.mock.requests[before], id)).not.toBe(JSON.stringify({ system: b.mock.requests[before].body.system, tools: b.mock.requests[before].body.tools }).replaceAll(id, '<session>'));
    expect(rest(b.mock.requests[mid], exportId)).toBe(rest(b.mock.requests[before], id));
    expect(JSON.stringify(withoutClock(own))).toContain('third');
    // the resumed export's turn is captured on its own branch, forked from the exported commit
    expect(existsSync(join(store, 'ctx', 'hook.log'))).toBe(false);
    const resumedChain = ctx(store, ['materialize', `copilot/${exportId}`, '--stop', 'root', '--verify'], { env }).bytes;
    const whole = readFileSync(exported);
    expect(resumedChain.subarray(0, base.length).equals(base)).toBe(true);
    expect(whole.subarray(0, written.length).equals(written)).toBe(true);
    const fresh = resumedChain.subarray(base.length);
    expect(whole.subarray(written.length, written.length + fresh.length).equals(fresh)).toBe(true);
    expect(types(whole.subarray(written.length + fresh.length))).toEqual(['hook.end', 'session.shutdown']);
    expect(ctx(store, ['log', `copilot/${exportId}`, '--json'], { env }).stdout).toContain(`"summary":"fourth"`);

    const removed = ctx(store, ['hooks', 'uninstall', 'copilot', '--user'], { env, cwd: b.proj });
    expect([removed.code, existsSync(hooksFile)]).toEqual([0, false]);
    expect(fsck(store)).toEqual({ code: 0, output: '' });
  }, 480_000);

  it('exports a Claude Code chain that copilot --resume sends with its tool calls and results paired', async () => {
    const b = await box(() => ({ text: 'resumed' }));
    const store = join(b.proj, '.ctx');
    expect(ctx(store, ['import', 'claude-code', join(FIXTURES, 'claude-code', 'compacted-session.jsonl')], { env: ENV }).code).toBe(0);
    const id = '11111111-2222-4333-8444-555555555555';
    const ex = ctx(store, ['export', 'copilot', 'claude/3f6c2a9e-8b1d-4e57-a0c4-5d2e9b7f1a83~3', '--session-id', id], { env: { ...ENV, COPILOT_HOME: b.copilotHome }, cwd: b.proj });
    expect([ex.code, ex.stdout]).toEqual([0, `copilot --resume=${id}\n`]);
    const resumed = await copilot(b, ['-p', 'and now?', `--resume=${id}`]);
    expect([resumed.code, resumed.stdout]).toEqual([0, 'resumed\n\n']);
    const messages = withoutClock(b.mock.turns()[0].body.messages) as { role: string; content: { type: string; id?: string; tool_use_id?: string; name?: string }[] }[];
    expect(messages.map((m) => [m.role, m.content.map((c) => c.type).join(',')])).toEqual([
      ['user', 'text'],
      ['assistant', 'tool_use'],
      ['user', 'tool_result'],
      ['assistant', 'text'],
      ['user', 'text'],
      ['assistant', 'tool_use'],
      ['user', 'tool_result'],
      ['user', 'text'],
    ]);
    expect(messages[1].content[0]).toMatchObject({ name: 'Read', id: 'toolu_01Lk4mN8pQ2rS6tV0wX3yZ5a' });
    expect(messages[2].content[0]).toMatchObject({ tool_use_id: 'toolu_01Lk4mN8pQ2rS6tV0wX3yZ5a' });
    expect(messages[5].content[0]).toMatchObject({ name: 'Edit', id: 'toolu_01Qa9sW3eD7rF1tG5yH8uJ2i' });
    expect(messages[6].content[0]).toMatchObject({ tool_use_id: 'toolu_01Qa9sW3eD7rF1tG5yH8uJ2i' });
    expect(messages.at(-1)).toEqual({ role: 'user', content: [{ type: 'text', text: 'and now?' }] });
  }, 240_000);

  it('captures through the project\'s .github/hooks/ctx.json once Copilot trusts the folder, run from a subdirectory', async () => {
    const b = await box();
    // a real repository: Copilot finds .github/hooks at the git top level through git
    expect(spawnSync('git', ['init', '-q', b.proj]).status).toBe(0);
    mkdirSync(join(b.proj, 'src'));
    // the store at the top: the hook finds it walking up from the session's directory
    const store = join(b.proj, '.ctx');
    expect(ctx(store, ['init', store]).code).toBe(0);
    const installed = ctx(store, ['hooks', 'install', 'copilot'], { env: { ...ENV, COPILOT_HOME: b.copilotHome }, cwd: join(b.proj, 'src') });
    expect([installed.code, installed.stderr.split('\n')[0]]).toEqual([0, `installed in ${join(b.proj, '.github', 'hooks', 'ctx.json')}`]);
    // an untrusted folder's hooks do not run
    const untrusted = await copilot({ ...b, proj: join(b.proj, 'src') }, ['-p', 'read notes.txt please'], ENV);
    expect(untrusted.code).toBe(0);
    expect(ctx(store, ['branch'], { env: ENV }).stdout).toBe('');
    // COPILOT_ALLOW_ALL=true trusts it
    const trusted = await copilot({ ...b, proj: join(b.proj, 'src') }, ['-p', 'read notes.txt please'], { ...ENV, COPILOT_ALLOW_ALL: 'true' });
    expect(trusted.code).toBe(0);
    const id = sessionIds(b).find((s) => ctx(store, ['log', `copilot/${s}`], { env: ENV }).code === 0)!;
    expect([id, existsSync(join(store, 'ctx', 'hook.log'))]).toEqual([expect.any(String), false]);
    const chain = ctx(store, ['materialize', `copilot/${id}`, '--stop', 'root', '--verify'], { env: ENV }).bytes;
    const whole = readFileSync(eventsOf(b, id));
    expect(whole.subarray(0, chain.length).equals(chain)).toBe(true);
    expect(types(whole.subarray(chain.length))).toEqual(['hook.end', 'session.shutdown']);
  }, 240_000);
});
