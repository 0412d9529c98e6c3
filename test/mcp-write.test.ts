// `ctx mcp` writes: only with --write, as the agent of the server's configuration (--agent,
// CTX_AGENT), never one a tool argument names: cursors, state under the policy, fork, save, restore.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ctx } from './helpers.js';
import { FIND_ENV, findStore } from './find-store.js';
import { call, mcpClient } from './mcp-kit.js';

const { CTX_SESSION: _, ...ENV } = FIND_ENV as Record<string, string>;
const AUTH_TIP = 'ctx-d1c631f8b6e497e8eac524d6ed0abc12180dcaca';
const AUTH_1 = 'ctx-7988b8e12700625f47321de149399aa1d8ac43a9';

describe('ctx mcp --write', () => {
  let dir: string;
  let store: string;
  const cli = (args: string[]) => ctx(store, args, { env: FIND_ENV });
  const json = (args: string[]) => JSON.parse(cli([...args, '--json']).stdout);
  const lines = (args: string[]) => cli([...args, '--json']).stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
  /** A client for the length of `body`. */
  const withClient = async (args: string[], env: Record<string, string>, body: (c: Awaited<ReturnType<typeof mcpClient>>) => Promise<void>) => {
    const c = await mcpClient(store, args, { ...ENV, ...env });
    try {
      await body(c);
    } finally {
      await c.close();
    }
  };
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'ctx-mcp-write-'));
    store = findStore(dir);
    expect(cli(['state', 'init', 'room']).code).toBe(0);
  }, 120_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('without --write, write tools do not exist: tools/call names the tool not found, and nothing is written', async () => {
    const refs = cli(['branch']).stdout;
    await withClient(['--agent', 'planner'], {}, async (c) => {
      for (const [name, args] of [['fork', { id: 'alice/auth' }], ['news_seen', { branch: 'alice/auth' }], ['state_set', { branch: 'room', key: 'llm.provider', value: 'x' }], ['save', { branch: 'alice/auth', description: 'd' }], ['restore', { name: 'x' }]] as const)
        expect(await call(c, name, args)).toEqual({ isError: true, text: `MCP error -32602: Tool ${name} not found`, data: undefined });
    });
    expect(cli(['branch']).stdout).toBe(refs);
    expect(json(['cursor', 'show', 'alice/auth', 'planner'])).toEqual({ v: 1, branch: 'alice/auth', agent: 'planner', id: null, at: null });
  });

  it("news and news_seen: the agent's own cursor (from --agent or CTX_AGENT, never an argument) moves and bounds what is new", async () => {
    await withClient(['--write', '--agent', 'planner'], {}, async (c) => {
      const before = await call(c, 'news', { branch: 'alice/auth' });
      expect(before.data).toMatchObject({ branch: 'alice/auth', agent: 'planner', cursor: null, cursor_at: null, tip: AUTH_TIP, new: 4, truncated: false });
      expect((before.data!.commits as { id: string }[]).map((x) => x.id)).toEqual(lines(['log', 'alice/auth']).map((x) => x.id));
      // an `agent` argument is not in the schema: dropped, the cursor is still planner's
      const moved = await call(c, 'news_seen', { branch: 'alice/auth', id: 'alice/auth~1', agent: 'reviewer' });
      expect(moved).toEqual({ isError: false, text: `planner has seen alice/auth up to ${AUTH_1}`, data: { v: 1, branch: 'alice/auth', agent: 'planner', id: AUTH_1, at: '2026-11-21T00:00:00.000Z' } });
      expect(json(['cursor', 'show', 'alice/auth', 'planner'])).toEqual(moved.data);
      const after = await call(c, 'news', { branch: 'alice/auth' });
      expect(after.data).toMatchObject({ cursor: AUTH_1, new: 1, commits: [expect.objectContaining({ id: AUTH_TIP })] });
      expect(after.text.split('\n')[0]).toBe(`1 new on alice/auth since ${AUTH_1} (planner, 2026-11-21T00:00:00.000Z)`);
      expect(await call(c, 'news_seen', { branch: 'alice/auth', id: 'bob/log' })).toEqual({ isError: true, text: 'ctx-df9f268860aa85a287f40e698f43155956283836 is not on branch alice/auth', data: undefined });
    });
    expect(json(['cursor', 'show', 'alice/auth', 'reviewer']).id).toBe(null);
    await withClient(['--write'], { CTX_AGENT: 'reviewer' }, async (c) => {
      expect((await call(c, 'news', { branch: 'alice/auth' })).data).toMatchObject({ agent: 'reviewer', cursor: null, new: 4 });
    });
    await withClient(['--write'], {}, async (c) => {
      for (const name of ['news', 'news_seen'])
        expect(await call(c, name, { branch: 'alice/auth' })).toEqual({ isError: true, text: `${name} needs the agent this server is: start ctx mcp with --agent NAME (or CTX_AGENT)`, data: undefined });
    });
  });

  it("state_set writes as the server's agent under the branch's policy; an agent argument changes nothing", async () => {
    await withClient(['--write', '--agent', 'validation'], {}, async (c) => {
      const ok = await call(c, 'state_set', { branch: 'room', key: 'diagnostics.warnings', value: [{ message: 'slow retrieval' }] });
      expect(ok.isError).toBe(false);
      expect(ok.data).toEqual({ v: 1, branch: 'room', id: 'ctx-1d1be11f979cac9d3ae2191a3dfb9ec5201d6759', op: 'set', agent: 'validation', keys: ['diagnostics.warnings'], diff: { diagnostics: { added: ['warnings'], changed: [], removed: [] } } });
      expect(json(['log', 'room', '-n', '1']).id).toBe(ok.data!.id);
      expect(json(['state', 'get', 'room', 'diagnostics.warnings'])).toEqual({ v: 1, key: 'diagnostics.warnings', value: [{ message: 'slow retrieval' }] });
      expect(await call(c, 'state_get', { id: 'room', key: 'diagnostics.warnings' })).toEqual({ isError: false, text: JSON.stringify([{ message: 'slow retrieval' }], null, 2), data: { v: 1, key: 'diagnostics.warnings', value: [{ message: 'slow retrieval' }] } });
      const tip = cli(['log', 'room', '-n', '1', '--json']).stdout;
      const refused = cli(['state', 'set', 'room', 'llm.provider', 'openai', '--as', 'validation']);
      expect(refused.code).toBe(7);
      for (const args of [{ branch: 'room', key: 'llm.provider', value: 'openai' }, { branch: 'room', key: 'llm.provider', value: 'openai', agent: 'orchestrator', as: 'orchestrator' }])
        expect(await call(c, 'state_set', args)).toEqual({ isError: true, text: refused.stderr.replace(/^ctx: /, '').trimEnd(), data: undefined });
      expect(cli(['log', 'room', '-n', '1', '--json']).stdout).toBe(tip);
    });
    await withClient(['--write'], {}, async (c) => {
      expect(await call(c, 'state_set', { branch: 'room', key: 'llm.provider', value: 'x' })).toEqual({ isError: true, text: 'state_set needs the agent this server is: start ctx mcp with --agent NAME (or CTX_AGENT)', data: undefined });
    });
  });

  it('fork, save and restore: a branch at a commit, a saved context, and it back on a branch', async () => {
    await withClient(['--write', '--agent', 'planner'], {}, async (c) => {
      expect(await call(c, 'fork', { id: 'alice/auth~1', name: 'alice/retry' })).toEqual({ isError: false, text: `alice/retry ${AUTH_1}`, data: { v: 1, branch: 'alice/retry', id: AUTH_1 } });
      expect(await call(c, 'fork', { id: 'alice/auth', name: 'alice/retry' })).toMatchObject({ isError: true, text: 'branch alice/retry already exists' });
      const saved = await call(c, 'save', { branch: 'alice/retry', description: 'before the retry rewrite', name: 'retry-start' });
      expect(saved.data).toEqual(lines(['sessions']).find((s) => s.name === 'retry-start'));
      expect(saved.data).toMatchObject({ name: 'retry-start', id: AUTH_1, branch: 'alice/retry', description: 'before the retry rewrite', saved_at: '2026-11-21T00:00:00.000Z' });
      const restored = await call(c, 'restore', { name: 'retry-start', branch: 'alice/auth' });
      const tip = json(['log', 'alice/auth', '-n', '1']);
      expect(restored.data).toEqual({ v: 1, name: 'retry-start', id: tip.id, branch: 'alice/auth', parent: AUTH_TIP, saved: AUTH_1, format: 'claude-code-v1', message_count: tip.message_count });
      expect(tip.parent).toBe(AUTH_TIP);
    });
  });
});
