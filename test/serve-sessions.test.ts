// /api/sessions: the start page's records, exact, on a store of every runtime's fixture and two forks.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ctx, newStore } from './helpers.js';
import { FIXED, startServe, type Served } from './serve-kit.js';
import { sessionsStore } from './sessions-kit.js';

const running: Served[] = [];
afterEach(async () => {
  while (running.length) await running.pop()!.stop();
});

const FIELDS = ['v', 'branch', 'id', 'title', 'titled', 'runtime', 'format', 'model', 'project', 'created_at', 'updated_at', 'commits', 'message_count', 'token_count', 'fork'];
const FIRST_PROMPT = 'The `todo list` command prints nothing when todos.txt starts with a blank line. Can you find out why?';
/** branch, title, titled, runtime, format, model, project, created, updated, commits, messages, tokens, fork (branch, at) */
const EXPECTED = [
  ['carol/file', '"make a file"', false, 'opencode', 'opencode-session-v1', 'mock-model', '/home/alice/proj', '2026-11-27T16:02:27.341Z', '2026-11-27T16:02:27.341Z', 1, 3, 26, null],
  ['dave/copilot', 'make a file', false, 'copilot', 'copilot-events-v1', null, null, '2026-11-27T15:54:57.496Z', '2026-11-27T15:55:35.086Z', 10, 11, 95, null],
  ['alice/merge', 'Fix and merge todo list blank-line bug', true, 'claude-code', 'claude-code-v1', 'claude-opus-5-5', '/home/alex/src/todo-cli', '2026-11-20T11:00:00.000Z', '2026-11-20T11:00:06.000Z', 2, 6, 68, null],
  ['review/finding-1', FIRST_PROMPT, false, 'claude-code', 'claude-code-v1', 'claude-opus-4-5-20251101', '/Users/alex/src/todo-cli', '2026-03-04T09:12:09.381Z', '2026-03-05T10:00:00.000Z', 3, 8, 240, ['alice/auth-fix', 'alice/auth-fix~3']],
  ['alice/auth-fix', FIRST_PROMPT, false, 'claude-code', 'claude-code-v1', 'claude-opus-4-5-20251101', '/Users/alex/src/todo-cli', '2026-03-04T09:12:09.381Z', '2026-03-04T09:15:05.039Z', 5, 11, 388, null],
  ['alice/side', FIRST_PROMPT, false, 'claude-code', 'claude-code-v1', 'claude-opus-4-5-20251101', '/Users/alex/src/todo-cli', '2026-03-04T09:12:09.381Z', '2026-03-04T09:14:30.452Z', 4, 9, 368, ['alice/auth-fix', 'alice/auth-fix~1']],
  ['bob/gemini', 'read notes.txt please', false, 'gemini-cli', 'gemini-cli-jsonl-v1', 'gemini-3.8-flash', null, '2026-03-02T09:00:34.648Z', '2026-03-02T09:00:34.648Z', 1, 5, 125, null],
  // a rollout without token_count events names no model or directory to the usage reader
  ['bob/notes', 'read notes.txt please', false, 'codex', 'codex-rollout-v1', null, null, '2026-03-01T10:00:07.000Z', '2026-03-01T10:00:07.000Z', 1, 5, 96, null],
  ['carol/done-flag', 'Add a --done flag to `todo list`.', false, 'pi', 'pi-session-v3', 'claude-sonnet-4-5', '/home/alice/todo', '2026-01-10T09:00:06.000Z', '2026-01-10T09:02:01.000Z', 4, 14, 123, null],
] as const;

describe('/api/sessions', () => {
  it('one record per branch, newest first: title, runtime, model, project, times, counts, the fork parent', async () => {
    const store = sessionsStore();
    const s = await startServe(store, [], FIXED);
    running.push(s);
    const id = (spec: string) => JSON.parse(ctx(store, ['show', spec, '--json'], { env: FIXED }).stdout).id;
    const res = await fetch(`${s.url}api/sessions`);
    expect([res.status, res.headers.get('content-type')]).toEqual([200, 'application/x-ndjson; charset=utf-8']);
    const records = (await res.text()).trimEnd().split('\n').map((l) => JSON.parse(l));
    for (const r of records) expect(Object.keys(r)).toEqual(FIELDS);
    const want = EXPECTED.map(([branch, title, titled, runtime, format, model, project, created_at, updated_at, commits, message_count, token_count, fork]) => ({
      v: 1, branch, id: id(branch), title, titled, runtime, format, model, project, created_at, updated_at, commits, message_count, token_count, fork: fork && { branch: fork[0], at: id(fork[1]) },
    }));
    expect(records).toEqual(want);
    // the counts are the chain's: the sum of its commits' meta.json counts, root to tip
    const log = ctx(store, ['log', 'alice/auth-fix', '--json'], { env: FIXED }).stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect([log.length, log.reduce((n, r) => n + r.message_count, 0), log.reduce((n, r) => n + r.token_count, 0)]).toEqual([5, 11, 388]);

    // asked again: the same records, from the facts kept by tip id (derived data beside the store)
    expect(existsSync(join(store, 'ctx', 'cache', 'sessions.json'))).toBe(true);
    const again = await (await fetch(`${s.url}api/sessions`)).text();
    expect(again.trimEnd().split('\n').map((l) => JSON.parse(l))).toEqual(want);
    // one more turn on a session: its record has the new tip, with the new commit counted in (its title and model carried)
    const line = `${JSON.stringify({ type: 'user', uuid: 'm-9', parentUuid: null, sessionId: 'm', timestamp: '2026-03-05T10:00:00.000Z', message: { role: 'user', content: 'And the changelog?' } })}\n`;
    expect(ctx(store, ['checkpoint', '-b', 'alice/merge', '--format', 'claude-code-v1', '-'], { env: FIXED, input: line }).code).toBe(0);
    const merge = ctx(store, ['log', 'alice/merge', '--json'], { env: FIXED }).stdout.trim().split('\n').map((l) => JSON.parse(l));
    const after = (await (await fetch(`${s.url}api/sessions`)).text()).trimEnd().split('\n').map((l) => JSON.parse(l));
    const top = after.find((r) => r.branch === 'alice/merge');
    expect(top).toEqual({ ...want[2], id: merge[0].id, updated_at: FIXED.CTX_NOW, commits: 3, message_count: merge.reduce((n, r) => n + r.message_count, 0), token_count: merge.reduce((n, r) => n + r.token_count, 0) });
    expect([top.message_count, top.token_count]).toEqual([7, 68 + merge[0].token_count]);
    // a cache that does not read is rebuilt, not trusted
    writeFileSync(join(store, 'ctx', 'cache', 'sessions.json'), '{"v":2,"tips":{"x":1}');
    expect((await (await fetch(`${s.url}api/sessions`)).text()).trimEnd().split('\n').map((l) => JSON.parse(l))).toEqual(after);
  });

  it('an empty store lists no session', async () => {
    const store = newStore();
    const s = await startServe(store, [], FIXED);
    running.push(s);
    const res = await fetch(`${s.url}api/sessions`);
    expect([res.status, await res.text()]).toEqual([200, '']);
  });
});
