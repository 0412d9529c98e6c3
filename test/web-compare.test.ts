// The web view's records for comparing, file history and usage (issue 24), over HTTP: the fork point
// of two commits and their continuations, an edit's lines, usage as `ctx usage --json` prints it, and
// grep's word switch as `ctx grep -w` takes it.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FIXTURES, ctx } from './helpers.js';
import { USAGE_ENV, usageStore } from './usage-kit.js';
import { FIXED, fixtureStore, startServe, type Served } from './serve-kit.js';

const running: Served[] = [];
afterEach(async () => {
  while (running.length) await running.pop()!.stop();
});
async function serve(store: string, env: Record<string, string> = FIXED): Promise<Served> {
  const s = await startServe(store, [], env);
  running.push(s);
  return s;
}
const cli = (store: string, args: string[], env: Record<string, string> = FIXED) => {
  const r = ctx(store, args, { env });
  expect(r.code, r.stderr).toBe(0);
  return r.stdout;
};
const get = async (url: string) => {
  const res = await fetch(url);
  return { status: res.status, body: await res.text() };
};
const idOf = (store: string, spec: string) => JSON.parse(cli(store, ['show', spec, '--json'])).id as string;
/** A message as role and text, its blocks' texts joined. */
const said = (m: { role: string; content: { type: string; text?: string }[] }) => `${m.role}: ${m.content.map((b) => b.text ?? `[${b.type}]`).join(' ')}`;

describe('the web view: compare, file history, usage', () => {
  it('compares two forks from their fork point: the commit where they meet, the shared prefix, each continuation in order', async () => {
    const store = fixtureStore();
    const s = await serve(store);
    const [tip, fork, base] = [idOf(store, 'alice/auth-fix'), idOf(store, 'review/finding-1'), idOf(store, 'alice/auth-fix~3')];
    const d = JSON.parse((await get(`${s.url}api/diff?a=alice/auth-fix&b=review/finding-1`)).body);
    expect(Object.keys(d).join(' ')).toBe('v a b stop base fork_point common total_a total_b only_a only_b');
    expect([d.v, d.a, d.b, d.stop, d.base, d.fork_point, d.common, d.total_a, d.total_b]).toEqual([1, tip, fork, 'root', base, 6, 7, 11, 8]);
    expect(d.only_a.map((o: { index: number }) => o.index)).toEqual([7, 8, 9, 10]);
    expect(d.only_a.map((o: { message: never }) => said(o.message))).toEqual([
      expect.stringMatching(/^user: This session is being continued from a previous conversation that ran out of context\./),
      'assistant: Done: `parseTodos` now skips blank lines instead of stopping at the first one.',
      'user: Thanks. Which files did you change?',
      'assistant: Only src/list.ts: one line in `parseTodos`.',
    ]);
    expect(d.only_b).toEqual([{ index: 7, message: { role: 'user', content: [{ type: 'text', text: 'Review: is the blank-line fix covered by a test?' }], timestamp: '2026-03-05T10:00:00.000Z', ids: { uuid: 'r-1' } } }]);
    // a long continuation comes a page at a time: the first `limit`, the page asks /api/messages for the rest
    const two = JSON.parse((await get(`${s.url}api/diff?a=alice/auth-fix&b=review/finding-1&limit=2`)).body);
    expect([two.total_a, two.only_a.map((o: { index: number }) => o.index), two.only_b.map((o: { index: number }) => o.index)]).toEqual([11, [7, 8], [7]]);
    expect(two.only_a).toEqual(d.only_a.slice(0, 2));
    // the prefix is the fork's first 7 messages, as /api/messages reads them from the root
    const root = JSON.parse((await get(`${s.url}api/messages?id=review/finding-1&stop=root&limit=7`)).body);
    const tipRoot = JSON.parse((await get(`${s.url}api/messages?id=alice/auth-fix&stop=root&limit=7`)).body);
    expect(tipRoot.messages).toEqual(root.messages);
    // from the nearest compaction the tip's context begins with its summary: nothing in common, the chains still meet
    const compacted = JSON.parse((await get(`${s.url}api/diff?a=alice/auth-fix&b=review/finding-1&stop=compaction`)).body);
    expect([compacted.stop, compacted.base, compacted.fork_point, compacted.common, compacted.only_a.length, compacted.only_b.length]).toEqual(['compaction', base, null, 0, 4, 8]);
    // a commit and its ancestor: the ancestor is the base, its whole context in common
    const parent = JSON.parse((await get(`${s.url}api/diff?a=alice/auth-fix~1&b=alice/auth-fix`)).body);
    expect([parent.base, parent.fork_point, parent.common, parent.only_a, parent.only_b.map((o: { index: number }) => o.index)]).toEqual([idOf(store, 'alice/auth-fix~1'), 8, 9, [], [9, 10]]);
  });

  it('two sessions that share no commit: base and fork point null', async () => {
    const store = fixtureStore();
    cli(store, ['import', 'codex', join(FIXTURES, 'codex', 'rollout-2026-11-22T21-04-49-01a20513-6ef2-75e0-a186-7b61e34882c3.jsonl'), '-b', 'codex-run']);
    const s = await serve(store);
    const d = JSON.parse((await get(`${s.url}api/diff?a=alice/auth-fix&b=codex-run`)).body);
    expect([d.base, d.fork_point, d.common, d.only_a.length]).toEqual([null, null, 0, 11]);
    expect(JSON.parse((await get(`${s.url}api/diff?a=alice/auth-fix`)).body).message).toBe('b is missing');
  });

  it("an edit's lines: what the Edit call took out and put in; a read has none", async () => {
    const store = fixtureStore();
    const s = await serve(store);
    const [edit, read] = cli(store, ['files', 'src/list.ts', '--json']).trim().split('\n').map((l) => JSON.parse(l));
    const q = (t: { commit: string; entry: number; path: string }) => `commit=${t.commit}&entry=${t.entry}&path=${encodeURIComponent(t.path)}`;
    expect(await get(`${s.url}api/edits?${q(edit)}`)).toEqual({
      status: 200,
      body: `${JSON.stringify({ v: 1, commit: edit.commit, entry: 1, call: 'toolu_01Qa9sW3eD7rF1tG5yH8uJ2i', tool: 'Edit', action: 'edit', path: '/Users/alex/src/todo-cli/src/list.ts', removed: ["    if (line === '') break;"], added: ["    if (line.trim() === '') continue;"] })}\n`,
    });
    expect(JSON.parse((await get(`${s.url}api/edits?${q(read)}`)).body)).toEqual({ v: 1, commit: read.commit, entry: 1, call: expect.any(String), tool: 'Read', action: 'read', path: '/Users/alex/src/todo-cli/src/list.ts', removed: [], added: [] });
    // another path at the same call: nothing
    expect((await get(`${s.url}api/edits?${q({ ...edit, path: 'src/other.ts' })}`)).body).toBe('');
    const past = await get(`${s.url}api/edits?${q({ ...edit, entry: 99 })}`);
    expect([past.status, JSON.parse(past.body).message]).toEqual([400, "entry 99 is past the commit's messages (3)"]);
    expect(JSON.parse((await get(`${s.url}api/edits?commit=${edit.commit}&path=x`)).body).message).toBe('entry is missing');
  });

  it('usage is ctx usage --json, byte for byte, for every grouping and a since', async () => {
    const env = USAGE_ENV;
    const store = usageStore();
    const s = await serve(store, env);
    const cases = [
      ['', []],
      ['by=day', ['--by', 'day']],
      ['by=model', ['--by', 'model']],
      ['by=project', ['--by', 'project']],
      ['by=day&since=2026-03-04', ['--by', 'day', '--since', '2026-03-04']],
      ['since=7d', ['--since', '7d']],
    ] as const;
    // the CLI's first, then the server's back to back (a request after seconds idle can meet the server closing its kept-alive socket)
    const want = cases.map(([q, args]) => [q, { status: 200, body: cli(store, ['usage', ...args, '--json'], env) }]);
    const got = [];
    for (const [q] of cases) got.push([q, await get(`${s.url}api/usage?${q}`)]);
    expect(got).toEqual(want);
    expect((want[2][1] as { body: string }).body.trim().split('\n').length).toBe(5);
    const bad = await get(`${s.url}api/usage?by=week`);
    expect([bad.status, JSON.parse(bad.body).message]).toEqual([400, "by takes session, day, model, project, not 'week'"]);
    expect(JSON.parse((await get(`${s.url}api/usage?since=soon`)).body).message).toBe("since: not a duration or a time: 'soon' (e.g. 24h, 7d, 2026-11-20T14:03:00Z, all)");
  });

  it('grep with w=1 is ctx grep -w --json, and its marks cover the word alone', async () => {
    const store = fixtureStore();
    const s = await serve(store);
    const want = cli(store, ['grep', '-w', '-i', 'line', '--json']);
    expect(want.trim().split('\n').length).toBeLessThan(cli(store, ['grep', '-i', 'line', '--json']).trim().split('\n').length);
    expect((await get(`${s.url}api/grep?q=line&w=1&i=1`)).body).toBe(want);
    const marked = (await get(`${s.url}api/grep?q=line&w=1&i=1&mark=1`)).body.trim().split('\n').map((l) => JSON.parse(l));
    expect(marked.map((h) => h.snippet.slice(h.mark[0], h.mark[1]))).toEqual(marked.map(() => 'line'));
  });
});
