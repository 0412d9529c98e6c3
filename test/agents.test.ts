// Several agents in one conversation: authors and threads on commits, `ctx threads`, cursors
// (annotations that sync), and each agent's view (`materialize --for`).
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CORPUS, FIXED_ENV, ctx, describeCorpus, git, newStore, objectCount, refSnapshot, tempDir, type Run } from './helpers.js';
import { createServedRepo, startGitServer, type GitServer } from './git-http-server.js';

const env = FIXED_ENV;
function ok(r: Run): Run {
  if (r.code !== 0) throw new Error(`exit ${r.code}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`);
  return r;
}
const run = (store: string, args: string[], input?: string, extra: Record<string, string> = {}) => ok(ctx(store, args, { env: { ...env, ...extra }, input }));
const json = (store: string, args: string[], input?: string) => JSON.parse(run(store, [...args, '--json'], input).stdout);
const jsonLines = (store: string, args: string[]) =>
  run(store, [...args, '--json'])
    .stdout.split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
const say = (role: string, content: string) => ({ role, content });
const chat = (store: string, args: string[]) => JSON.parse(run(store, ['materialize', ...args, '--format', 'openai-chat-v1']).stdout);

/**
 * Three agents taking turns on design-room (openai-chat-v1), each turn a commit by its author:
 * 1 planner (the user's ask and the plan), 2 coder (with a tool call), 3 reviewer (thread 7a01),
 * 4 planner, 5 coder. Cursors: planner after 1, coder after 2, reviewer none.
 */
function buildDesignRoom(): { store: string; ids: string[] } {
  // a directory of its own, removed after the file: tempDir()'s are removed after each test
  const store = join(mkdtempSync(join(tmpdir(), 'ctx-room-')), '.ctx');
  ok(ctx(store, ['init', store]));
  const ids: string[] = [];
  const commit = (author: string, thread: string, messages: object[], minute: number) => {
    const r = run(store, ['checkpoint', '-b', 'design-room', '--format', 'openai-chat-v1', '--author', author, '--thread', thread, '--summary', `${author} turn`, '--json', '-'], JSON.stringify(messages), {
      CTX_NOW: `2026-01-02T03:0${minute}:00.000Z`,
    });
    ids.push(JSON.parse(r.stdout).id);
  };
  commit('planner', '9f2c', [say('user', 'Design the cache'), say('assistant', 'Plan: LRU with a size cap')], 1);
  run(store, ['cursor', 'set', 'design-room', 'planner'], undefined, { CTX_NOW: '2026-01-02T03:01:30.000Z' });
  const call = { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'run_tests', arguments: '{}' } }] };
  commit('coder', '9f2c', [say('assistant', 'Implemented the LRU'), call, { role: 'tool', tool_call_id: 'c1', content: '12 passed' }], 2);
  run(store, ['cursor', 'set', 'design-room', 'coder'], undefined, { CTX_NOW: '2026-01-02T03:02:30.000Z' });
  commit('reviewer', '7a01', [say('assistant', 'Eviction misses the size cap')], 3);
  commit('planner', '9f2c', [say('assistant', 'Coder: fix eviction')], 4);
  commit('coder', '9f2c', [say('assistant', 'Fixed eviction')], 5);
  return { store, ids };
}

/** Built once (every id is fixed), then a copy per test: the tests write to it. */
let room: { store: string; ids: string[] } | undefined;
afterAll(() => {
  if (room) rmSync(join(room.store, '..'), { recursive: true, force: true });
});
function designRoom(): { store: string; ids: string[] } {
  room ??= buildDesignRoom();
  const store = join(tempDir(), '.ctx');
  cpSync(room.store, store, { recursive: true });
  return { store, ids: [...room.ids] };
}

const CALL = { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'run_tests', arguments: '{}' } }] };
const RESULT = { role: 'tool', tool_call_id: 'c1', content: '12 passed' };

describe('authors and threads on commits', () => {
  it('meta.json holds author and thread_id in canonical order, and neither when not given (ids of stores without them stay)', () => {
    const store = newStore();
    const body = JSON.stringify([say('user', 'hi')]);
    // the id test/library.test.ts pins for these bytes: meta.json without the new fields is unchanged
    const line = `${JSON.stringify({ type: 'user', message: { role: 'user', content: 'Fix the login bug' } })}\n`;
    const plain = json(store, ['checkpoint', '-b', 'agent/run-42', '--format', 'claude-code-v1', '--summary', 'task received', '-'], line).id;
    expect(plain).toBe('ctx-776906848e83ae1f9d7d3684495fcd43e5fdffc2');
    expect(git(store, ['show', `${plain.slice(4)}:meta.json`])).not.toContain('author');
    const both = json(store, ['checkpoint', '-b', 'b', '--format', 'openai-chat-v1', '--author', 'coder', '--thread', '9f2c', '-'], body).id;
    const meta = git(store, ['show', `${both.slice(4)}:meta.json`]);
    expect(meta.indexOf('"author":"coder","checkpoint"')).toBeGreaterThan(0);
    expect(meta).toContain('"template":"test-agent","thread_id":"9f2c","token_count"');
    expect(json(store, ['show', both]).meta).toMatchObject({ author: 'coder', thread_id: '9f2c' });
  });

  it('ctx threads: each thread by its last commit, newest first, with its author and commit count', () => {
    const { store, ids } = designRoom();
    expect(jsonLines(store, ['threads', 'design-room'])).toEqual([
      { v: 1, thread: '9f2c', id: ids[4], created_at: '2026-01-02T03:05:00.000Z', author: 'coder', summary: 'coder turn', commits: 4 },
      { v: 1, thread: '7a01', id: ids[2], created_at: '2026-01-02T03:03:00.000Z', author: 'reviewer', summary: 'reviewer turn', commits: 1 },
    ]);
    expect(Object.keys(jsonLines(store, ['threads', 'design-room'])[0])).toEqual(['v', 'thread', 'id', 'created_at', 'author', 'summary', 'commits']);
    const short = (id: string) => id.slice(0, 16);
    expect(run(store, ['threads', 'design-room']).stdout).toBe(
      `9f2c\t${short(ids[4])}\t2026-01-02T03:05:00.000Z\tcoder\t4\tcoder turn\n7a01\t${short(ids[2])}\t2026-01-02T03:03:00.000Z\treviewer\t1\treviewer turn\n`,
    );
    // log and materialize --thread: only that thread's commits
    expect(jsonLines(store, ['log', 'design-room', '--thread', '9f2c']).map((r) => r.id)).toEqual([ids[4], ids[3], ids[1], ids[0]]);
    expect(jsonLines(store, ['log', 'design-room', '--thread', '9f2c', '-n', '2']).map((r) => r.id)).toEqual([ids[4], ids[3]]);
    expect(jsonLines(store, ['log', 'design-room', '--thread', 'none'])).toEqual([]);
    expect(chat(store, ['design-room', '--thread', '7a01'])).toEqual([say('assistant', 'Eviction misses the size cap')]);
    expect(chat(store, ['design-room', '--thread', '9f2c'])).toHaveLength(7);
    const missing = ctx(store, ['materialize', 'design-room', '--thread', 'none'], { env });
    expect([missing.code, missing.stdout, missing.stderr]).toEqual([4, '', 'ctx: no commit of thread none in the context at design-room\n']);
    // a chain without threads has none
    const other = newStore();
    run(other, ['checkpoint', '-b', 'x', '--format', 'openai-chat-v1', '-'], JSON.stringify([say('user', 'hi')]));
    expect(run(other, ['threads', 'x']).stdout).toBe('');
  });
});

describe('materialize --for AGENT', () => {
  it('three agents taking turns: each view has exactly its own entries as assistant, the others attributed, and what came after its cursor in one away block', () => {
    const { store } = designRoom();
    const user = (text: string) => say('user', text);
    // planner's cursor is after its first turn: everything the others did since is one message
    expect(chat(store, ['design-room', '--for', 'planner'])).toEqual([
      user('Design the cache'),
      say('assistant', 'Plan: LRU with a size cap'),
      user('While you were away:\n\n[coder] Implemented the LRU\n\n[reviewer] Eviction misses the size cap\n\n[planner] Coder: fix eviction\n\n[coder] Fixed eviction'),
    ]);
    // coder's cursor is after its first turn: its tool call and result are its own
    expect(chat(store, ['design-room', '--for', 'coder'])).toEqual([
      user('Design the cache'),
      user('[planner] Plan: LRU with a size cap'),
      say('assistant', 'Implemented the LRU'),
      CALL,
      RESULT,
      user('While you were away:\n\n[reviewer] Eviction misses the size cap\n\n[planner] Coder: fix eviction\n\n[coder] Fixed eviction'),
    ]);
    // reviewer has no cursor: it sees everything, no away block; the others' tool traffic is not its own
    expect(chat(store, ['design-room', '--for', 'reviewer'])).toEqual([
      user('Design the cache'),
      user('[planner] Plan: LRU with a size cap'),
      user('[coder] Implemented the LRU'),
      say('assistant', 'Eviction misses the size cap'),
      user('[planner] Coder: fix eviction'),
      user('[coder] Fixed eviction'),
    ]);
    // the cursor moves: coder has now seen the tip, so no away block
    run(store, ['cursor', 'set', 'design-room', 'coder'], undefined, { CTX_NOW: '2026-01-02T03:06:00.000Z' });
    expect(chat(store, ['design-room', '--for', 'coder']).at(-1)).toEqual(say('assistant', 'Fixed eviction'));
  });

  it('every format written from messages carries it; others are refused with exit 2 and nothing written', () => {
    const { store } = designRoom();
    const md = run(store, ['materialize', 'design-room', '--for', 'planner', '--format', 'markdown']).stdout;
    expect(md).toBe(
      '# Context\n\n## 1. User\n\nDesign the cache\n\n## 2. Assistant\n\nPlan: LRU with a size cap\n\n## 3. User\n\nWhile you were away:\n\n[coder] Implemented the LRU\n\n[reviewer] Eviction misses the size cap\n\n[planner] Coder: fix eviction\n\n[coder] Fixed eviction\n',
    );
    const claude = run(store, ['materialize', 'design-room', '--for', 'reviewer', '--format', 'claude-code-v1']).stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(claude.map((l) => [l.type, l.message.content[0].text])).toEqual([
      ['user', 'Design the cache'],
      ['user', '[planner] Plan: LRU with a size cap'],
      ['user', '[coder] Implemented the LRU'],
      ['assistant', 'Eviction misses the size cap'],
      ['user', '[planner] Coder: fix eviction'],
      ['user', '[coder] Fixed eviction'],
    ]);
    const raw = ctx(store, ['materialize', 'design-room', '--for', 'coder', '--format', 'raw'], { env });
    expect([raw.code, raw.stdout]).toEqual([2, '']);
    expect(raw.stderr).toBe('ctx: --for cannot be written as raw: give --format claude-code-v1, bureau-agent-v1, codex-rollout-v1, gemini-cli-jsonl-v1, openai-chat-v1, pi-session-v3, opencode-session-v1, copilot-events-v1, openai-agents-v1, markdown\n');
  });

  it('an author per entry (openai-chat name) wins over the commit author', () => {
    const store = newStore();
    const body = [say('user', 'go'), { role: 'assistant', name: 'planner', content: 'plan' }, say('assistant', 'code')];
    run(store, ['checkpoint', '-b', 'r', '--format', 'openai-chat-v1', '--author', 'coder', '-'], JSON.stringify(body));
    expect(chat(store, ['r', '--for', 'coder'])).toEqual([say('user', 'go'), say('user', '[planner] plan'), say('assistant', 'code')]);
  });
});

describe('ctx cursor', () => {
  it('set at the tip or an id on the branch, show it; the newest record per (branch, agent) wins', () => {
    const { store, ids } = designRoom();
    expect(json(store, ['cursor', 'show', 'design-room', 'coder'])).toEqual({ v: 1, branch: 'design-room', agent: 'coder', id: ids[1], at: '2026-01-02T03:02:30.000Z' });
    expect(Object.keys(json(store, ['cursor', 'show', 'design-room', 'coder']))).toEqual(['v', 'branch', 'agent', 'id', 'at']);
    expect(json(store, ['cursor', 'show', 'design-room', 'reviewer'])).toEqual({ v: 1, branch: 'design-room', agent: 'reviewer', id: null, at: null });
    expect(run(store, ['cursor', 'show', 'design-room', 'reviewer']).stdout).toBe('');
    // an older commit, set later: the newest record wins, wherever it is
    run(store, ['cursor', 'set', 'design-room', 'coder', ids[0]], undefined, { CTX_NOW: '2026-01-02T04:00:00.000Z' });
    expect(run(store, ['cursor', 'show', 'design-room', 'coder']).stdout).toBe(`${ids[0].slice(0, 16)}\n`);
    // the record is an annotation line on that commit
    expect(git(store, ['notes', '--ref', 'ctx', 'show', ids[0].slice(4)])).toBe(
      '{"at":"2026-01-02T03:01:30.000Z","by":"alice","cursor":{"agent":"planner","branch":"design-room"},"v":1}\n{"at":"2026-01-02T04:00:00.000Z","by":"alice","cursor":{"agent":"coder","branch":"design-room"},"v":1}\n',
    );
  });

  it('a cursor record is no annotation: ctx show leaves it out and keeps the annotations around it', () => {
    const { store, ids } = designRoom();
    run(store, ['annotate', ids[1], '--summary', 'coder done'], undefined, { CTX_NOW: '2026-01-02T03:02:10.000Z' });
    run(store, ['cursor', 'set', 'design-room', 'reviewer', ids[1]], undefined, { CTX_NOW: '2026-01-02T05:00:00.000Z' });
    const shown = json(store, ['show', ids[1]]);
    expect(shown.annotations).toEqual({ at: '2026-01-02T03:02:10.000Z', by: 'alice', summary: 'coder done' });
    expect(shown.summary).toBe('coder done');
    expect(run(store, ['show', ids[1]]).stdout).toContain('annotations:   {"at":"2026-01-02T03:02:10.000Z","by":"alice","summary":"coder done"}\n');
    // a commit with only cursor records has no annotations
    expect(json(store, ['show', ids[0]]).annotations).toEqual({});
    expect(run(store, ['show', ids[0]]).stdout).not.toContain('annotations');
  });

  it('bad input: one line, exit 2, nothing written', () => {
    const { store } = designRoom();
    const other = JSON.parse(run(store, ['checkpoint', '-b', 'elsewhere', '--format', 'openai-chat-v1', '--json', '-'], JSON.stringify([say('user', 'x')])).stdout).id;
    const before = [refSnapshot(store), objectCount(store)];
    const cases: [string[], number, string][] = [
      [['cursor', 'set', 'design-room', 'coder', other], 2, `ctx: ${other} is not on branch design-room\n`],
      [['cursor', 'set', 'design-room', ''], 2, 'ctx: bad agent name "": empty or more than one line\n'],
      [['cursor', 'move', 'design-room', 'coder'], 2, "ctx: unknown action 'move': set or show\n"],
      [['cursor', 'set', 'nowhere', 'coder'], 4, 'ctx: unknown commit or branch: nowhere\n'],
    ];
    for (const [args, code, stderr] of cases) {
      const r = ctx(store, args, { env });
      expect([r.code, r.stdout, r.stderr]).toEqual([code, '', stderr]);
    }
    expect([refSnapshot(store), objectCount(store)]).toEqual(before);
  });
});

describe('cursors travel', () => {
  let server: GitServer;
  let root: string;
  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'ctx-agents-'));
    mkdirSync(join(root, 'served'));
    server = await startGitServer(join(root, 'served'));
  });
  afterAll(async () => {
    await server?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it.each(['http', 'path'])('through a push and a fetch into a second store (%s remote), merged with the cursors there', (kind) => {
    const { store: a, ids } = designRoom();
    let url: string;
    if (kind === 'http') {
      createServedRepo(server.root, 'r.git');
      url = `${server.url}/r.git`;
    } else {
      url = join(tempDir(), 'remote.git');
      git(url, ['init', '--bare', '-q']);
    }
    run(a, ['remote', 'add', 'origin', url]);
    run(a, ['push']);
    const b = newStore();
    run(b, ['remote', 'add', 'origin', url]);
    run(b, ['fetch']);
    // the fetched chain names its branch as the cursors do
    expect(json(b, ['cursor', 'show', 'origin/design-room', 'coder'])).toEqual(json(a, ['cursor', 'show', 'design-room', 'coder']));
    expect(chat(b, ['origin/design-room', '--for', 'coder'])).toEqual(chat(a, ['design-room', '--for', 'coder']));
    // b moves reviewer's cursor; a moves planner's; after a push and a fetch, a has both
    run(b, ['pull', 'origin', 'design-room']);
    run(b, ['cursor', 'set', 'design-room', 'reviewer', ids[3]], undefined, { CTX_NOW: '2026-01-02T05:00:00.000Z' });
    run(b, ['push']);
    run(a, ['cursor', 'set', 'design-room', 'planner'], undefined, { CTX_NOW: '2026-01-02T05:00:01.000Z' });
    run(a, ['fetch']);
    expect(json(a, ['cursor', 'show', 'design-room', 'reviewer']).id).toBe(ids[3]);
    expect(json(a, ['cursor', 'show', 'design-room', 'planner']).id).toBe(ids[4]);
    expect(chat(a, ['design-room', '--for', 'reviewer']).at(-1)).toEqual(say('user', 'While you were away:\n\n[coder] Fixed eviction'));
  });
});

describe('the library', () => {
  it('checkpoint author and thread, store.cursor, store.materialize(id, { for, thread })', async () => {
    const { openStore } = await import('../src/index.js');
    const store = await openStore(join(tempDir(), '.ctx'), { create: true, env: FIXED_ENV });
    try {
      const bytes = (m: object[]) => Buffer.from(JSON.stringify(m));
      await store.checkpoint({ branch: 'room', format: 'openai-chat-v1', artifact: bytes([say('user', 'go'), say('assistant', 'plan')]), author: 'planner', thread: 't1' });
      const seen = await store.cursor('room', 'coder');
      await store.checkpoint({ branch: 'room', format: 'openai-chat-v1', artifact: bytes([say('assistant', 'done')]), author: 'coder', thread: 't2' });
      expect((await store.cursorOf('room', 'coder')).id).toBe(seen.id);
      const view = await store.materialize('room', { for: 'coder', format: 'openai-chat-v1' });
      expect(JSON.parse(Buffer.from(view.bytes).toString())).toEqual([say('user', 'go'), say('user', '[planner] plan'), say('user', 'While you were away:\n\n[coder] done')]);
      const t2 = await store.materialize('room', { thread: 't2' });
      expect(JSON.parse(Buffer.from(t2.bytes).toString())).toEqual([say('assistant', 'done')]);
      expect((await store.threads('room')).map((t) => [t.thread, t.author, t.commits])).toEqual([
        ['t2', 'coder', 1],
        ['t1', 'planner', 1],
      ]);
    } finally {
      await store.close();
    }
  });
});

describeCorpus('threads on corpus transcripts', () => {
  it('an imported Claude Code session as one thread, a planner turn as another: exact commits and messages of each', () => {
    const store = newStore();
    run(store, ['import', 'claude-code', join(CORPUS, 'claude-code', 'jnarowski__agentcmd__full-session-five.jsonl'), '-b', 'room', '--thread', '9f2c', '--author', 'coder']);
    run(store, ['checkpoint', '-b', 'room', '--format', 'claude-code-v1', '--thread', '7a01', '--author', 'planner', '-'], `${JSON.stringify({ type: 'user', message: { role: 'user', content: 'status?' } })}\n`);
    const threads = jsonLines(store, ['threads', 'room']);
    expect(threads.map((t) => [t.thread, t.author, t.commits])).toEqual([
      ['7a01', 'planner', 1],
      ['9f2c', 'coder', 1],
    ]);
    expect(threads[1].summary).toBe('search the web for the claude code response types');
    expect(chat(store, ['room', '--thread', '9f2c'])).toHaveLength(9);
    expect(chat(store, ['room', '--thread', '7a01'])).toEqual([say('user', 'status?')]);
    expect(chat(store, ['room'])).toHaveLength(10);
    // planner sees the coder's words attributed, not its tool traffic
    const planner = chat(store, ['room', '--for', 'planner']);
    expect(planner.map((m: { role: string }) => m.role)).toEqual(['user', 'user', 'user', 'user', 'user']);
    expect(planner.filter((m: { content: string }) => m.content.startsWith('[coder] '))).toHaveLength(3);
  });
});
