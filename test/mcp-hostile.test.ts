// `ctx mcp` against hostile tool arguments and resource URIs: paths out of the store, symlinked refs,
// unknown ids, huge limits and budgets, regexes that would backtrack, wrong types. Each is an MCP
// error (a tool error, or a JSON-RPC error for a resource), never a crash, a hang or a read outside
// the store; the server answers the next call after every one.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ctx } from './helpers.js';
import { FIND_ENV, findStore } from './find-store.js';
import { call, mcpClient } from './mcp-kit.js';

const { CTX_SESSION: _, ...ENV } = FIND_ENV as Record<string, string>;
const AUTH_TIP = 'ctx-d1c631f8b6e497e8eac524d6ed0abc12180dcaca';
/** The one text content of a resource ctx serves (JSON, never a blob). */
function textOf(r: { contents: ({ text: string } | { blob: string })[] }): string {
  const [c] = r.contents;
  if (!('text' in c)) throw new Error(`a blob, not text: ${JSON.stringify(r.contents)}`);
  return c.text;
}
const invalid = (tool: string, rest: string) => `MCP error -32602: Input validation error: Invalid arguments for tool ${tool}: ${rest}`;

describe('ctx mcp: hostile arguments', () => {
  let dir: string;
  let store: string;
  let c: Client;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ctx-mcp-hostile-'));
    store = findStore(dir);
    // a message a backtracking engine takes exponential time on with (a+)+$
    const long = JSON.stringify({ type: 'user', message: { role: 'user', content: `${'a'.repeat(100_000)}!` } });
    expect(ctx(store, ['checkpoint', '-b', 'evil/long', '--format', 'claude-code-v1', '-'], { env: FIND_ENV, input: `${long}\n` }).code).toBe(0);
    writeFileSync(join(dir, 'outside'), `${AUTH_TIP.slice(4)}\n`);
    c = await mcpClient(store, [], ENV);
  }, 120_000);
  /** `body` with a ref that is a symlink out of the store, to a file holding a real commit id. */
  const withLink = async (body: () => Promise<void>) => {
    symlinkSync(join(dir, 'outside'), join(store, 'refs', 'heads', 'link'));
    try {
      await body();
    } finally {
      rmSync(join(store, 'refs', 'heads', 'link'));
    }
  };
  afterAll(async () => {
    await c?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('paths: .. is refused; an absolute path outside the store is a query that matches nothing and opens nothing', async () => {
    for (const path of ['../../etc/passwd', 'src/../../../etc/passwd', '..'])
      expect(await call(c, 'files', { path })).toEqual({ isError: true, text: `files: a path without '..' components, not '${path}'`, data: undefined });
    expect(await call(c, 'files', { path: '/etc/passwd' })).toEqual({ isError: false, text: 'no tool call touched that path', data: { touches: [], total: 0, truncated: false } });
    expect(await call(c, 'files', { path: '/' })).toEqual({ isError: true, text: "files: not a path: '/'", data: undefined });
  });

  it('ids: names out of the store, symlinked refs and unknown commits are tool errors', async () => {
    const cases: [string, string][] = [
      ['../../etc/passwd', `not a commit or branch name: '../../etc/passwd' (contains "..")`],
      ['/etc/passwd', `not a commit or branch name: '/etc/passwd' (empty path component)`],
      ['link', 'refs/heads/link: is a symbolic link, not a ref file'],
      [`ctx-${'f'.repeat(40)}`, `unknown commit: ctx-${'f'.repeat(40)}`],
      ['no/such-branch', 'unknown commit or branch: no/such-branch'],
    ];
    await withLink(async () => {
      for (const [id, text] of cases) {
        expect(await call(c, 'show', { id }), id).toEqual({ isError: true, text, data: undefined });
        expect((await call(c, 'read', { id })).text, id).toBe(text);
      }
      // a search over every branch meets the link too: the damage is named, nothing is read through it
      expect(await call(c, 'files', { path: 'src/auth.ts' })).toEqual({ isError: true, text: 'refs/heads/link: is a symbolic link, not a ref file', data: undefined });
    });
    expect((await call(c, 'read', { id: 'alice/auth', from: 'bob/log' })).text).toBe('read: from bob/log is not on the chain of alice/auth');
  });

  it('limits, budgets and wrong types are refused by the input schema', async () => {
    const cases: [string, Record<string, unknown>, string][] = [
      ['search', { pattern: 'a', limit: 1e9 }, 'Too big: expected number to be <=500 at limit'],
      ['search', { pattern: 'a', limit: 0 }, 'Too small: expected number to be >=1 at limit'],
      ['search', { pattern: 'a', limit: 2.5 }, 'Invalid input: expected int, received number at limit'],
      ['search', { pattern: 'a', limit: '5' }, 'Invalid input: expected number, received string at limit'],
      ['search', { pattern: ['a'] }, 'Invalid input: expected string, received array at pattern'],
      ['search', { pattern: 'a'.repeat(1001) }, 'Too big: expected string to have <=1000 characters at pattern'],
      ['search', { pattern: 'a', role: 'system' }, 'Invalid option: expected one of "user"|"assistant"|"tool" at role'],
      ['search', { pattern: 'a', branches: Array(65).fill('x') }, 'Too big: expected array to have <=64 items at branches'],
      ['read', { id: 'alice/auth', max_tokens: 1e12 }, 'Too big: expected number to be <=100000 at max_tokens'],
      ['read', { id: 'alice/auth', last: 1e12 }, 'Too big: expected number to be <=1000000 at last'],
      ['read', { id: 'alice/auth', format: 'raw' }, 'Invalid option: expected one of "markdown"|"neutral" at format'],
      ['show', { id: {} }, 'Invalid input: expected string, received object at id'],
      ['show', { id: '' }, 'Too small: expected string to have >=1 characters at id'],
      ['files', { path: 7 }, 'Invalid input: expected string, received number at path'],
      ['log', { limit: -1 }, 'Too small: expected number to be >=1 at limit'],
    ];
    for (const [tool, args, rest] of cases) expect(await call(c, tool, args), JSON.stringify(args)).toEqual({ isError: true, text: invalid(tool, rest), data: undefined });
  });

  it('regexes: a backtracking pattern runs in linear time; what RE2 cannot run is a tool error', async () => {
    const r = await call(c, 'search', { pattern: '(a+)+$', branches: ['evil/long'] });
    expect(r).toEqual({ isError: false, text: 'no match', data: { hits: [], truncated: false } });
    const hit = await call(c, 'search', { pattern: '(a+)+!$', branches: ['evil/long'] });
    expect(hit.data).toMatchObject({ hits: [{ branch: 'evil/long', entry: 0, role: 'user' }], truncated: false });
    expect(await call(c, 'search', { pattern: '(a)\\1' })).toEqual({ isError: true, text: 'grep: backreferences (\\1) are not supported: ctx grep takes RE2 syntax, which matches in linear time', data: undefined });
    expect((await call(c, 'search', { pattern: 'a{2000}' })).isError).toBe(true);
  });

  it('resources: listed per branch and tip; a URI out of the store or of nothing is a JSON-RPC error', async () => {
    const { resources } = await c.listResources();
    expect(resources.filter((r) => r.uri.startsWith('ctx://branch/')).map((r) => r.uri)).toEqual(['ctx://branch/alice%2Fauth', 'ctx://branch/alice%2Fauth-fork', 'ctx://branch/alice%2Frename', 'ctx://branch/bob%2Flog', 'ctx://branch/evil%2Flong']);
    expect(resources.find((r) => r.uri === `ctx://commit/${AUTH_TIP}`)).toEqual({ uri: `ctx://commit/${AUTH_TIP}`, name: AUTH_TIP, title: 'Commit', description: 'the tip of alice/auth', mimeType: 'application/json' });
    const branch = await c.readResource({ uri: 'ctx://branch/alice%2Fauth' });
    const body = JSON.parse(textOf(branch));
    expect(body).toMatchObject({ v: 1, name: 'alice/auth', id: AUTH_TIP });
    expect(body.commits.map((x: { id: string }) => x.id)[0]).toBe(AUTH_TIP);
    expect(body.commits).toHaveLength(4);
    const commit = await c.readResource({ uri: `ctx://commit/${AUTH_TIP}` });
    expect(JSON.parse(textOf(commit))).toEqual(JSON.parse(ctx(store, ['show', AUTH_TIP, '--json'], { env: FIND_ENV }).stdout));
    await expect(c.readResource({ uri: 'ctx://commit/..%2F..%2Fetc%2Fpasswd' })).rejects.toThrow(`MCP error -32603: not a commit or branch name: '../../etc/passwd' (contains "..")`);
    await withLink(() => expect(c.readResource({ uri: 'ctx://branch/link' })).rejects.toThrow('MCP error -32603: refs/heads/link: is a symbolic link, not a ref file'));
    await expect(c.readResource({ uri: 'ctx://elsewhere/x' })).rejects.toThrow('MCP error -32602: MCP error -32602: Resource ctx://elsewhere/x not found');
  });

  it('still answers after all of it', async () => {
    expect((await call(c, 'log', { id: 'alice/auth', limit: 1 })).data).toMatchObject({ commits: [{ id: AUTH_TIP }], truncated: true });
  });
});
