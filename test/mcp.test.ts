// `ctx mcp` through a real MCP client (the SDK's Client over stdio, spawning bin/ctx): tools/list
// pinned, each tool on a store of real fixture sessions against the CLI's own --json output, the
// --write gate, the agent identity from the server's configuration, cursors, resources.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES, ctx } from './helpers.js';
import { FIND_ENV, findStore } from './find-store.js';
import { call, mcpClient } from './mcp-kit.js';

const READ_TOOLS = ['search', 'files', 'log', 'show', 'read', 'current', 'news', 'state_get'];
const WRITE_TOOLS = ['news_seen', 'state_set', 'fork', 'save', 'restore'];
/** Each tool's input properties and which are required, as tools/list shows them (docs/mcp.md). */
const INPUTS: Record<string, [string[], string[]]> = {
  search: [['pattern', 'fixed', 'ignore_case', 'role', 'branches', 'since', 'limit'], ['pattern']],
  files: [['path', 'branches', 'limit'], ['path']],
  log: [['id', 'since', 'thread', 'limit'], []],
  show: [['id'], ['id']],
  read: [['id', 'from', 'last', 'format', 'max_tokens'], ['id']],
  current: [[], []],
  news: [['branch', 'limit'], ['branch']],
  state_get: [['id', 'key'], ['id']],
  news_seen: [['branch', 'id'], ['branch']],
  state_set: [['branch', 'key', 'value', 'delete', 'retry'], ['branch', 'key']],
  fork: [['id', 'name'], ['id']],
  save: [['branch', 'description', 'name'], ['branch', 'description']],
  restore: [['name', 'branch'], ['name']],
};
const CLAUDE_SESSION = '7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f';
const AUTH_TIP = 'ctx-d1c631f8b6e497e8eac524d6ed0abc12180dcaca';
/** The servers' environment: the find store's clock and identity, no session of its own. */
const { CTX_SESSION: _, ...ENV } = FIND_ENV as Record<string, string>;

describe('ctx mcp', () => {
  let dir: string;
  let store: string;
  let ro: Client;
  const cli = (args: string[]) => ctx(store, args, { env: FIND_ENV });
  const jsonLines = (args: string[]) => cli([...args, '--json']).stdout.trimEnd().split('\n').filter(Boolean).map((l) => JSON.parse(l));
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ctx-mcp-'));
    store = findStore(dir);
    ro = await mcpClient(store, [], ENV);
  }, 120_000);
  afterAll(async () => {
    await ro?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('lists the read tools without --write, each with its input schema; with --write the write tools after them', async () => {
    const { tools } = await ro.listTools();
    expect(tools.map((t) => t.name)).toEqual(READ_TOOLS);
    const rw = await mcpClient(store, ['--write', '--agent', 'planner'], ENV);
    try {
      const all = (await rw.listTools()).tools;
      expect(all.map((t) => t.name)).toEqual([...READ_TOOLS, ...WRITE_TOOLS]);
      for (const t of all) {
        const schema = t.inputSchema as { properties?: Record<string, unknown>; required?: string[] };
        expect([t.name, Object.keys(schema.properties ?? {}), schema.required ?? []]).toEqual([t.name, ...INPUTS[t.name]]);
        expect(t.description!.length).toBeGreaterThan(40);
      }
      expect((all.find((t) => t.name === 'search')!.inputSchema.properties as Record<string, unknown>).limit).toEqual({ type: 'integer', minimum: 1, maximum: 500, default: 50, description: 'at most this many items (1 to 500; default 50)' });
    } finally {
      await rw.close();
    }
  });

  it('files: the CLI records of ctx files, bounded by limit, with the total', async () => {
    const r = await call(ro, 'files', { path: 'src/auth.ts', limit: 3 });
    const all = jsonLines(['files', 'src/auth.ts']);
    expect(r.isError).toBe(false);
    expect(r.data).toEqual({ touches: all.slice(0, 3), total: all.length, truncated: true });
    expect(all.length).toBe(10);
    expect(r.text.split('\n')[0]).toBe('2026-11-20T11:00:05.000Z run run_shell_command ctx-df9f268860aa85a287f40e698f43155956283836 bob/log cccc9999-2222-4333-8444-555566667777 src/auth.ts');
    expect(r.text.split('\n')[3]).toBe('… 7 more');
    expect(await call(ro, 'files', { path: 'src/nothing.ts' })).toEqual({ isError: false, text: 'no tool call touched that path', data: { touches: [], total: 0, truncated: false } });
  });

  it('search: the hits of ctx grep with role, branch and since filters, cut at limit', async () => {
    const r = await call(ro, 'search', { pattern: 'auth\\.ts', role: 'tool', branches: ['alice/auth'], limit: 2 });
    expect(r.data).toEqual({ hits: jsonLines(['grep', 'auth\\.ts', '--role', 'tool', 'alice/auth']).slice(0, 2), truncated: true });
    const hit = (r.data!.hits as { commit: string; entry: number; role: string }[])[0];
    expect(hit).toMatchObject({ commit: 'ctx-9fc7b5d26e76fb6e436cb31b951d0b4a4e650f65', branch: 'alice/auth', role: 'tool' });
    const since = await call(ro, 'search', { pattern: 'auth', since: '2026-11-20T10:30:00Z', limit: 500 });
    expect(since.data!.hits).toEqual(jsonLines(['grep', 'auth', '--since', '2026-11-20T10:30:00Z']));
    expect((since.data!.hits as { branch: string }[]).every((h) => h.branch === 'bob/log')).toBe(true);
    expect(await call(ro, 'search', { pattern: 'no such words anywhere', fixed: true })).toEqual({ isError: false, text: 'no match', data: { hits: [], truncated: false } });
  });

  it('log and show: the records of ctx log --json and ctx show --json', async () => {
    const log = await call(ro, 'log', { id: 'alice/auth', limit: 2 });
    expect(log.data).toEqual({ commits: jsonLines(['log', 'alice/auth', '-n', '2']), truncated: true });
    expect((log.data!.commits as { id: string }[])[0].id).toBe(AUTH_TIP);
    const all = await call(ro, 'log', { limit: 500 });
    expect(all.data).toEqual({ commits: jsonLines(['log', '--all']), truncated: false });
    const show = await call(ro, 'show', { id: 'alice/auth~1' });
    expect(show.data).toEqual(JSON.parse(cli(['show', 'alice/auth~1', '--json']).stdout));
    expect(JSON.parse(show.text)).toEqual(show.data);
  });

  it('read: the last messages as markdown numbered where they stand, the neutral model within max_tokens, a commit range', async () => {
    const r = await call(ro, 'read', { id: 'alice/auth', last: 2 });
    const text = '# Context\n\n## 20. User · 2026-11-20T09:03:00.000Z\n\n<system-reminder>\nThe TodoWrite tool hasn\'t been used recently.\n</system-reminder>\n\nThanks, commit it\n\n## 21. Assistant · 2026-11-20T09:03:01.000Z\n\nCommitted.\n';
    expect(r).toEqual({ isError: false, text, data: { id: AUTH_TIP, from: 'ctx-dbf2fe9e6707937bc0c32d511b7d0395235f9361', commits: 4, total: 21, offset: 19, count: 2, omitted: 0, tokens: 77, format: 'markdown', text } });
    const neutral = await call(ro, 'read', { id: 'alice/auth', format: 'neutral', max_tokens: 100 });
    const last = { role: 'assistant', content: [{ type: 'text', text: 'Committed.' }], timestamp: '2026-11-20T09:03:01.000Z', ids: { uuid: '00000000-0000-4000-8000-000000000022', message_id: 'msg_a8' } };
    expect(neutral.data).toEqual({ id: AUTH_TIP, from: 'ctx-dbf2fe9e6707937bc0c32d511b7d0395235f9361', commits: 4, total: 21, offset: 20, count: 1, omitted: 20, tokens: 67, format: 'neutral', messages: [last] });
    expect(JSON.parse(neutral.text)).toEqual([last]);
    // the whole context as the neutral model is what materialize gives through the same reader
    const whole = await call(ro, 'read', { id: 'alice/auth', format: 'neutral', max_tokens: 100_000 });
    expect(whole.data).toMatchObject({ total: 21, offset: 0, count: 21, omitted: 0 });
    const range = await call(ro, 'read', { id: 'alice/auth', from: 'alice/auth~1', format: 'neutral', max_tokens: 100_000 });
    expect(range.data).toMatchObject({ from: 'ctx-7988b8e12700625f47321de149399aa1d8ac43a9', commits: 2, total: 4, offset: 0, count: 4 });
    expect(await call(ro, 'read', { id: 'alice/auth', max_tokens: 100, last: 1, format: 'markdown' })).toMatchObject({ isError: false, data: { count: 1 } });
  });

  it('current: the tip of the session named by --session, CTX_SESSION, or the runtime that started the server', async () => {
    const expected = JSON.parse(cli(['current', '--session', CLAUDE_SESSION, '--json']).stdout);
    expect(expected.id).toBe(AUTH_TIP);
    for (const [args, env] of [[['--session', CLAUDE_SESSION], {}], [[], { CTX_SESSION: CLAUDE_SESSION }]] as const) {
      const client = await mcpClient(store, [...args], { ...ENV, ...env });
      try {
        expect(await call(client, 'current')).toEqual({ isError: false, text: AUTH_TIP, data: { ...expected, session: CLAUDE_SESSION } });
      } finally {
        await client.close();
      }
    }
    // Claude Code names its session in the environment of what it starts; its transcript says the cwd
    const config = join(dir, 'claude-config');
    mkdirSync(join(config, 'projects', '-home-alice-app'), { recursive: true });
    copyFileSync(join(FIXTURES, 'find', 'claude-tools.jsonl'), join(config, 'projects', '-home-alice-app', `${CLAUDE_SESSION}.jsonl`));
    const started = await mcpClient(store, [], { ...ENV, CLAUDE_CONFIG_DIR: config, CLAUDE_CODE_SESSION_ID: CLAUDE_SESSION });
    try {
      expect(await call(started, 'current')).toEqual({ isError: false, text: AUTH_TIP, data: { ...expected, session: CLAUDE_SESSION } });
    } finally {
      await started.close();
    }
    expect(await call(ro, 'current')).toEqual({ isError: true, text: 'no calling session: start ctx mcp from a runtime session, or with --session ID (or CTX_SESSION)', data: undefined });
  });
});
