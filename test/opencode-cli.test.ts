// The real `opencode` CLI against a mock Chat Completions API (test/opencode-cli.ts): its sessions
// import byte-exact as `opencode export` prints them, ctx's plugin captures every turn, a compaction
// becomes a compaction commit, and `ctx export opencode` writes sessions that `opencode import` and
// `opencode run -s` resume sending the model what opencode's own resume sends.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES, ctx, newStore, type Run } from './helpers.js';
import { agentMissing, describeAgent } from './agent-clis.js';
import { messagesOf, text, toolCall, type ChatScript } from './mock-chat-api.js';
import { agentRequests, exportSession, isTitleRequest, newSession, opencode, sandbox, type Sandbox } from './opencode-cli.js';

const TEST_TIMEOUT_MS = 900_000;
const ENV = { CTX_PRINCIPAL: 'alice', CTX_MACHINE: 'box', CTX_NOW: '2026-01-02T03:04:05.678Z' };

const open: Sandbox[] = [];
afterEach(async () => {
  while (open.length) await open.pop()!.mock.close();
});

/** Each prompt: a read of notes.txt, then text naming the request. */
const readThenText = (proj: string): ChatScript => (body) => {
  // named by the turn, not the request: a resume of a copy gets the answers the original's resume gets
  const turn = messagesOf(body).filter((m) => m.role === 'tool').length;
  return messagesOf(body).at(-1)?.role === 'tool' ? text(`answer ${turn}`) : toolCall(`call_${turn + 1}`, 'read', { filePath: join(proj, 'notes.txt') });
};

async function box(script?: (proj: string) => ChatScript, opts: Parameters<typeof sandbox>[1] = {}): Promise<Sandbox> {
  let proj = '';
  const sb = await sandbox((body, n) => (script ?? readThenText)(proj)(body, n), opts);
  proj = sb.proj;
  open.push(sb);
  return sb;
}

/** `ctx init` of a store at `store`, outside tempDir() (a shared sandbox's outlives a test). */
function storeIn(store: string): string {
  const r = ctx(store, ['init', store]);
  if (r.code !== 0) throw new Error(r.stderr);
  return store;
}

async function run(sb: Sandbox, args: string[]) {
  const r = await opencode(sb, args);
  expect(r.code, r.stderr).toBe(0);
  return r;
}

const materialized = (store: string, spec: string) => ctx(store, ['materialize', spec, '--stop', 'root'], { env: ENV }).bytes;
/** A session's messages by content, key order aside (opencode's client and its export order keys differently). */
const sorted = (v: unknown): unknown => (Array.isArray(v) ? v.map(sorted) : v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, x]) => [k, sorted(x)])) : v);
const messagesOfDoc = (bytes: Uint8Array | string) => sorted((JSON.parse(Buffer.from(bytes).toString('utf8')) as { messages: unknown[] }).messages);
/** The branch's commit types, oldest first (`ctx log --json`: a JSON line per commit, newest first). */
const commitTypes = (store: string, branch: string) =>
  ctx(store, ['log', branch, '--json'], { env: ENV }).stdout.split('\n').filter(Boolean).map((l) => (JSON.parse(l) as { type: string }).type).reverse();

/** Waits (the plugin's hook runs detached, after opencode exits) until the branch holds `n` commits. */
async function untilCommits(store: string, branch: string, n: number): Promise<void> {
  for (let i = 0; i < 240; i++) {
    if (commitTypes(store, branch).length >= n) return;
    await new Promise((d) => setTimeout(d, 500));
  }
  throw new Error(`${branch} never reached ${n} commits; hook log: ${ctx(store, ['hooks', 'status', 'opencode']).stdout}`);
}

describeAgent('opencode CLI (real)', agentMissing('opencode'), () => {
  // Two turns of one session ('read the notes', then 'and again'), run once with ctx's plugin installed:
  // the plugin's capture (in `hooked`), the imports of each turn's export, and the resume of an
  // exported copy are each checked on them. The sandbox outlives a test (tempDir() is emptied after each).
  describe('one session of two turns', () => {
    let root: string;
    let sb: Sandbox;
    let hooked: string;
    let installed: Run;
    let id: string;
    /** `opencode export` after each turn, and the plugin's capture in `hooked` once it has caught up with that turn */
    const exported: string[] = [];
    const captured: Uint8Array[] = [];
    beforeAll(async () => {
      root = mkdtempSync(join(tmpdir(), 'ctx-opencode-'));
      let proj = '';
      sb = await sandbox((body, n) => readThenText(proj)(body, n), { root });
      proj = sb.proj;
      hooked = storeIn(join(root, 'hooked'));
      sb.env = { ...sb.env, CTX_STORE: hooked };
      installed = ctx(hooked, ['hooks', 'install', 'opencode'], { cwd: sb.proj, env: ENV });
      if (installed.code !== 0) throw new Error(`ctx hooks install opencode: ${installed.stderr}`);
      id = await newSession(sb, 'read the notes');
      for (const [turn, next] of [[1, 'and again'], [2, null]] as const) {
        await untilCommits(hooked, `opencode/${id}`, turn);
        captured.push(materialized(hooked, `opencode/${id}`));
        exported.push(await exportSession(sb, id));
        if (next) await run(sb, ['run', '-s', id, next]);
      }
    }, TEST_TIMEOUT_MS);
    afterAll(async () => {
      await sb?.mock.close();
      if (root) rmSync(root, { recursive: true, force: true });
    });

    it('imports a real session byte-exact, a delta per turn; a later export appends only its new turn', () => {
      const store = newStore();
      const [first, second] = exported;
      writeFileSync(join(sb.root, 'one.json'), first);
      const r1 = ctx(store, ['import', 'opencode', join(sb.root, 'one.json')], { env: ENV });
      expect(r1.code, r1.stderr).toBe(0);
      expect(r1.stdout).toContain(`opencode/${id}`);
      expect(materialized(store, `opencode/${id}`).equals(Buffer.from(first))).toBe(true);
      expect(commitTypes(store, `opencode/${id}`)).toEqual(['delta']);

      writeFileSync(join(sb.root, 'two.json'), second);
      const r2 = ctx(store, ['import', 'opencode', join(sb.root, 'two.json')], { env: ENV });
      expect(r2.code, r2.stderr).toBe(0);
      expect(commitTypes(store, `opencode/${id}`)).toEqual(['delta', 'delta']);
      expect(materialized(store, `opencode/${id}`).equals(Buffer.from(second))).toBe(true);
      // the second turn's commit holds the turn's messages (and any earlier one opencode changed since)
      const mine = JSON.parse(ctx(store, ['materialize', `opencode/${id}`, '--stop', `opencode/${id}~1`], { env: ENV }).stdout) as { messages: { info: { role: string } }[] };
      expect(mine.messages[0].info.role).toBe('user');
    });

    it('captures every turn through the plugin ctx hooks install opencode writes', () => {
      expect(readFileSync(join(sb.proj, '.opencode', 'plugin', 'ctx.js'), 'utf8')).toContain('ctx-plugin v1');
      expect(messagesOfDoc(captured[0])).toEqual(messagesOfDoc(exported[0]));
      expect(commitTypes(hooked, `opencode/${id}`)).toEqual(['delta', 'delta']);
      expect(messagesOfDoc(captured[1])).toEqual(messagesOfDoc(exported[1]));
      const un = ctx(hooked, ['hooks', 'uninstall', 'opencode'], { cwd: sb.proj, env: ENV });
      expect(un.code, un.stderr).toBe(0);
      expect(ctx(hooked, ['hooks', 'status', 'opencode'], { cwd: sb.proj, env: ENV }).stdout).toBe('session.idle\t-\n');
    });

    it('an exported session resumes sending what opencode sends resuming its own', async () => {
      const store = newStore();
      writeFileSync(join(sb.root, 'two.json'), exported[1]);
      expect(ctx(store, ['import', 'opencode', join(sb.root, 'two.json')], { env: ENV }).code).toBe(0);
      const e = ctx(store, ['export', 'opencode', `opencode/${id}`, '--dir', sb.root, '--json'], { cwd: sb.proj, env: { ...ENV, HOME: sb.home, XDG_CONFIG_HOME: sb.env.XDG_CONFIG_HOME } });
      expect(e.code, e.stderr).toBe(0);
      const { session_id: copy, path } = JSON.parse(e.stdout) as { session_id: string; path: string };
      expect(path).toBe(join(sb.root, `${copy}.json`));
      await run(sb, ['import', path]);

      const before = sb.mock.requests.length;
      await run(sb, ['run', '-s', id, 'what next']);
      const own = agentRequests({ ...sb.mock, requests: sb.mock.requests.slice(before) });
      const mid = sb.mock.requests.length;
      await run(sb, ['run', '-s', copy, 'what next']);
      const theirs = agentRequests({ ...sb.mock, requests: sb.mock.requests.slice(mid) });
      expect(theirs.length).toBe(own.length);
      expect(theirs.map((r) => r.body.messages)).toEqual(own.map((r) => r.body.messages));
      expect(theirs.map((r) => r.body.tools)).toEqual(own.map((r) => r.body.tools));
    }, TEST_TIMEOUT_MS);
  });

  it('a Claude Code chain resumes in opencode with its tool calls and results paired', async () => {
    const sb = await box(() => () => text('resumed'));
    const store = newStore();
    const imp = ctx(store, ['import', 'claude-code', join(FIXTURES, 'claude-code', 'compacted-session.jsonl'), '-b', 'cc'], { env: ENV });
    expect(imp.code, imp.stderr).toBe(0);
    // the translated messages name the model of opencode's config, as a resume of them must
    const e = ctx(store, ['export', 'opencode', 'cc', '--stop', 'root', '--dir', sb.root, '--json'], { cwd: sb.proj, env: { ...ENV, HOME: sb.home, XDG_CONFIG_HOME: sb.env.XDG_CONFIG_HOME } });
    expect(e.code, e.stderr).toBe(0);
    const { session_id: copy, path } = JSON.parse(e.stdout) as { session_id: string; path: string };
    await run(sb, ['import', path]);
    await run(sb, ['run', '-s', copy, 'go on']);
    const [req] = agentRequests(sb.mock);
    const msgs = messagesOf(req.body);
    const calls = msgs.flatMap((m) => ((m.tool_calls as { id: string }[] | undefined) ?? []).map((c) => c.id));
    const results = msgs.filter((m) => m.role === 'tool').map((m) => m.tool_call_id);
    expect(calls.length).toBeGreaterThan(0);
    expect(results).toEqual(calls);
    expect(msgs.at(-1)).toMatchObject({ role: 'user' });
    expect(JSON.stringify(msgs.at(-1))).toContain('go on');
  }, TEST_TIMEOUT_MS);

  it('a compaction becomes a compaction commit', async () => {
    // past the model's context opencode compacts: the first answer reports more tokens than there is room for, every later one few
    let agent = 0;
    const sb = await box(() => () => text('plain answer'), {
      context: 4000,
      promptTokens: (_n, body) => (isTitleRequest(body) ? 10 : agent++ === 0 ? 3900 : 10),
    });
    const store = newStore();
    const id = await newSession(sb, 'first turn');
    await run(sb, ['run', '-s', id, 'second turn']);
    const doc = await exportSession(sb, id);
    writeFileSync(join(sb.root, 's.json'), doc);
    const imp = ctx(store, ['import', 'opencode', join(sb.root, 's.json')], { env: ENV });
    expect(imp.code, imp.stderr).toBe(0);
    // the first turn, then the compaction (its request, the summary, opencode's own "Continue" and what answered it), then the second turn
    expect(commitTypes(store, `opencode/${id}`)).toEqual(['delta', 'compaction', 'delta']);
    expect(materialized(store, `opencode/${id}`).equals(Buffer.from(doc))).toBe(true);
    const since = JSON.parse(ctx(store, ['materialize', `opencode/${id}`], { env: ENV }).stdout) as { messages: { info: { role: string; summary?: boolean }; parts: { type: string }[] }[] };
    expect(since.messages.length).toBe(6);
    expect(since.messages[0].parts.map((p) => p.type)).toEqual(['compaction']);
    expect(since.messages[1].info.summary).toBe(true);
  }, TEST_TIMEOUT_MS);
});
