// The real `copilot` CLI (GitHub Copilot CLI 1.0.102) offline against the mock Messages API: the
// sessions it writes import byte-exact as turn commits, ctx's hook file captures every turn and a
// /compact as a compaction commit, and `ctx export copilot` writes sessions that `copilot --resume`
// sends to the model exactly as it sends its own (a Claude Code chain with its tool calls paired).
import { existsSync, readFileSync, realpathSync } from 'node:fs';
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
});
