// GitHub Copilot CLI as a runtime, without its CLI: a session's events.jsonl (fixtures/copilot, from a
// real copilot 1.0.102 run, its long system prompt and usage lines shortened) imports byte-exact as
// turn and compaction commits, reads as neutral messages, captures through `ctx hook copilot` as the
// import splits it, exports for `copilot --resume`; the hook file, the recognizer and tool effects.
import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CTX, FIXTURES, ctx, fsck, git, newStore, tempDir } from './helpers.js';
import { copilotEvents } from '../src/formats/copilot-events.js';
import { tools } from '../src/runtimes/copilot/tools.js';
import { shellSession } from '../src/runtimes/copilot/shell-session.js';
import type { NeutralMessage } from '../src/core/neutral.js';

const ENV = { CTX_PRINCIPAL: 'alice', CTX_MACHINE: 'box', CTX_NOW: '2026-01-02T03:04:05.678Z' };
const FIXTURE = join(FIXTURES, 'copilot', 'events.jsonl');
const SESSION = 'c43f2d03-c92b-4cd0-88e1-4992a3e56d3e';
const BRANCH = `copilot/${SESSION}`;
const bytes = readFileSync(FIXTURE);
const lines = bytes.toString().split('\n').filter(Boolean);
const types = (b: Buffer | string) => b.toString().split('\n').filter(Boolean).map((l) => JSON.parse(l).type as string);

/** The fixture up to and with its `n`th line. */
const upTo = (n: number) => Buffer.from(lines.slice(0, n).map((l) => `${l}\n`).join(''));
/** The line numbers (1-based) of the hook.start lines of `hook`. */
const hookStarts = (hook: string) => lines.flatMap((l, i) => (JSON.parse(l).type === 'hook.start' && JSON.parse(l).data.hookType === hook ? [i + 1] : []));

const logOf = (store: string, branch = BRANCH) => ctx(store, ['log', branch, '--json'], { env: ENV }).stdout.trimEnd().split('\n').map((l) => JSON.parse(l));

describe('copilot: import of an events.jsonl', { timeout: 240_000 }, () => {
  it('imports byte-exact: a commit per turn, the hooks after it apart, the compaction a compaction commit', () => {
    const store = newStore();
    const r = ctx(store, ['import', 'copilot', FIXTURE], { env: ENV });
    expect([r.code, r.stdout.replace(/ctx-[0-9a-f]{12}/, 'ctx-…')]).toEqual([0, `${BRANCH}\tctx-…\t10 commits\n`]);
    expect(ctx(store, ['materialize', BRANCH, '--stop', 'root', '--verify'], { env: ENV }).bytes.equals(bytes)).toBe(true);
    // the sessionEnd and preCompact hooks' lines, and what follows them up to the next prompt, apart
    expect(logOf(store).map((c) => [c.type, c.summary]).reverse()).toEqual([
      ['delta', 'make a file'],
      ['delta', ''],
      ['delta', 'second'],
      ['delta', ''],
      ['delta', ''],
      ['delta', ''],
      ['compaction', 'compacted: Done: answer 1'],
      ['delta', 'after compaction'],
      ['delta', ''],
      ['delta', ''],
    ]);
    // the same file again: nothing new; a directory holding it: the same branch
    expect(ctx(store, ['import', 'copilot', FIXTURE], { env: ENV }).code).toBe(0);
    expect(logOf(store)).toHaveLength(10);
    expect(fsck(store)).toEqual({ code: 0, output: '' });
  });

  it('reads as neutral messages: prompts, calls paired with their results, answers; from the compaction on, its summary', () => {
    const store = newStore();
    expect(ctx(store, ['import', 'copilot', join(FIXTURES, 'copilot')], { env: ENV }).code).toBe(0);
    // before the compaction: the first two turns (Copilot's mock reused its tool call id)
    const before = JSON.parse(ctx(store, ['materialize', `${BRANCH}~4`, '--stop', 'root', '--format', 'openai-chat-v1'], { env: ENV }).stdout);
    const call = (command: string, description: string) => ({ id: 'toolu_mock_1', type: 'function', function: { name: 'bash', arguments: JSON.stringify({ command, description }) } });
    expect(before).toEqual([
      { role: 'user', content: 'make a file' },
      { role: 'assistant', content: null, tool_calls: [call('echo hi > f.txt && echo ok', 'write f')] },
      { role: 'tool', tool_call_id: 'toolu_mock_1', content: 'ok\n<shellId: 0 completed with exit code 0>' },
      { role: 'assistant', content: 'Done: answer 1' },
      { role: 'user', content: 'second' },
      { role: 'assistant', content: null, tool_calls: [call('env > /home/alice/env.txt; echo ok', 'env')] },
      { role: 'tool', tool_call_id: 'toolu_mock_1', content: 'ok\n<shellId: 0 completed with exit code 0>' },
      { role: 'assistant', content: 'Done: answer 1' },
    ]);
    // the whole session: the compaction's summary stands for everything before it, as in Copilot's resume
    const whole = JSON.parse(ctx(store, ['materialize', BRANCH, '--stop', 'root', '--format', 'openai-chat-v1'], { env: ENV }).stdout);
    expect(whole).toEqual([
      { role: 'user', content: 'Some of the conversation history has been summarized to free up context.\n\nHere is a summary of the prior context:\n<summary>\nDone: answer 1\n</summary>' },
      { role: 'user', content: 'after compaction' },
      { role: 'assistant', content: 'Done: answer 2' },
    ]);
    // the default materialization starts at the compaction, with the prompts before it that Copilot's resume lists
    const context = ctx(store, ['materialize', BRANCH], { env: ENV }).bytes;
    expect(types(context).slice(0, 4)).toEqual(['session.start', 'user.message', 'user.message', 'session.compaction_complete']);
    expect(JSON.parse(context.toString().split('\n')[1]).data.content).toBe('make a file');
  });

  it('refuses a file Copilot did not write, and a session that is not JSON lines', () => {
    const store = newStore();
    const claude = ctx(store, ['import', 'copilot', join(FIXTURES, 'claude-code', 'compacted-session.jsonl')], { env: ENV });
    expect([claude.code, claude.stderr]).toEqual([2, expect.stringMatching(/^ctx: .*not a Copilot CLI session.*\n$/)]);
    const dir = tempDir();
    writeFileSync(join(dir, 'events.jsonl'), '{"type":"session.start","data":{},"id":"x","timestamp":"t","parentId":null}\nnot json\n');
    const bad = ctx(store, ['import', 'copilot', join(dir, 'events.jsonl')], { env: ENV });
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/^ctx: /);
    expect(git(store, ['for-each-ref'])).toBe('');
  });
});

describe('copilot: live capture through ctx hook copilot', { timeout: 240_000 }, () => {
  it('waits for Copilot to write the events file: a hook run before its hook.start line is there captures up to that line', async () => {
    const store = newStore();
    const home = join(tempDir(), '.copilot');
    const file = join(home, 'session-state', SESSION, 'events.jsonl');
    const env = { ...process.env, ...ENV, COPILOT_HOME: home, CTX_STORE: store };
    const n = hookStarts('agentStop')[0];
    // the hook starts before the file exists (Copilot 1.0.102 writes its events in the background)
    const child = spawn(process.execPath, [CTX, 'hook', 'copilot'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    child.stdin.end(JSON.stringify({ sessionId: SESSION, timestamp: 1, cwd: '/home/alice/proj', transcriptPath: file, stopReason: 'end_turn', stop_hook_active: false }));
    let out = '';
    child.stdout.on('data', (b) => (out += b));
    child.stderr.on('data', (b) => (out += b));
    const exited = new Promise<number | null>((done) => child.on('close', done));
    await new Promise((r) => setTimeout(r, 300));
    mkdirSync(join(home, 'session-state', SESSION), { recursive: true });
    // first the turn without its hook.start line, then the line
    writeFileSync(file, upTo(n - 1));
    await new Promise((r) => setTimeout(r, 300));
    appendFileSync(file, upTo(n).subarray(upTo(n - 1).length));
    expect([await exited, out]).toEqual([0, '']);
    expect(existsSync(join(store, 'ctx', 'hook.log'))).toBe(false);
    expect(ctx(store, ['materialize', BRANCH, '--stop', 'root'], { env: ENV }).bytes.equals(upTo(n))).toBe(true);
  });

  it('a FIFO as transcriptPath: logged after the wait for its hook.start line, exit 0, nothing captured (it never blocks the hook)', () => {
    const store = newStore();
    const fifo = join(tempDir(), 'events.jsonl');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    const input = JSON.stringify({ sessionId: SESSION, timestamp: 1, cwd: '/home/alice/proj', transcriptPath: fifo, stopReason: 'end_turn', stop_hook_active: false });
    // with no writer, opening the FIFO for reading would block: the hook would never end
    const r = spawnSync(process.execPath, [CTX, '--store', store, 'hook', 'copilot'], { input, env: { ...process.env, ...ENV }, encoding: 'utf8', timeout: 60_000 });
    expect([r.status, r.signal, r.stdout, r.stderr]).toEqual([0, null, '', '']);
    expect(readFileSync(join(store, 'ctx', 'hook.log'), 'utf8')).toMatch(new RegExp(`^[^\\t]+\\tagentStop\\t${SESSION}\\ttranscript is not a regular file: ${fifo}\\n$`));
    expect(git(store, ['for-each-ref'])).toBe('');
  });

  it('a resumed session whose lines are not written yet: the previous run\'s session.shutdown, older than the hook, is not its end', async () => {
    const store = newStore();
    const home = join(tempDir(), '.copilot');
    const file = join(home, 'session-state', SESSION, 'events.jsonl');
    mkdirSync(join(home, 'session-state', SESSION), { recursive: true });
    const env = { ...process.env, ...ENV, COPILOT_HOME: home, CTX_STORE: store };
    const [firstEnd] = hookStarts('sessionEnd');
    const n = hookStarts('agentStop')[1];
    // the first run, captured by its sessionEnd hook; then Copilot wrote its hook.end and session.shutdown
    writeFileSync(file, upTo(firstEnd));
    expect(ctx(store, ['hook', 'copilot'], { input: JSON.stringify({ sessionId: SESSION, timestamp: Date.parse(JSON.parse(lines[firstEnd - 1]).timestamp), cwd: '/home/alice/proj', reason: 'complete' }), env: { ...ENV, COPILOT_HOME: home } })).toMatchObject({ code: 0, stdout: '', stderr: '' });
    writeFileSync(file, upTo(firstEnd + 2));
    expect(JSON.parse(lines[firstEnd + 1]).type).toBe('session.shutdown');
    // the resumed run's agentStop hook starts before Copilot has written any of that run's lines (as the real CLI does)
    const child = spawn(process.execPath, [CTX, 'hook', 'copilot'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    child.stdin.end(JSON.stringify({ sessionId: SESSION, timestamp: Date.parse(JSON.parse(lines[n - 1]).timestamp), cwd: '/home/alice/proj', transcriptPath: file, stopReason: 'end_turn', stop_hook_active: false }));
    let out = '';
    child.stdout.on('data', (b) => (out += b));
    child.stderr.on('data', (b) => (out += b));
    let code: number | null | undefined;
    const exited = new Promise<number | null>((done) => child.on('close', (c) => done((code = c))));
    // the old hook took the previous run's session.shutdown for the end and exited at once, capturing none of the run
    for (let waited = 0; code === undefined && waited < 2_000; waited += 50) await new Promise((r) => setTimeout(r, 50));
    expect(code).toBeUndefined();
    appendFileSync(file, upTo(n).subarray(upTo(firstEnd + 2).length));
    expect([await exited, out]).toEqual([0, '']);
    expect(existsSync(join(store, 'ctx', 'hook.log'))).toBe(false);
    expect(ctx(store, ['materialize', BRANCH, '--stop', 'root'], { env: ENV }).bytes.equals(upTo(n))).toBe(true);
  });

  it('a hook JSON whose timestamp is not a number, or lies far in the future, still captures the whole ended session and exits 0', () => {
    const [firstEnd] = hookStarts('sessionEnd');
    for (const timestamp of ['2026-01-01', 1e300]) {
      const store = newStore();
      const home = join(tempDir(), '.copilot');
      const file = join(home, 'session-state', SESSION, 'events.jsonl');
      mkdirSync(join(home, 'session-state', SESSION), { recursive: true });
      // the run is over: the file ends with its session.shutdown
      writeFileSync(file, upTo(firstEnd + 2));
      const r = ctx(store, ['hook', 'copilot'], { input: JSON.stringify({ sessionId: SESSION, timestamp, cwd: '/home/alice/proj', reason: 'complete' }), env: { ...ENV, COPILOT_HOME: home } });
      expect(r).toMatchObject({ code: 0, stdout: '', stderr: '' });
      expect(existsSync(join(store, 'ctx', 'hook.log'))).toBe(false);
      expect(ctx(store, ['materialize', BRANCH, '--stop', 'root'], { env: ENV }).bytes.equals(upTo(firstEnd + 2))).toBe(true);
    }
  });

  it('captures up to each hook\'s own line, as the import splits the file, and the rest at sessionEnd', () => {
    const store = newStore();
    const home = join(tempDir(), '.copilot');
    const file = join(home, 'session-state', SESSION, 'events.jsonl');
    mkdirSync(join(home, 'session-state', SESSION), { recursive: true });
    const env = { ...ENV, COPILOT_HOME: home };
    const hook = (input: Record<string, unknown>) => ctx(store, ['hook', 'copilot'], { input: JSON.stringify({ sessionId: SESSION, timestamp: 1, cwd: '/home/alice/proj', ...input }), env });
    const stop = { transcriptPath: file, stopReason: 'end_turn', stop_hook_active: false };
    // Copilot writes the hook's hook.start line, then runs it: the file ends there
    let at = 0;
    for (const [n, input] of [
      [hookStarts('agentStop')[0], stop],
      [hookStarts('sessionEnd')[0], { reason: 'complete' }],
      [hookStarts('agentStop')[1], stop],
      [hookStarts('preCompact')[0], { transcriptPath: file, trigger: 'manual', customInstructions: '' }],
      [hookStarts('agentStop')[2], stop],
      [hookStarts('sessionEnd')[2], { reason: 'complete' }],
    ] as [number, Record<string, unknown>][]) {
      appendFileSync(file, upTo(n).subarray(at));
      at = upTo(n).length;
      expect(hook(input)).toMatchObject({ code: 0, stdout: '', stderr: '' });
      expect(ctx(store, ['materialize', BRANCH, '--stop', 'root'], { env }).bytes.equals(upTo(n))).toBe(true);
    }
    expect(existsSync(join(store, 'ctx', 'hook.log'))).toBe(false);
    // the same commits as the import of the same bytes: each starts and ends where the import's do
    const imported = newStore();
    const copy = join(tempDir(), 'events.jsonl');
    copyFileSync(file, copy);
    expect(ctx(imported, ['import', 'copilot', copy], { env }).code).toBe(0);
    const ranges = (s: string) => logOf(s).map((c) => [c.type, JSON.parse(git(s, ['show', `${c.id.slice(4)}:meta.json`])).source]).map(([t, src]) => [t, src.offset, src.length]);
    expect(ranges(store)).toEqual(ranges(imported));
    // other hooks' input is nothing to capture
    expect(hook({ prompt: 'hi' })).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(hook({ toolName: 'bash', toolArgs: {} })).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(existsSync(join(store, 'ctx', 'hook.log'))).toBe(false);
  });
});

describe('copilot: ctx hooks install|status|uninstall copilot', { timeout: 240_000 }, () => {
  it('writes ctx.json in .github/hooks at the git top level, whole; removes exactly it; leaves a ctx.json that is not ctx\'s', () => {
    const project = tempDir();
    mkdirSync(join(project, '.git'));
    mkdirSync(join(project, 'sub'));
    const store = join(project, '.ctx');
    const path = join(project, '.github', 'hooks', 'ctx.json');
    const other = join(project, '.github', 'hooks', 'lint.json');
    mkdirSync(join(project, '.github', 'hooks'), { recursive: true });
    writeFileSync(other, '{"version":1,"hooks":{"agentStop":[{"type":"command","bash":"make lint"}]}}\n');
    const status = ctx(store, ['hooks', 'status', 'copilot'], { cwd: join(project, 'sub') });
    expect([status.code, status.stdout]).toEqual([0, 'agentStop\t-\npreCompact\t-\nsessionEnd\t-\n']);
    const installed = ctx(store, ['hooks', 'install', 'copilot'], { cwd: join(project, 'sub') });
    expect([installed.code, installed.stderr]).toEqual([0, expect.stringMatching(new RegExp(`^installed in ${path}\\ncovers copilot sessions in ${project} once Copilot trusts the folder`))]);
    const command = installed.stdout.split('\n')[0].split('\t')[1];
    expect(command).toMatch(/ctx hook copilot$/);
    const entry = [{ type: 'command', bash: command, timeoutSec: 30 }];
    expect(readFileSync(path, 'utf8')).toBe(`${JSON.stringify({ version: 1, hooks: { agentStop: entry, preCompact: entry, sessionEnd: entry } }, null, 2)}\n`);
    expect(ctx(store, ['hooks', 'install', 'copilot'], { cwd: project }).code).toBe(0);
    const removed = ctx(store, ['hooks', 'uninstall', 'copilot'], { cwd: project });
    expect([removed.code, existsSync(path), readFileSync(other, 'utf8')]).toEqual([0, false, '{"version":1,"hooks":{"agentStop":[{"type":"command","bash":"make lint"}]}}\n']);
    // a ctx.json ctx did not write is neither replaced nor removed
    writeFileSync(path, '{"version":1,"hooks":{"agentStop":[{"type":"command","bash":"echo mine"}]}}\n');
    for (const action of ['install', 'uninstall']) {
      const r = ctx(store, ['hooks', action, 'copilot'], { cwd: project });
      expect([r.code, r.stderr]).toEqual([1, `ctx: ${path} holds hooks that are not ctx's: move it away (ctx writes only its own ctx.json); nothing changed\n`]);
    }
    expect(readFileSync(path, 'utf8')).toBe('{"version":1,"hooks":{"agentStop":[{"type":"command","bash":"echo mine"}]}}\n');
  });
});

describe('copilot: export', { timeout: 240_000 }, () => {
  it('writes a new session folder whose session.start names the new session, the events after it as stored; never over one', () => {
    const store = newStore();
    const home = join(tempDir(), '.copilot');
    const env = { ...ENV, COPILOT_HOME: home };
    expect(ctx(store, ['import', 'copilot', FIXTURE], { env }).code).toBe(0);
    const id = '11111111-2222-4333-8444-555555555555';
    const r = ctx(store, ['export', 'copilot', BRANCH, '--stop', 'root', '--session-id', id], { env });
    const path = join(home, 'session-state', id, 'events.jsonl');
    expect([r.code, r.stdout, r.stderr]).toEqual([0, `copilot --resume=${id}\n`, expect.stringMatching(new RegExp(`^wrote ${path} \\(${lines.length} lines from ctx-[0-9a-f]{12}\\); run it in /home/alice/proj; its hook capture continues copilot/${id}\\n$`))]);
    const written = readFileSync(path, 'utf8').split('\n');
    expect(JSON.parse(written[0])).toEqual({ ...JSON.parse(lines[0]), data: { ...JSON.parse(lines[0]).data, sessionId: id } });
    expect(written.slice(1).join('\n')).toBe(lines.slice(1).map((l) => `${l}\n`).join(''));
    const again = ctx(store, ['export', 'copilot', BRANCH, '--session-id', id], { env });
    expect([again.code, again.stderr]).toEqual([1, `ctx: ${path} already exists\n`]);
  });

  it('translates another runtime\'s chain: a session.start first, then its messages as events', () => {
    const store = newStore();
    const home = join(tempDir(), '.copilot');
    const env = { ...ENV, COPILOT_HOME: home };
    expect(ctx(store, ['import', 'claude-code', join(FIXTURES, 'claude-code', 'compacted-session.jsonl')], { env }).code).toBe(0);
    const id = '11111111-2222-4333-8444-555555555555';
    const r = ctx(store, ['export', 'copilot', 'claude/3f6c2a9e-8b1d-4e57-a0c4-5d2e9b7f1a83~3', '--session-id', id], { env, cwd: tempDir() });
    expect(r.code).toBe(0);
    const written = readFileSync(join(home, 'session-state', id, 'events.jsonl'), 'utf8');
    expect(types(written)).toEqual(['session.start', 'user.message', 'assistant.message', 'tool.execution_complete', 'assistant.message', 'user.message', 'assistant.message', 'tool.execution_complete']);
  });
});

describe('copilot-events-v1 to and from the neutral model', () => {
  const messages: NeutralMessage[] = [
    { role: 'system', content: [{ type: 'text', text: 'another runtime\'s system prompt' }] },
    { role: 'user', content: [{ type: 'text', text: 'read a.txt' }], timestamp: '2026-01-02T03:04:05.000Z' },
    { role: 'assistant', content: [{ type: 'thinking', text: 'look' }, { type: 'text', text: 'Reading.' }, { type: 'tool_call', id: 'c1', name: 'view', input: { path: 'a.txt' } }] },
    { role: 'tool', content: [{ type: 'tool_result', call_id: 'c1', content: 'A', is_error: true }] },
    { role: 'tool', content: [{ type: 'tool_result', call_id: 'c9', content: 'orphan' }] },
    { role: 'assistant', content: [{ type: 'text', text: 'Done.' }] },
  ];
  it('writes events Copilot reads back as the same conversation, deterministically; a result of no call becomes text', () => {
    const out = copilotEvents.fromNeutral!(messages);
    expect(Buffer.from(copilotEvents.fromNeutral!(messages)).equals(Buffer.from(out))).toBe(true);
    const events = copilotEvents.parse(out) as { type: string; id: string; parentId: string | null }[];
    expect(events.map((e) => e.type)).toEqual(['user.message', 'assistant.message', 'tool.execution_complete', 'user.message', 'assistant.message']);
    expect(events.slice(1).every((e, i) => e.parentId === events[i].id)).toBe(true);
    expect(copilotEvents.toNeutral!(events).map(({ role, content }) => ({ role, content }))).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'read a.txt' }] },
      { role: 'assistant', content: [{ type: 'thinking', text: 'look' }, { type: 'text', text: 'Reading.' }, { type: 'tool_call', id: 'c1', name: 'view', input: { path: 'a.txt' } }] },
      { role: 'tool', content: [{ type: 'tool_result', call_id: 'c1', content: 'A', is_error: true }] },
      { role: 'user', content: [{ type: 'text', text: '[result of tool call c9, whose call is not in this context]\norphan' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Done.' }] },
    ]);
    expect(copilotEvents.count(events)).toBe(5);
  });
});

describe('copilot tool effects', () => {
  it('view reads, create writes, edit edits, bash runs what it names', () => {
    expect(tools.effects({ name: 'view', input: { path: '/p/a.ts', view_range: [1, 5] } })).toEqual([{ path: '/p/a.ts', action: 'read' }]);
    expect(tools.effects({ name: 'create', input: { path: 'b.ts', file_text: 'x\ny\n' } })).toEqual([{ path: 'b.ts', action: 'write', added: ['x', 'y'] }]);
    expect(tools.effects({ name: 'edit', input: { path: 'b.ts', old_str: 'x', new_str: 'z' } })).toEqual([{ path: 'b.ts', action: 'edit', added: ['z'], removed: ['x'] }]);
    expect(tools.effects({ name: 'bash', input: { command: 'cat notes.txt', description: 'read' } })).toEqual([
      { path: 'cat', action: 'run' },
      { path: 'notes.txt', action: 'run' },
    ]);
    expect(tools.effects({ name: 'grep', input: { pattern: 'x' } })).toEqual([]);
  });
});

describe('copilot: the session whose shell runs a command', { timeout: 240_000 }, () => {
  it('is named by COPILOT_AGENT_SESSION_ID, its cwd read from the session.start of its events.jsonl', () => {
    const home = join(tempDir(), '.copilot');
    mkdirSync(join(home, 'session-state', SESSION), { recursive: true });
    const file = join(home, 'session-state', SESSION, 'events.jsonl');
    copyFileSync(FIXTURE, file);
    expect(shellSession({ COPILOT_AGENT_SESSION_ID: SESSION, COPILOT_HOME: home })).toEqual({ session: SESSION, cwd: '/home/alice/proj', branch: BRANCH, transcript: file });
    expect(shellSession({ COPILOT_HOME: home })).toBeNull();
    expect(shellSession({ COPILOT_AGENT_SESSION_ID: '../../etc', COPILOT_HOME: home })).toBeNull();
    expect(shellSession({ COPILOT_AGENT_SESSION_ID: 'aaaaaaaa-0000-4000-8000-000000000000', COPILOT_HOME: home })).toBeNull();
  });

  it('a hook input without a sessionId is said on stderr (no store to log in yet), and the hook still exits 0', () => {
    const store = newStore();
    const r = ctx(store, ['hook', 'copilot'], { input: '{"transcriptPath":"/nope","stopReason":"end_turn"}', env: ENV });
    expect(r).toMatchObject({ code: 0, stdout: '', stderr: expect.stringMatching(/^ctx hook: .*\t-\t-\thook input has no sessionId\n$/) });
  });
});
