// Rolling windows: `--since DURATION|TIME` on materialize and log, `ctx.window.<branch>` by default;
// entries cut by their own time where the format records one, commits by created_at otherwise; the
// later of the window's start and the stop wins; a kept tool result keeps its call.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error the bundle is JavaScript: typed below by the sources it is built from
import * as built from '../dist/index.js';
import { CORPUS, FIXED_ENV, FIXTURES, ctx, describeCorpus, git, newStore, objectCount, refSnapshot, type Run } from './helpers.js';

const CLAUDE = join(FIXTURES, 'claude-code', 'compacted-session.jsonl');
const CODEX = join(FIXTURES, 'codex', 'rollout-2025-11-20T09-00-00-0a1b2c3d-4e5f-7a8b-9c0d-1e2f3a4b5c6d.jsonl');
const GEMINI = join(FIXTURES, 'gemini-cli', 'session-2026-01-10T09-00-aaaa1111.jsonl');
// a day and a quarter of an hour after the Claude Code fixture's compaction (09:14:22.640Z)
const NOW = '2026-03-05T09:15:00.000Z';
const env = { ...FIXED_ENV, CTX_NOW: NOW };
const lib = built as typeof import('../src/index.js');

function ok(r: Run): Run {
  if (r.code !== 0) throw new Error(`exit ${r.code}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`);
  return r;
}
const run = (store: string, args: string[], input?: string, at = NOW) => ok(ctx(store, args, { env: { ...env, CTX_NOW: at }, input }));
const json = (store: string, args: string[]) => JSON.parse(run(store, [...args, '--json']).stdout);
const text = (store: string, args: string[]) => run(store, ['materialize', ...args]).stdout;
/** Lines FROM.. of a transcript, as bytes. */
const linesFrom = (file: string, from: number) =>
  readFileSync(file, 'utf8')
    .split(/(?<=\n)/)
    .slice(from)
    .join('');

function imported(runtime: string, file: string, branch: string): string {
  const store = newStore();
  run(store, ['import', runtime, file, '-b', branch]);
  return store;
}

describe('materialize --since', () => {
  it('cuts a Claude Code chain at whole lines by their own time; the compaction (the stop) wins when it is later; neither cache answers a window', () => {
    const store = imported('claude-code', CLAUDE, 'agent');
    const whole = text(store, ['agent']); // cached now: the window below must not read it back
    expect(whole).toBe(linesFrom(CLAUDE, 10));
    const w = json(store, ['materialize', 'agent', '--since', '24h']);
    expect(w).toMatchObject({ format: 'claude-code-v1', tier: 'native', stop: 'compaction', window: { since: '24h', start: '2026-03-04T09:15:00.000Z' }, commits: [json(store, ['show', 'agent']).id] });
    expect(w.content).toBe(linesFrom(CLAUDE, 14));
    expect(text(store, ['agent', '--since', '24h'])).toBe(linesFrom(CLAUDE, 14));
    // a window that starts before the last compaction: the compaction's own start
    expect(text(store, ['agent', '--since', '2026-03-04T09:13:00Z'])).toBe(whole);
    expect(text(store, ['agent', '--since', '25h'])).toBe(whole);
    // the cache still answers the default with the whole context
    expect(text(store, ['agent'])).toBe(whole);
    expect(text(store, ['agent', '--since', 'all'])).toBe(whole);
    expect(text(store, ['agent', '--since', '24h', '--format', 'openai-chat-v1'])).toBe(
      '[\n{"role":"user","content":"Thanks. Which files did you change?"},\n{"role":"assistant","content":"Only src/list.ts: one line in `parseTodos`."}\n]\n',
    );
  });

  it('past the stop, with --stop root: a line without a time goes with the entry after it, a tool result keeps its call', () => {
    const store = imported('claude-code', CLAUDE, 'agent');
    // line 6 (a file-history-snapshot, no timestamp) precedes line 7 (09:13:40.231Z)
    expect(text(store, ['agent', '--stop', 'root', '--since', '2026-03-04T09:13:00Z'])).toBe(linesFrom(CLAUDE, 6));
    // line 3 (09:12:04.961Z) is the result of line 2's tool_use (09:12:04.918Z): the window starts at the call
    expect(text(store, ['agent', '--stop', 'root', '--since', '2026-03-04T09:12:04.950Z'])).toBe(linesFrom(CLAUDE, 2));
    expect(text(store, ['agent', '--stop', 'root', '--since', '2026-03-04T09:12:04.962Z'])).toBe(linesFrom(CLAUDE, 4));
  });

  it('after a clear: the later of the clear and the window start wins', () => {
    const store = imported('claude-code', CLAUDE, 'agent');
    run(store, ['clear', 'agent'], undefined, '2026-03-05T09:00:00.000Z');
    const cleared = text(store, ['agent']);
    const next = `${JSON.stringify({ type: 'user', message: { role: 'user', content: 'new task' }, uuid: 'n1', timestamp: '2026-03-05T09:10:00.000Z' })}\n`;
    run(store, ['checkpoint', '-b', 'agent', '--format', 'claude-code-v1', '-'], next, '2026-03-05T09:10:00.000Z');
    // the clear (09:00) is later than the window's start (yesterday): the clear's boundary, then what followed
    expect(text(store, ['agent', '--since', '24h'])).toBe(cleared + next);
    // the window (09:05) is later than the clear: only what followed
    expect(text(store, ['agent', '--since', '10m'])).toBe(next);
    expect(json(store, ['materialize', 'agent', '--since', '10m', '--format', 'openai-chat-v1']).content).toBe('[\n{"role":"user","content":"new task"}\n]\n');
  });

  it('an empty window: nothing, exit 0, no commit', () => {
    const store = imported('claude-code', CLAUDE, 'agent');
    const r = json(store, ['materialize', 'agent', '--since', '2h']);
    expect(r).toMatchObject({ commits: [], bytes: 0, content: '', window: { since: '2h', start: '2026-03-05T07:15:00.000Z' } });
    expect(run(store, ['materialize', 'agent', '--since', '2026-03-05']).bytes.length).toBe(0);
  });

  it('cuts Codex and Gemini CLI lines by their own time', () => {
    const codex = imported('codex', CODEX, 'cx');
    // line 6, the function_call_output (09:00:04.610Z), keeps line 5, its function_call (09:00:04.500Z)
    expect(text(codex, ['cx', '--stop', 'root', '--since', '2025-11-20T09:00:04.600Z'])).toBe(linesFrom(CODEX, 5));
    expect(text(codex, ['cx', '--stop', 'root', '--since', '2025-11-20T09:00:04.611Z'])).toBe(linesFrom(CODEX, 7));
    const gemini = imported('gemini-cli', GEMINI, 'gm');
    // line 8 ({"$rewindTo":"u2"}, no time) goes with line 9 (09:00:06.000Z)
    expect(text(gemini, ['gm', '--stop', 'root', '--since', '2026-01-10T09:00:05.500Z'])).toBe(linesFrom(GEMINI, 8));
    expect(text(gemini, ['gm', '--stop', 'root', '--since', '2026-01-10T09:00:05.500Z', '--format', 'openai-chat-v1'])).toBe(
      '[\n{"role":"user","content":"Show a.txt"},\n{"role":"assistant","content":null,"tool_calls":[{"id":"rf-1","type":"function","function":{"name":"read_file","arguments":"{\\"file_path\\":\\"a.txt\\"}"}}]},\n{"role":"tool","tool_call_id":"rf-1","content":"alpha"},\n{"role":"assistant","content":"a.txt says alpha."}\n]\n',
    );
  });

  it('goes by commit time where the format records no entry time (openai-chat-v1); log --since lists the same commits', () => {
    const store = newStore();
    const ids = [
      ['2026-03-01T10:00:00.000Z', '[{"role":"user","content":"one"}]'],
      ['2026-03-04T10:00:00.000Z', '[{"role":"assistant","content":"two"}]'],
      ['2026-03-05T09:00:00.000Z', '[{"role":"user","content":"three"}]'],
    ].map(([at, body]) => JSON.parse(run(store, ['checkpoint', '-b', 'bot', '--format', 'openai-chat-v1', '-', '--json'], body, at).stdout).id);
    const m = json(store, ['materialize', 'bot', '--since', '24h']);
    expect(m.commits).toEqual(ids.slice(1));
    expect(m.content).toBe('[\n{"role":"assistant","content":"two"},\n{"role":"user","content":"three"}\n]\n');
    expect(json(store, ['materialize', 'bot', '--since', '2026-03-05T09:00:00Z']).content).toBe('[{"role":"user","content":"three"}]');
    const logged = run(store, ['log', 'bot', '--since', '24h', '--json'])
      .stdout.trim()
      .split('\n')
      .map((l) => JSON.parse(l).id);
    expect(logged).toEqual([ids[2], ids[1]]);
    expect(run(store, ['log', 'bot', '--since', '10m']).stdout).toBe('');
    expect(run(store, ['log', 'bot', '--since', 'all', '-n', '2', '--json']).stdout.trim().split('\n')).toHaveLength(2);
  });
});

describe('a window with the other read options', () => {
  it('--for and --thread read the commits of the window: authors stay those of their own commits', () => {
    const store = newStore();
    const turn = (author: string, thread: string, content: string, at: string) =>
      run(store, ['checkpoint', '-b', 'room', '--format', 'openai-chat-v1', '--author', author, '--thread', thread, '-'], JSON.stringify([{ role: 'assistant', content }]), at);
    turn('planner', 't1', 'Plan: LRU', '2026-03-05T08:00:00.000Z');
    turn('coder', 't1', 'Implemented it', '2026-03-05T08:30:00.000Z');
    turn('reviewer', 't2', 'Eviction is wrong', '2026-03-05T09:00:00.000Z');
    const chat = (args: string[]) => JSON.parse(text(store, ['room', '--format', 'openai-chat-v1', ...args]));
    expect(chat(['--for', 'reviewer', '--since', '1h'])).toEqual([
      { role: 'user', content: '[coder] Implemented it' },
      { role: 'assistant', content: 'Eviction is wrong' },
    ]);
    expect(chat(['--thread', 't1', '--since', '1h'])).toEqual([{ role: 'assistant', content: 'Implemented it' }]);
  });
});

describe('the library', () => {
  it('store.materialize(id, { since }) and store.log(id, { since }): the same window; a bad one throws the usage error', async () => {
    const path = imported('claude-code', CLAUDE, 'agent');
    const store = await lib.openStore(path, { env });
    try {
      const m = await store.materialize('agent', { since: '24h' });
      expect(Buffer.from(m.bytes).toString()).toBe(linesFrom(CLAUDE, 14));
      expect(m.window).toEqual({ since: '24h', start: '2026-03-04T09:15:00.000Z' });
      expect((await store.log('agent', { since: '2026-03-04T09:14:00Z' })).map((r) => r.meta.created_at)).toEqual(['2026-03-04T09:15:05.039Z', '2026-03-04T09:14:30.452Z', '2026-03-04T09:14:22.640Z']);
      await expect(store.materialize('agent', { since: 'soon' })).rejects.toMatchObject({ code: 'UsageError', exit: 2 });
    } finally {
      await store.close();
    }
  });
});

describe('ctx.window.<branch>', () => {
  it('is the default window of the branch it names; --since all and --stop root go past it; ctx.<pattern>.window names branches with a slash', () => {
    const store = imported('claude-code', CLAUDE, 'agent');
    const budget = () => json(store, ['budget', 'agent', '--window', '200000']).used;
    const used = budget();
    git(store, ['config', 'ctx.window.agent', '24h']);
    // the window is materialize's and save's default only: a budget (like an export) reads the whole context
    expect(budget()).toBe(used);
    expect(json(store, ['materialize', 'agent', '-o', join(store, '..', 'w.jsonl')])).toMatchObject({ window: { since: '24h', start: '2026-03-04T09:15:00.000Z' } });
    expect(readFileSync(join(store, '..', 'w.jsonl'), 'utf8')).toBe(linesFrom(CLAUDE, 14));
    expect(text(store, ['agent', '--since', 'all'])).toBe(linesFrom(CLAUDE, 10));
    expect(json(store, ['materialize', 'agent', '--since', 'all']).window).toBeNull();
    expect(text(store, ['agent', '--stop', 'root'])).toBe(readFileSync(CLAUDE, 'utf8'));
    // a commit id is not the branch: no default window
    expect(text(store, ['agent~1'])).toBe(linesFrom(CLAUDE, 10).split(/(?<=\n)/).slice(0, 4).join(''));
    run(store, ['fork', 'agent', 'team/ops']);
    expect(text(store, ['team/ops'])).toBe(linesFrom(CLAUDE, 10));
    git(store, ['config', 'ctx.team/*.window', '2026-03-04T09:15:00Z']);
    expect(json(store, ['materialize', 'team/ops']).window).toEqual({ since: '2026-03-04T09:15:00Z', start: '2026-03-04T09:15:00.000Z' });
  });

  it('a save records the window it read (its start), and a restore reads those messages back, whenever it runs', () => {
    const store = imported('claude-code', CLAUDE, 'agent');
    git(store, ['config', 'ctx.window.agent', '24h']);
    const saved = json(store, ['save', 'agent', '-m', 'last day']);
    expect(saved).toMatchObject({ message_count: 2, window: { since: '2026-03-04T09:15:00.000Z', stop: 'compaction', from: json(store, ['show', 'agent']).id, commits: 1 } });
    expect(JSON.parse(run(store, ['sessions', '--json']).stdout).window.since).toBe('2026-03-04T09:15:00.000Z');
    // --since, and the summarizer reads the window's messages
    const count = `node -e 'let s="";process.stdin.on("data",(d)=>(s+=d)).on("end",()=>console.log(JSON.parse(s).length+" messages"))'`;
    const explicit = json(store, ['save', 'agent', '-m', 'since', '--name', 'w', '--since', '2026-03-04T09:14:25Z', '--summarizer', count]);
    expect(explicit).toMatchObject({ summary: '3 messages', message_count: 3, window: { since: '2026-03-04T09:14:25.000Z', commits: 2 } });
    expect(json(store, ['save', 'agent', '-m', 'all', '--name', 'all', '--since', 'all', '--summarizer', count])).toMatchObject({ summary: '4 messages', message_count: 4, window: { since: null, commits: 3 } });
    git(store, ['config', '--unset', 'ctx.window.agent']);
    run(store, ['restore', saved.name, '--json'], undefined, '2026-03-09T00:00:00.000Z');
    expect(text(store, ['agent'])).toBe(linesFrom(CLAUDE, 14));
  });
});

describe('bad windows', () => {
  it.each([
    [['materialize', 'agent', '--since', '2x'], "ctx: --since: not a duration or a time: '2x' (e.g. 24h, 7d, 2026-11-20T14:03:00Z, all)\n"],
    [['materialize', 'agent', '--since', '2026-03-04T09:13:00'], "ctx: --since: not a duration or a time: '2026-03-04T09:13:00' (e.g. 24h, 7d, 2026-11-20T14:03:00Z, all)\n"],
    [['materialize', 'agent', '--since', ''], "ctx: --since: not a duration or a time: '' (e.g. 24h, 7d, 2026-11-20T14:03:00Z, all)\n"],
    [['log', 'agent', '--since', 'yesterday'], "ctx: --since: not a duration or a time: 'yesterday' (e.g. 24h, 7d, 2026-11-20T14:03:00Z, all)\n"],
  ])('%j: one line, exit 2, nothing written', (args, stderr) => {
    const store = imported('claude-code', CLAUDE, 'agent');
    const out = join(store, '..', 'out.jsonl');
    const before = [refSnapshot(store), objectCount(store)];
    const r = ctx(store, [...args, ...(args[0] === 'materialize' ? ['-o', out] : [])], { env });
    expect([r.code, r.stdout, r.stderr]).toEqual([2, '', stderr]);
    expect(existsSync(out)).toBe(false);
    expect([refSnapshot(store), objectCount(store)]).toEqual(before);
  });

  it('a bad ctx.window value: one line naming the key, exit 2, for materialize and save', () => {
    const store = imported('claude-code', CLAUDE, 'agent');
    git(store, ['config', 'ctx.window.agent', '1y']);
    const before = [refSnapshot(store), objectCount(store)];
    const msg = "ctx: config ctx.window.agent: not a duration or a time: '1y' (e.g. 24h, 7d, 2026-11-20T14:03:00Z, all)\n";
    for (const args of [['materialize', 'agent'], ['save', 'agent', '-m', 'x']]) {
      const r = ctx(store, args, { env });
      expect([r.code, r.stdout, r.stderr]).toEqual([2, '', msg]);
    }
    expect([refSnapshot(store), objectCount(store)]).toEqual(before);
    // a window given on the command line does not read the bad value
    expect(ctx(store, ['materialize', 'agent', '--since', 'all'], { env }).code).toBe(0);
  });
});

describeCorpus('windows on corpus transcripts', () => {
  const cases = [
    // a Task tool_use (line 13, 00:52:51.266Z) answered at line 222 (00:56:24.308Z); line 12's parallel Task call is answered later still: the window starts at line 12
    { runtime: 'claude-code', file: 'claude-code/d-kimuson__claude-code-viewer__fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl', since: '2025-09-03T00:56:24.308Z', from: 12, messages: 426, neutral: 338 },
    // a subagent's prompt (line 228) after its two parallel Task calls (lines 226, 227), answered after it
    { runtime: 'claude-code', file: 'claude-code/d-kimuson__claude-code-viewer__fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl', since: '2025-09-03T00:56:38.407Z', from: 226, messages: 212, neutral: 166 },
    // a function_call_output (line 172) one millisecond after its function_call (line 171)
    { runtime: 'codex', file: 'codex/AcidicSoil__codex-session-view__rollout-2025-11-17T15-30-28-019a93b9-f380-7600-98ff-940e6b99603c.jsonl', since: '2025-11-17T21:34:56.391Z', from: 171, messages: 0, neutral: 32 },
  ];
  it.each(cases)('$runtime from $since: lines $from.., $messages messages ($neutral neutral)', ({ runtime, file, since, from, messages, neutral }) => {
    const path = join(CORPUS, file);
    const store = imported(runtime, path, 'agent');
    expect(text(store, ['agent', '--stop', 'root', '--since', since])).toBe(linesFrom(path, from));
    // messages as the format counts them (a save records it), and as neutral messages (tool calls and results too)
    expect(JSON.parse(json(store, ['materialize', 'agent', '--stop', 'root', '--since', since, '--format', 'openai-chat-v1']).content)).toHaveLength(neutral);
    git(store, ['config', 'ctx.window.agent', since]);
    expect(json(store, ['save', 'agent', '-m', 'window']).message_count).toBe(messages);
  });
});
