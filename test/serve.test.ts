// `ctx serve` over HTTP: where it listens, read-only, no file outside its own, and JSON endpoints
// that are the CLI's --json output byte for byte.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ROOT, ctx, newStore, refSnapshot, tempDir } from './helpers.js';
import { FIXED, fixtureStore, raw, startServe, type Served } from './serve-kit.js';

const running: Served[] = [];
afterEach(async () => {
  while (running.length) await running.pop()!.stop();
});
async function serve(store: string, args: string[] = []): Promise<Served> {
  const s = await startServe(store, args, FIXED);
  running.push(s);
  return s;
}
const cli = (store: string, args: string[]) => {
  const r = ctx(store, args, { env: FIXED });
  expect(r.code, r.stderr).toBe(0);
  return r.stdout;
};
const get = async (url: string) => {
  const res = await fetch(url);
  return { status: res.status, type: res.headers.get('content-type'), body: await res.text() };
};

describe('ctx serve over HTTP', () => {
  it('listens on 127.0.0.1 only, prints the URL on one line, and stops cleanly on SIGTERM and SIGINT', async () => {
    const store = fixtureStore();
    const s = await startServe(store, [], FIXED);
    expect(s.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    const port = Number(new URL(s.url).port);
    // the listening socket is bound to 127.0.0.1: /proc/net/tcp names it 0100007F:PORT in state 0A (LISTEN)
    if (existsSync('/proc/net/tcp')) {
      const hex = port.toString(16).toUpperCase().padStart(4, '0');
      const listening = readFileSync('/proc/net/tcp', 'utf8').split('\n').filter((l) => l.includes(`:${hex} `) && / 0A /.test(l)).map((l) => l.trim().split(/\s+/)[1]);
      expect(listening).toEqual([`0100007F:${hex}`]);
    }
    // and another address of this machine is refused
    const other = Object.values(networkInterfaces()).flat().find((a) => a && a.family === 'IPv4' && !a.internal);
    if (other) await expect(fetch(`http://${other.address}:${port}/`)).rejects.toThrow();
    const stopped = await s.stop();
    expect(stopped).toEqual({ code: 0, stderr: 'ctx serve: stopped (SIGTERM)\n' });

    const t = await startServe(store, [], FIXED);
    t.proc.kill('SIGINT');
    await new Promise((done) => t.proc.on('exit', done));
    expect([t.proc.exitCode, t.stderr()]).toEqual([0, 'ctx serve: stopped (SIGINT)\n']);
  });

  it('is read-only: anything but GET and HEAD is 405 and writes nothing', async () => {
    const store = fixtureStore();
    const s = await serve(store);
    const before = refSnapshot(store);
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']) {
      for (const path of ['/', '/api/branches', '/api/show?id=alice/auth-fix']) {
        const r = await raw(s.url, path, method);
        expect([method, path, r.status, r.headers.allow, r.body]).toEqual([method, path, 405, 'GET, HEAD', 'read-only: GET and HEAD only\n']);
      }
    }
    const head = await raw(s.url, '/api/branches', 'HEAD');
    const got = await get(`${s.url}api/branches`);
    expect([head.status, head.body, head.headers['content-length']]).toEqual([200, '', String(Buffer.byteLength(got.body))]);
    expect(refSnapshot(store)).toBe(before);
  });

  it('serves no file outside its own: traversal and odd paths are 404', async () => {
    const s = await serve(fixtureStore());
    const paths = [
      '/../package.json',
      '/%2e%2e/package.json',
      '/%2E%2E%2Fpackage.json',
      '/app.js/../../package.json',
      '/..%2f..%2f..%2fetc%2fpasswd',
      '/./app.js',
      '/%5c..%5cpackage.json',
      '/app.js%00.html',
      '/%zz',
      '//etc/passwd',
      '/index.html',
      '/web/app.js',
      '/dist/web/app.js',
      '/style.css/',
      '/ctx-zz12',
      '/ctx-12',
      '/api',
      '/package.json',
    ];
    for (const path of paths) {
      const r = await raw(s.url, path);
      expect([path, r.status], r.body).toEqual([path, 404]);
      expect(r.body).not.toContain('"name"');
    }
    // an API path that names no endpoint is the usage error record
    expect(await get(`${s.url}api/nothing`)).toEqual({ status: 400, type: 'application/json', body: '{"v":1,"error":"UsageError","message":"no such endpoint: /api/nothing","exit":2}\n' });
    // the page, its script and style, with a policy that loads nothing from elsewhere
    const page = await fetch(s.url);
    expect([page.status, page.headers.get('content-type')]).toEqual([200, 'text/html; charset=utf-8']);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'; script-src 'self'");
    expect(await page.text()).toBe(readFileSync(join(ROOT, 'src', 'web', 'index.html'), 'utf8'));
    const app = await get(`${s.url}app.js`);
    expect([app.status, app.type, app.body]).toEqual([200, 'text/javascript; charset=utf-8', readFileSync(join(ROOT, 'dist', 'web', 'app.js'), 'utf8')]);
    expect((await get(`${s.url}app.js.map`)).status).toBe(200);
    // works offline: the script names another origin only in text (highlight.js's warnings), which the
    // policy (default-src 'none') would never load anyway
    expect([...new Set(app.body.match(/https?:\/\/(?!127\.0\.0\.1)[\w-]+(\.[\w-]+)+[^"'`)\s]*/g))].sort()).toEqual(['https://github.com/highlightjs/highlight.js/issues/2277', 'https://github.com/highlightjs/highlight.js/wiki/security']);
  });

  it('JSON endpoints are the --json output of log, show, branch, materialize, grep and files, byte for byte', async () => {
    const store = fixtureStore();
    const s = await serve(store);
    const pairs: [string, string[]][] = [
      ['api/branches', ['branch', '--json']],
      ['api/log', ['log', '--all', '--json']],
      ['api/log?id=review/finding-1', ['log', 'review/finding-1', '--json']],
      ['api/log?id=alice/auth-fix&n=2', ['log', 'alice/auth-fix', '-n', '2', '--json']],
      ['api/show?id=alice/auth-fix', ['show', 'alice/auth-fix', '--json']],
      ['api/show?id=alice/auth-fix~2', ['show', 'alice/auth-fix~2', '--json']],
      ['api/materialize?id=alice/auth-fix', ['materialize', 'alice/auth-fix', '--json']],
      ['api/materialize?id=review/finding-1', ['materialize', 'review/finding-1', '--json']],
      ['api/grep?q=blank', ['grep', 'blank', '--json']],
      ['api/grep?q=BLANK.*line&i=1&role=user&n=2', ['grep', 'BLANK.*line', '-i', '--role', 'user', '-n', '2', '--json']],
      ['api/grep?q=test%3F&fixed=1&branch=review/finding-1', ['grep', 'test?', '-F', 'review/finding-1', '--json']],
      ['api/files?path=src/list.ts', ['files', 'src/list.ts', '--json']],
      ['api/files?path=src/list.ts&branch=review/finding-1', ['files', 'src/list.ts', 'review/finding-1', '--json']],
    ];
    for (const [path, args] of pairs) {
      const r = await get(s.url + path);
      expect([path, r.status, r.type]).toEqual([path, 200, 'application/x-ndjson; charset=utf-8']);
      expect(r.body).toBe(cli(store, args));
    }
    // every pair returned something to compare
    expect((await get(`${s.url}api/grep?q=blank`)).body.split('\n').length).toBe(6);
    expect((await get(`${s.url}api/files?path=src/list.ts`)).body.split('\n').length).toBe(3);
    // nothing found is an empty answer, not an error (the CLI's exit 1 is grep's convention)
    expect(await get(`${s.url}api/grep?q=no-such-words`)).toEqual({ status: 200, type: 'application/x-ndjson; charset=utf-8', body: '' });
    const bad = ctx(store, ['grep', '(', '--json'], { env: FIXED });
    expect(bad.code).toBe(2);
    expect(await get(`${s.url}api/grep?q=(`)).toEqual({ status: 400, type: 'application/json', body: bad.stderr });
    expect(JSON.parse((await get(`${s.url}api/grep?q=x&role=system`)).body).message).toBe("role takes user, assistant, tool, not 'system'");
    // an unknown id is the CLI's --json error record, 404 as its exit code 4 says
    const missing = ctx(store, ['show', 'ctx-0000', '--json'], { env: FIXED });
    expect(missing.code).toBe(4);
    expect(await get(`${s.url}api/show?id=ctx-0000`)).toEqual({ status: 404, type: 'application/json', body: missing.stderr });
  });

  it('the graph: each line of ctx log --all --graph with its commit; an empty store has none', async () => {
    const store = fixtureStore();
    const s = await serve(store);
    const lines = (await get(`${s.url}api/graph`)).body.trim().split('\n').map((l) => JSON.parse(l));
    const graph = cli(store, ['log', '--all', '--graph']).trimEnd().split('\n');
    expect(lines.map((l) => l.graph)).toEqual(graph.map((l) => (/ ctx-/.test(l) ? l.slice(0, l.indexOf(' ctx-')) : l)));
    expect(lines.filter((l) => l.commit).map((l) => JSON.stringify(l.commit))).toEqual(cli(store, ['log', '--all', '--json']).trim().split('\n'));
    const two = (await get(`${s.url}api/graph?n=2`)).body.trim().split('\n').map((l) => JSON.parse(l));
    expect(two.map((l) => l.graph)).toEqual(['*', '| *']);
    const empty = await serve(newStore());
    expect(await get(`${empty.url}api/graph`)).toEqual({ status: 200, type: 'application/x-ndjson; charset=utf-8', body: '' });
  });

  it("the web view's own records: their fields, v first", async () => {
    const s = await serve(fixtureStore());
    const first = async (path: string) => JSON.parse((await get(s.url + path)).body.split('\n')[0]);
    const keys = (r: object) => Object.keys(r).join(' ');
    expect(keys(await first('api/graph'))).toBe('v graph commit');
    expect(keys(await first('api/messages?id=alice/auth-fix'))).toBe('v id total offset own messages');
    expect(keys(await first('api/diff?a=alice/auth-fix&b=review/finding-1'))).toBe('v a b stop base fork_point common total_a total_b only_a only_b');
    expect(keys((await first('api/diff?a=alice/auth-fix&b=review/finding-1')).only_a[0])).toBe('index message');
    expect(keys(await first('api/resume?id=alice/auth-fix&runtime=claude-code'))).toBe('v runtime title native command');
    expect(keys(await first('api/runtimes'))).toBe('v runtime title formats');
  });

  it('permalinks: /ctx-<any unique prefix> is the page, an id of no commit a 404', async () => {
    const store = fixtureStore();
    const s = await serve(store);
    const tip = cli(store, ['log', 'alice/auth-fix', '-n', '1']).split('\t')[0];
    for (const id of [tip, tip.slice(0, 8), `ctx-${JSON.parse(cli(store, ['show', tip, '--json'])).id.slice(4).toUpperCase()}`]) {
      const r = await get(s.url + id);
      expect([id, r.status, r.type]).toEqual([id, 200, 'text/html; charset=utf-8']);
    }
    expect((await get(`${s.url}ctx-00000000`)).status).toBe(404);
  });

  it('pages the messages of a context: the pages join to the whole, every message once', async () => {
    const store = fixtureStore();
    const s = await serve(store);
    const page = async (q: string) => JSON.parse((await get(`${s.url}api/messages?${q}`)).body);
    const whole = await page('id=review/finding-1&limit=500');
    const id = JSON.parse(cli(store, ['show', 'review/finding-1', '--json'])).id;
    expect([whole.v, whole.id, whole.offset, whole.total, whole.messages.length]).toEqual([1, id, 0, 8, 8]);
    const parts = [await page(`id=${id.slice(0, 10)}&offset=0&limit=3`), await page(`id=${id}&offset=3&limit=3`), await page(`id=${id}&offset=6&limit=3`)];
    expect(parts.map((p) => [p.offset, p.total, p.messages.length])).toEqual([
      [0, 8, 3],
      [3, 8, 3],
      [6, 8, 2],
    ]);
    expect(parts.flatMap((p) => p.messages)).toEqual(whole.messages);
    // the fork's own turn is the last message, its text exactly
    expect(whole.messages[7]).toEqual({ role: 'user', content: [{ type: 'text', text: 'Review: is the blank-line fix covered by a test?' }], timestamp: '2026-03-05T10:00:00.000Z', ids: { uuid: 'r-1' } });
    // from the root: past the compaction, as ctx materialize --stop root reads it
    const tip = await page('id=alice/auth-fix&limit=500');
    const root = await page('id=alice/auth-fix&stop=root&limit=500');
    expect([tip.total, root.total]).toEqual([4, 11]);
    expect(root.messages.slice(7)).toEqual(tip.messages);
    expect(root.messages[0].content[0].text).toBe('The `todo list` command prints nothing when todos.txt starts with a blank line. Can you find out why?');
    expect(JSON.parse((await get(`${s.url}api/messages?id=alice/auth-fix&stop=nothing`)).body).message).toBe('unknown commit or branch: nothing');
    for (const bad of ['offset=-1', 'limit=x', 'offset=1e3']) {
      const r = await get(`${s.url}api/messages?id=${id}&${bad}`);
      expect([bad, r.status, JSON.parse(r.body).error]).toEqual([bad, 400, 'UsageError']);
    }
    expect(JSON.parse((await get(`${s.url}api/messages`)).body).message).toBe('id is missing');
  });

  it('the difference between two commits: the messages each holds past the ones they begin with', async () => {
    const store = fixtureStore();
    const s = await serve(store);
    const d = JSON.parse((await get(`${s.url}api/diff?a=alice/auth-fix~2&b=review/finding-1`)).body);
    // from the root, alice/auth-fix~2 (the compaction) holds the fork's 7 messages before it, then its summary; the fork its own turn
    expect([d.common, d.only_a.map((o: { index: number }) => o.index), d.only_b.map((o: { index: number }) => o.index)]).toEqual([7, [7], [7]]);
    // from the nearest compaction the compaction holds its summary alone: nothing in common
    const c = JSON.parse((await get(`${s.url}api/diff?a=alice/auth-fix~2&b=review/finding-1&stop=compaction`)).body);
    expect([c.common, c.only_a.length, c.only_b.length]).toEqual([0, 1, 8]);
    const same = JSON.parse((await get(`${s.url}api/diff?a=alice/auth-fix~3&b=review/finding-1`)).body);
    expect([same.common, same.only_a, same.only_b.map((o: { index: number }) => o.index)]).toEqual([7, [], [7]]);
  });

  it('the resume command of a commit in each runtime that exports, its own first, runs as copied', async () => {
    const store = fixtureStore();
    const s = await serve(store);
    const id = JSON.parse(cli(store, ['show', 'alice/auth-fix', '--json'])).id;
    const records = (await get(`${s.url}api/resume?id=alice/auth-fix`)).body.trim().split('\n').map((l) => JSON.parse(l));
    expect(records.map((r) => [r.runtime, r.title, r.native])).toEqual([
      ['claude-code', 'Claude Code', true],
      ['codex', 'Codex CLI', false],
      ['gemini-cli', 'Gemini CLI', false],
      ['pi', 'pi', false],
      ['opencode', 'opencode', false],
      ['copilot', 'GitHub Copilot CLI', false],
    ]);
    // one runtime's alone (the page asks for each when it is shown); a translated session runs where the server does,
    // as ctx export's does where it is run; the runtimes that export, with their formats
    const one = (await get(`${s.url}api/resume?id=alice/auth-fix&runtime=gemini-cli`)).body.trim().split('\n').map((l) => JSON.parse(l));
    expect(one.map((r) => [r.runtime, r.native])).toEqual([['gemini-cli', false]]);
    expect(one[0].command).toMatch(new RegExp(`^ctx export gemini-cli ${id} --session-id [0-9a-f-]{36} && cd ${process.cwd()} && gemini --resume [0-9a-f-]{36}$`));
    expect(JSON.parse((await get(`${s.url}api/resume?id=alice/auth-fix&runtime=nope`)).body).message).toBe("runtime takes one that exports (claude-code, codex, gemini-cli, pi, opencode, copilot), not 'nope'");
    const runtimes = (await get(`${s.url}api/runtimes`)).body.trim().split('\n').map((l) => JSON.parse(l));
    expect(runtimes.map((r) => [r.v, r.runtime, r.title, r.formats.includes('claude-code-v1')])).toEqual([
      [1, 'claude-code', 'Claude Code', true],
      [1, 'codex', 'Codex CLI', false],
      [1, 'gemini-cli', 'Gemini CLI', false],
      [1, 'pi', 'pi', false],
      [1, 'opencode', 'opencode', false],
      [1, 'copilot', 'GitHub Copilot CLI', false],
    ]);
    const [claude] = records;
    const m = /^ctx export claude-code (ctx-[0-9a-f]{40}) --session-id ([0-9a-f-]{36}) && cd \/Users\/alex\/src\/todo-cli && claude --resume \2$/.exec(claude.command);
    expect(m?.[1]).toBe(id);
    // the export half, run as it reads, writes the session and prints the resume half
    const config = tempDir();
    const exported = ctx(store, ['export', 'claude-code', m![1], '--session-id', m![2]], { env: { ...FIXED, CLAUDE_CONFIG_DIR: config } });
    expect([exported.code, exported.stdout]).toEqual([0, `claude --resume ${m![2]}\n`]);
  });

  it('answers only requests made to 127.0.0.1 or localhost: another Host (DNS rebinding) is 403', async () => {
    const s = await serve(fixtureStore());
    const port = new URL(s.url).port;
    const asHost = (host: string) =>
      new Promise<number>((done, fail) => {
        const req = request({ host: '127.0.0.1', port, path: '/api/branches', headers: { host } }, (res) => {
          res.resume();
          done(res.statusCode!);
        });
        req.on('error', fail);
        req.end();
      });
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, 'LOCALHOST', `[::1]:${port}`]) expect([host, await asHost(host)]).toEqual([host, 200]);
    for (const host of [`evil.example:${port}`, `127.0.0.1.evil.example:${port}`, `127.0.0.2:${port}`, `localhost.:${port}`]) expect([host, await asHost(host)]).toEqual([host, 403]);
  });

  it('--host another address: listens there, says so on stderr, and takes any Host', async () => {
    const s = await serve(fixtureStore(), ['--host', '0.0.0.0']);
    expect(s.url).toMatch(/^http:\/\/0\.0\.0\.0:\d+\/$/);
    for (let i = 0; i < 100 && !s.stderr(); i++) await new Promise((r) => setTimeout(r, 20));
    expect(s.stderr()).toBe('ctx serve: listening on 0.0.0.0: whoever reaches it reads every session in the store\n');
    const r = await new Promise<number>((done, fail) => {
      const req = request({ host: '127.0.0.1', port: new URL(s.url).port, path: '/api/branches', headers: { host: 'ctx.example' } }, (res) => {
        res.resume();
        done(res.statusCode!);
      });
      req.on('error', fail);
      req.end();
    });
    expect(r).toBe(200);
  });

  it('--open runs the platform opener with the URL, or says there is none', async () => {
    const bin = tempDir();
    const seen = join(bin, 'opened');
    writeFileSync(join(bin, 'xdg-open'), `#!/bin/sh\nprintf '%s' "$1" > '${seen}'\n`, { mode: 0o755 });
    const s = await startServe(fixtureStore(), ['--open'], { ...FIXED, PATH: `${bin}:${process.env.PATH}` });
    running.push(s);
    for (let i = 0; i < 100 && !existsSync(seen); i++) await new Promise((r) => setTimeout(r, 50));
    expect(readFileSync(seen, 'utf8')).toBe(s.url);
    const none = await startServe(fixtureStore(), ['--open'], { ...FIXED, PATH: tempDir() });
    running.push(none);
    for (let i = 0; i < 100 && !none.stderr(); i++) await new Promise((r) => setTimeout(r, 50));
    expect(none.stderr()).toBe(`ctx serve: xdg-open is not here to open the page: open ${none.url} yourself\n`);
  });

  it('the library serves a store too: serveStore', async () => {
    // @ts-expect-error the bundle is JavaScript: typed by the sources it is built from
    const lib = (await import('../dist/index.js')) as typeof import('../src/index.js');
    const store = fixtureStore();
    const s = await lib.serveStore(store, { port: 0, env: { ...process.env, ...FIXED } });
    try {
      expect(s.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
      expect((await get(`${s.url}api/log`)).body).toBe(cli(store, ['log', '--all', '--json']));
    } finally {
      await s.close();
    }
    await expect(fetch(`${s.url}api/log`)).rejects.toThrow();
    await expect(lib.serveStore(join(tempDir(), 'none'), { port: 0 })).rejects.toThrow(lib.NotFoundError);
  });

  it('bad flags, a missing store and a port in use: one line, the documented exit code', async () => {
    const store = fixtureStore();
    const bad = ctx(store, ['serve', '--port', '70000']);
    expect([bad.code, bad.stdout, bad.stderr]).toEqual([2, '', "ctx: --port takes a port number (0 to 65535), not '70000'\n"]);
    const none = ctx(join(tempDir(), 'missing'), ['serve', '--port', '0']);
    expect([none.code, none.stdout]).toEqual([4, '']);
    expect(none.stderr).toMatch(/^ctx: [^\n]+\n$/);
    const taken = createServer();
    await new Promise<void>((done) => taken.listen(0, '127.0.0.1', done));
    const port = (taken.address() as { port: number }).port;
    const busy = ctx(store, ['serve', '--port', String(port)]);
    taken.close();
    expect([busy.code, busy.stdout, busy.stderr]).toEqual([1, '', `ctx: cannot listen on 127.0.0.1 port ${port}: EADDRINUSE\n`]);
  });
});
