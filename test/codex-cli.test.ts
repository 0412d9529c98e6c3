// The real Codex CLI (0.171, `codex exec`) against a mock Responses API: its rollouts import byte for
// byte and again incrementally, `ctx hooks install codex` captures every turn through its trusted
// hooks.json hooks (a compaction through PreCompact/PostCompact) and through `notify`, and
// `ctx export codex` writes threads that `codex exec resume` continues with exactly that conversation.
import { existsSync, readFileSync, readdirSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeAgent } from './agent-clis.js';
import { CODEX_MISSING, codexSandbox, eventually, readJsonLines } from './codex-cli.js';
import { FIXTURES, ROOT, ctx, git, newStore } from './helpers.js';
import { assistantText, isCompactionRequest, startMockOpenAI, toolThenText, type MockOpenAI } from './mock-openai-api.js';

const ENV = { CTX_PRINCIPAL: 'alice', CTX_MACHINE: 'box', CTX_NOW: '2026-01-02T03:04:05.678Z' };

function rollouts(codexHome: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => readdirSync(d, { withFileTypes: true }).forEach((e) => (e.isDirectory() ? walk(join(d, e.name)) : out.push(join(d, e.name))));
  walk(join(codexHome, 'sessions'));
  return out.sort();
}

describeAgent('the codex CLI', CODEX_MISSING, () => {
  let mock: MockOpenAI;
  beforeAll(async () => {
    mock = await startMockOpenAI(toolThenText((n) => `call_${n}`, { cmd: 'echo hi' }, (n) => `done ${n}`));
  });
  afterAll(() => mock.close());

  /** What the model API sees of an item: Codex sends items without its own bookkeeping fields. */
  const seen = (item: Record<string, unknown>) => Object.fromEntries(['type', 'role', 'content', 'name', 'arguments', 'call_id', 'output'].filter((k) => k in item).map((k) => [k, item[k]]));
  const responseItems = (lines: Record<string, any>[]) => lines.filter((l) => l.type === 'response_item').map((l) => seen(l.payload));
  const prompt = (text: string) => ({ type: 'message', role: 'user', content: [{ type: 'input_text', text }] });

  it('imports its rollout byte for byte, again after a resumed turn only the new lines, and exports it for codex exec resume', async () => {
    const box = codexSandbox(mock);
    const start = mock.requests.length;
    const first = await box.run(['say hi']);
    expect([first.code, first.thread]).toEqual([0, expect.stringMatching(/^[0-9a-f-]{36}$/)]);
    const [file] = rollouts(box.codexHome);
    const turn1 = readFileSync(file);
    const store = newStore();
    const branch = `codex/${first.thread}`;
    const imported = ctx(store, ['import', 'codex', file], { env: ENV });
    expect([imported.code, imported.stderr]).toEqual([0, '']);
    expect(imported.stdout).toMatch(new RegExp(`^${branch}\tctx-[0-9a-f]{12}\t1 commits\n$`));
    const root = () => ctx(store, ['materialize', branch, '--stop', 'root', '--verify'], { env: ENV }).bytes;
    expect(root().equals(turn1)).toBe(true);

    // a second turn of the same thread: Codex appends, starting with the resumed thread's settings
    expect((await box.run(['resume', first.thread!, 'second prompt'])).code).toBe(0);
    const whole = readFileSync(file);
    expect(whole.subarray(0, turn1.length).equals(turn1)).toBe(true);
    const types = new Set(readJsonLines(file).map((l) => (l.type === 'event_msg' ? l.payload.type : l.type)));
    for (const t of ['world_state', 'token_usage_record', 'thread_settings_applied', 'item_completed']) expect(types).toContain(t);
    expect(readJsonLines(file).map((l) => l.ordinal)).toEqual([...readJsonLines(file).keys()]);
    const firstTip = JSON.parse(ctx(store, ['log', branch, '--json'], { env: ENV }).stdout).id;
    const again = ctx(store, ['import', 'codex', file], { env: ENV });
    expect([again.code, again.stderr]).toEqual([0, '']);
    expect(again.stdout).toMatch(new RegExp(`^${branch}\tctx-[0-9a-f]{12}\t1 commits\n$`));
    expect(root().equals(whole)).toBe(true);
    const log = ctx(store, ['log', branch, '--json'], { env: ENV }).stdout.trimEnd().split('\n');
    expect(JSON.parse(log[1]).id).toBe(firstTip);
    expect(JSON.parse(log[0]).summary).toBe('second prompt');
    const same = ctx(store, ['import', 'codex', file], { env: ENV });
    expect([same.code, same.stdout]).toEqual([0, expect.stringMatching(/\t0 commits\n$/)]);
    // the whole file imported at once gives the same commits: the settings line went with the turn it opens
    const fresh = ctx(store, ['import', 'codex', file, '-b', 'fresh'], { env: ENV });
    expect(fresh.code).toBe(0);
    expect(ctx(store, ['log', 'fresh', '--json'], { env: ENV }).stdout.trimEnd().split('\n').map((l) => JSON.parse(l).id)).toEqual(log.map((l) => JSON.parse(l).id));

    // export → a new thread where codex looks → resumed: the model gets exactly that conversation, then the new prompt
    const ex = ctx(store, ['export', 'codex', branch], { env: { ...ENV, CODEX_HOME: box.codexHome } });
    expect(ex.code).toBe(0);
    const id = /^codex resume ([0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12})\n$/.exec(ex.stdout)![1];
    const exported = rollouts(box.codexHome).find((f) => f.endsWith(`-${id}.jsonl`))!;
    expect(exported).toBe(join(box.codexHome, 'sessions', '2026', '01', '02', `rollout-2026-01-02T03-04-05-${id}.jsonl`));
    const lines = readJsonLines(exported);
    expect(lines[0].payload).toMatchObject({ id, model_provider: 'mock' });
    expect(lines.map((l) => ({ ...l, payload: { ...l.payload, id: undefined, session_id: undefined, thread_id: undefined } }))).toEqual(
      readJsonLines(file).map((l) => ({ ...l, payload: { ...l.payload, id: undefined, session_id: undefined, thread_id: undefined } })),
    );
    const before = mock.requests.length;
    const resumed = await box.run(['resume', id, 'third prompt']);
    expect([resumed.code, resumed.thread]).toEqual([0, id]);
    // the thread's system prompt (from session_meta.base_instructions) goes first, as Codex sent it in the original thread
    const system = seen((mock.requests[start].body.input as Record<string, unknown>[])[0]);
    expect(system).toMatchObject({ role: 'developer', content: [{ text: expect.stringMatching(/^You are a coding agent running in the Codex CLI/) }] });
    expect((mock.requests[before].body.input as Record<string, unknown>[]).map(seen)).toEqual([system, ...responseItems(lines), prompt('third prompt')]);
  }, 120_000);

  it('exports a Claude Code chain as a thread whose tool calls codex resumes as function calls', async () => {
    const box = codexSandbox(mock);
    const store = newStore();
    expect(ctx(store, ['import', 'claude-code', join(FIXTURES, 'claude-code', 'compacted-session.jsonl')], { env: ENV }).code).toBe(0);
    const ex = ctx(store, ['export', 'codex', 'claude/3f6c2a9e-8b1d-4e57-a0c4-5d2e9b7f1a83~3'], { env: { ...ENV, CODEX_HOME: box.codexHome }, cwd: box.cwd });
    expect([ex.code, ex.stderr]).toEqual([0, expect.stringMatching(new RegExp(`^wrote ${box.codexHome}/sessions/2026/01/02/rollout-2026-01-02T03-04-05-[0-9a-f-]{36}\\.jsonl \\(10 lines from ctx-[0-9a-f]{12}\\); run it in ${box.cwd}\\n$`))]);
    const id = /^codex resume (\S+)\n$/.exec(ex.stdout)![1];
    const lines = readJsonLines(rollouts(box.codexHome).find((f) => f.endsWith(`-${id}.jsonl`))!);
    expect(lines[0].payload).toMatchObject({ id, model_provider: 'mock', cwd: box.cwd });
    const items = responseItems(lines);
    expect(items.map((i) => [i.type, i.role ?? i.name])).toEqual([
      ['message', 'user'],
      ['function_call', 'Read'],
      ['function_call_output', undefined],
      ['message', 'assistant'],
      ['message', 'user'],
      ['function_call', 'Edit'],
      ['function_call_output', undefined],
    ]);
    const before = mock.requests.length;
    const resumed = await box.run(['resume', id, 'and now?']);
    expect([resumed.code, resumed.thread]).toEqual([0, id]);
    const input = (mock.requests[before].body.input as Record<string, unknown>[]).map(seen);
    // Codex opens a turn in a thread without its context with its own instructions and environment
    const at = input.findIndex((i) => JSON.stringify(i) === JSON.stringify(items[0]));
    expect(input.slice(at)).toEqual([...items, ...input.slice(at + items.length, -1), prompt('and now?')]);
    expect(input.slice(at + items.length, -1).every((i) => i.type === 'message' && i.role !== 'assistant')).toBe(true);
  }, 120_000);

  it('captures every turn through hooks.json once ctx hooks install codex --user wrote and trusted it (notify taken out); an untrusted hook runs nothing; uninstall gives config.toml back', async () => {
    const box = codexSandbox(mock);
    const config = join(box.codexHome, 'config.toml');
    const hooksJson = join(box.codexHome, 'hooks.json');
    const original = readFileSync(config, 'utf8');
    const env = { ...ENV, CODEX_HOME: box.codexHome };
    const store = join(box.cwd, '.ctx');
    const command = [process.execPath, join(ROOT, 'bin', 'ctx'), 'hook', 'codex'].join(' ');
    const installed = ctx(store, ['hooks', 'install', 'codex', '--user'], { env });
    expect([installed.code, installed.stdout]).toEqual([0, ['Stop', 'PreCompact', 'PostCompact', 'SessionEnd', 'notify'].map((e) => `${e}\t${command}\n`).join('')]);
    expect(installed.stderr.split('\n')[0]).toBe(`installed in ${hooksJson}`);
    // only hooks.json can capture now
    writeFileSync(config, readFileSync(config, 'utf8').replace(/^notify = .*\n/m, ''));
    const trusted = readFileSync(config, 'utf8');
    const stop = `[hooks.state.${JSON.stringify(`${hooksJson}:stop:0:0`)}]\ntrusted_hash = "`;
    expect(trusted).toContain(stop);

    const first = await box.run(['say hi']);
    expect(first.code).toBe(0);
    const [file] = rollouts(box.codexHome);
    const branch = `codex/${first.thread}`;
    const chain = () => ctx(store, ['materialize', branch, '--stop', 'root'], { env }).bytes;
    // Codex waits for its Stop hook: the turn is captured when codex exits, all but the task_complete event it writes after the hook
    const uptoStop = () => {
      const lines = readFileSync(file, 'utf8').split(/(?<=\n)/);
      expect(JSON.parse(lines.at(-1)!).payload.type).toBe('task_complete');
      return Buffer.from(lines.slice(0, -1).join(''));
    };
    expect(chain().equals(uptoStop())).toBe(true);
    const tip = () => ctx(store, ['log', branch, '--json'], { env }).stdout.split('\n')[0];
    const afterFirst = tip();

    // a hash Codex does not compute for the hook: it skips it, silently
    writeFileSync(config, trusted.replace(new RegExp(`(${stop.replace(/[[\].*+?^${}()|\\]/g, '\\$&')})sha256:[0-9a-f]{64}`), '$1sha256:' + '0'.repeat(64)));
    expect((await box.run(['resume', first.thread!, 'second prompt'])).code).toBe(0);
    expect(tip()).toBe(afterFirst);
    writeFileSync(config, trusted);
    expect((await box.run(['resume', first.thread!, 'third prompt'])).code).toBe(0);
    expect(chain().equals(uptoStop())).toBe(true);
    const log = ctx(store, ['log', branch, '--json'], { env }).stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
    expect(log.map((r) => [r.summary, r.type])).toEqual([['third prompt', 'delta'], ['second prompt', 'delta'], ['say hi', 'delta']]);
    // the hook's commits are the ones an import of the whole rollout writes
    expect(ctx(store, ['import', 'codex', file, '-b', 'imported'], { env }).code).toBe(0);
    const imported = ctx(store, ['log', 'imported', '--json'], { env }).stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
    expect(imported.map((r) => [r.message_count, r.token_count, r.summary])).toEqual(log.map((r) => [r.message_count, r.token_count, r.summary]));
    expect(existsSync(join(store, 'ctx', 'hook.log'))).toBe(false);

    const removed = ctx(store, ['hooks', 'uninstall', 'codex', '--user'], { env });
    expect([removed.code, removed.stdout]).toEqual([0, ['Stop', 'PreCompact', 'PostCompact', 'SessionEnd', 'notify'].map((e) => `${e}\t-\n`).join('')]);
    expect(readFileSync(config, 'utf8')).toBe(original);
    expect(existsSync(hooksJson)).toBe(false);
  }, 120_000);

  it('captures every turn through notify alone (a Codex without hooks.json: the file taken out), byte for byte; with hooks.json and notify both there, no capture fails and the chain ends as the whole rollout', async () => {
    const box = codexSandbox(mock);
    const config = join(box.codexHome, 'config.toml');
    const original = readFileSync(config, 'utf8');
    const env = { ...ENV, CODEX_HOME: box.codexHome };
    const store = join(box.cwd, '.ctx');
    expect(ctx(store, ['hooks', 'status', 'codex', '--user'], { env })).toMatchObject({ code: 0, stdout: expect.stringMatching(/\nnotify\t-\n$/) });
    expect(ctx(store, ['hooks', 'install', 'codex', '--user'], { env }).code).toBe(0);
    const notify = [process.execPath, join(ROOT, 'bin', 'ctx'), 'hook', 'codex'];
    // a top-level key, before the first table
    const table = original.indexOf('\n[') + 1;
    expect(readFileSync(config, 'utf8').startsWith(`${original.slice(0, table)}notify = ${JSON.stringify(notify)}\n${original.slice(table)}`)).toBe(true);
    unlinkSync(join(box.codexHome, 'hooks.json'));

    const first = await box.run(['say hi']);
    expect(first.code).toBe(0);
    const [file] = rollouts(box.codexHome);
    const branch = `codex/${first.thread}`;
    const chain = () => ctx(store, ['materialize', branch, '--stop', 'root'], { env }).bytes;
    // Codex runs notify without waiting for it: the capture lands shortly after the turn
    await eventually(() => existsSync(store) && chain().equals(readFileSync(file)));
    expect(ctx(store, ['log', branch, '--json'], { env }).stdout.trimEnd().split('\n').map((l) => JSON.parse(l).summary)).toEqual(['say hi']);

    // both: the Stop hook captures the turn, notify what Codex wrote after it; no capture fails
    expect(ctx(store, ['hooks', 'install', 'codex', '--user'], { env }).code).toBe(0);
    expect((await box.run(['resume', first.thread!, 'second prompt'])).code).toBe(0);
    await eventually(() => chain().equals(readFileSync(file)));
    const log = () => ctx(store, ['log', branch, '--json'], { env }).stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
    expect(log().map((r) => r.summary).slice(-2)).toEqual(['second prompt', 'say hi']);
    expect(existsSync(join(store, 'ctx', 'hook.log'))).toBe(false);

    expect(ctx(store, ['hooks', 'uninstall', 'codex', '--user'], { env }).code).toBe(0);
    expect(readFileSync(config, 'utf8')).toBe(original);
  }, 120_000);

  it('captures an auto-compaction through the PreCompact and PostCompact hooks: the turn before it, then the compaction; the chain is the rollout byte for byte up to its Stop', async () => {
    const compacting = await startMockOpenAI(
      (body, n) => (isCompactionRequest(body) ? [assistantText('SUMMARY of the work')] : toolThenText((k) => `call_${k}`, { cmd: 'echo hi' }, (k) => `done ${k}`)(body, n)),
      { inputTokens: (n) => (n === 0 ? 50_000 : 10) },
    );
    try {
      const box = codexSandbox(compacting, {}, 'model_context_window = 60000\nmodel_auto_compact_token_limit = 20000\n');
      const config = join(box.codexHome, 'config.toml');
      const env = { ...ENV, CODEX_HOME: box.codexHome };
      const store = join(box.cwd, '.ctx');
      expect(ctx(store, ['hooks', 'install', 'codex', '--user'], { env }).code).toBe(0);
      writeFileSync(config, readFileSync(config, 'utf8').replace(/^notify = .*\n/m, ''));
      const run = await box.run(['say hi']);
      expect(run.code).toBe(0);
      expect(run.stderr).toMatch(/hook: PreCompact Completed[\s\S]*hook: PostCompact Completed[\s\S]*hook: Stop Completed/);
      const [file] = rollouts(box.codexHome);
      const branch = `codex/${run.thread}`;
      // all but the task_complete event Codex writes after its Stop hook
      const lines = readFileSync(file, 'utf8').split(/(?<=\n)/);
      expect(JSON.parse(lines.at(-1)!).payload.type).toBe('task_complete');
      expect(ctx(store, ['materialize', branch, '--stop', 'root'], { env }).stdout).toBe(lines.slice(0, -1).join(''));
      const log = ctx(store, ['log', branch, '--json'], { env }).stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
      // PreCompact captured the turn before the compacted line was written
      expect([log.at(-1).type, log.at(-1).summary]).toEqual(['delta', 'say hi']);
      expect(git(store, ['cat-file', 'blob', `${log.at(-1).id.slice(4)}:delta.jsonl`])).not.toContain('"type":"compacted"');
      expect(log.filter((r) => r.type === 'compaction').map((r) => r.summary)).toEqual(['compacted: SUMMARY of the work']);
      expect(existsSync(join(store, 'ctx', 'hook.log'))).toBe(false);
    } finally {
      await compacting.close();
    }
  }, 120_000);

  it('turns an auto-compaction of codex exec into a compaction commit, and exports the compacted thread for resume', async () => {
    const compacting = await startMockOpenAI(
      (body, n) => (isCompactionRequest(body) ? [assistantText('SUMMARY of the work')] : toolThenText((k) => `call_${k}`, { cmd: 'echo hi' }, (k) => `done ${k}`)(body, n)),
      // the first response says the context is nearly full: Codex compacts before its next request
      { inputTokens: (n) => (n === 0 ? 50_000 : 10) },
    );
    try {
      const box = codexSandbox(compacting, {}, 'model_context_window = 60000\nmodel_auto_compact_token_limit = 20000\n');
      const run = await box.run(['say hi']);
      expect(run.code).toBe(0);
      const [file] = rollouts(box.codexHome);
      const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean);
      const at = lines.findIndex((l) => JSON.parse(l).type === 'compacted');
      expect(at).toBeGreaterThan(0);
      const store = newStore();
      const branch = `codex/${run.thread}`;
      expect(ctx(store, ['import', 'codex', file], { env: ENV }).code).toBe(0);
      const log = ctx(store, ['log', branch, '--json'], { env: ENV }).stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
      // the compaction says what it kept, the turn after it what the agent did
      expect(log.map((r) => [r.type, r.summary])).toEqual([['delta', 'continued: done 3'], ['compaction', 'compacted: SUMMARY of the work'], ['delta', 'say hi']]);
      expect(ctx(store, ['materialize', branch, '--stop', 'root'], { env: ENV }).bytes.equals(readFileSync(file))).toBe(true);
      // the default materialization starts at the compacted line
      expect(ctx(store, ['materialize', branch], { env: ENV }).stdout).toBe(lines.slice(at).join('\n') + '\n');

      // exported from the compaction on: the root's session_meta, then the compacted thread
      const ex = ctx(store, ['export', 'codex', branch], { env: { ...ENV, CODEX_HOME: box.codexHome } });
      expect(ex.code).toBe(0);
      const id = /^codex resume (\S+)\n$/.exec(ex.stdout)![1];
      const exported = readJsonLines(rollouts(box.codexHome).find((f) => f.endsWith(`-${id}.jsonl`))!);
      expect(exported.map((l) => l.type).slice(0, 2)).toEqual(['session_meta', 'compacted']);
      expect(exported).toHaveLength(lines.length - at + 1);
      const last = compacting.requests.at(-1)!.body.input as Record<string, unknown>[];
      const answer = readJsonLines(file).filter((l) => l.type === 'response_item').at(-1)!.payload;
      const before = compacting.requests.length;
      expect((await box.run(['resume', id, 'next'])).code).toBe(0);
      expect((compacting.requests[before].body.input as Record<string, unknown>[]).map(seen)).toEqual([...last.map(seen), seen(answer), prompt('next')]);
    } finally {
      await compacting.close();
    }
  }, 120_000);
});
