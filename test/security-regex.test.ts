// Patterns cannot hang ctx grep or ctx serve: every pattern is matched in linear time (RE2's dialect),
// what RE2 cannot do in linear time (backreferences, lookaround) is refused by name, and the snippet's
// highlight is where the match is in non-ASCII text too.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { request } from 'node:http';
import { chromium } from 'playwright-core';
import { afterEach, expect, it } from 'vitest';
import { CTX, ctx, newStore } from './helpers.js';
import { startServe, type Served } from './serve-kit.js';
import { requiredLiteral } from '../src/core/grep-match.js';

const ENV = { CTX_NOW: '2026-03-05T10:00:00.000Z', CTX_PRINCIPAL: 'alice', CTX_MACHINE: 'box' };

/** A Claude Code session on branch `b` whose messages are `texts` (user text) or `messages` (a message's role and content), in order. */
function storeWith(texts: (string | { role: string; content: unknown })[]): string {
  const store = newStore();
  const lines = texts.map((t, i) => `${JSON.stringify({ type: typeof t === 'string' ? 'user' : t.role, uuid: `u-${i}`, parentUuid: i ? `u-${i - 1}` : null, sessionId: 's', timestamp: `2026-03-05T10:00:0${i}.000Z`, message: typeof t === 'string' ? { role: 'user', content: t } : t })}\n`);
  const r = ctx(store, ['checkpoint', '-b', 'b', '--format', 'claude-code-v1', '-'], { env: ENV, input: lines.join('') });
  expect(r.code, r.stderr).toBe(0);
  return store;
}

const running: Served[] = [];
afterEach(async () => {
  // SIGTERM, and SIGKILL for a server that no longer answers it
  for (const s of running.splice(0)) {
    const killer = setTimeout(() => s.proc.kill('SIGKILL'), 5000);
    await s.stop();
    clearTimeout(killer);
  }
});
async function serve(store: string): Promise<Served> {
  const s = await startServe(store, [], ENV);
  running.push(s);
  return s;
}

/** A GET with these headers (Host is the server's own unless given), given up after 30 s. */
function getWith(url: string, path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  const u = new URL(url);
  return new Promise((done, fail) => {
    const req = request({ host: u.hostname, port: u.port, path, headers, timeout: 30_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (b) => chunks.push(b));
      res.on('end', () => done({ status: res.statusCode!, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('timeout', () => req.destroy(new Error(`no answer to ${path} in 30 s`)));
    req.on('error', fail);
    req.end();
  });
}

/** `ctx grep ARGS`, killed after 30 s (a backtracking engine would run for ages): the exit code is null then. */
function grepAsync(store: string, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const p = spawn(process.execPath, [CTX, 'grep', ...args], { env: { ...process.env, CTX_STORE: store, ...ENV } });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (b) => (stdout += b));
    p.stderr.on('data', (b) => (stderr += b));
    const timer = setTimeout(() => p.kill('SIGKILL'), 30_000);
    p.on('close', (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr });
    });
  });
}

const grep = (store: string, args: string[]) => {
  const r = spawnSync(process.execPath, [CTX, 'grep', ...args], { env: { ...process.env, CTX_STORE: store, ...ENV }, encoding: 'utf8', timeout: 30_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
};

it('ctx grep ends at once on patterns that backtrack exponentially', async () => {
  const store = storeWith([`${'a'.repeat(40)}!`, 'nothing here']);
  const NONE = '{"v":1,"error":"CtxError","message":"no match","exit":1}\n';
  const patterns = ['(a+)+$', '(a|a)*$', '(a|aa)+$', '(.*a){25}$'];
  const runs = await Promise.all(patterns.map((p) => grepAsync(store, [p, '--json'])));
  const hits = (r: { stdout: string }) => r.stdout.split('\n').filter((l) => l).map((l) => [JSON.parse(l).entry, JSON.parse(l).snippet]);
  expect(runs.map((r, i) => [patterns[i], r.code, hits(r), r.stderr])).toEqual([
    ['(a+)+$', 1, [], NONE],
    // an empty match at the end of each text
    ['(a|a)*$', 0, [[0, `…${'a'.repeat(39)}!`], [1, 'nothing here']], ''],
    ['(a|aa)+$', 1, [], NONE],
    ['(.*a){25}$', 1, [], NONE],
  ]);
  // and a pattern of the same shape that matches is found, with its snippet
  const hit = await grepAsync(store, ['(a|aa)+!$', '--json']);
  expect([hit.code, JSON.parse(hit.stdout).snippet]).toEqual([0, `${'a'.repeat(40)}!`]);
}, 60_000);

it('refuses backreferences and lookaround by name, exit 2, and a bad pattern with RE2’s reason', () => {
  const store = storeWith(['abab']);
  const tail = ': ctx grep takes RE2 syntax, which matches in linear time';
  const cases: [string, string][] = [
    ['(ab)\\1', `ctx: grep: backreferences (\\1) are not supported${tail}\n`],
    ['(?<x>ab)\\k<x>', `ctx: grep: backreferences (\\k<x>) are not supported${tail}\n`],
    ['ab(?=ab)', `ctx: grep: lookahead (?=…) is not supported${tail}\n`],
    ['ab(?!cd)', `ctx: grep: lookahead (?!…) is not supported${tail}\n`],
    ['(?<=ab)ab', `ctx: grep: lookbehind (?<=…) is not supported${tail}\n`],
    ['(?<!cd)ab', `ctx: grep: lookbehind (?<!…) is not supported${tail}\n`],
    ['(unclosed', 'ctx: grep: bad regular expression: missing closing ): `(unclosed`\n'],
    ['a{2,1}', 'ctx: grep: bad regular expression: invalid repeat count: `{2,1}`\n'],
  ];
  expect(cases.map(([p]) => [p, grep(store, [p])])).toEqual(cases.map(([p, stderr]) => [p, { code: 2, stdout: '', stderr }]));
  // inside a class or escaped, the same characters are plain text
  expect(grep(store, ['[(?=]|\\(\\?=|ab', '--json']).code).toBe(0);
});

it('highlights the match where it is in non-ASCII text, and keeps -F and -i', () => {
  const store = storeWith(['héllo 😀 wörld café', 'K\u212Aelvin and ſcale', 'the a.b(c) call']);
  const hit = (args: string[]) => {
    const r = grep(store, ['--color', 'always', ...args]);
    expect(r.code, r.stderr).toBe(0);
    return r.stdout.split('\t').slice(2).join('\t');
  };
  const red = (s: string) => `\x1b[1m\x1b[31m${s}\x1b[39m\x1b[22m`;
  // a dot is one character, an emoji too (two UTF-16 units)
  expect(hit(['o . w'])).toBe(`0\tuser\t2026-03-05T10:00:00.000Z\théll${red('o 😀 w')}örld café\n`);
  expect(hit(['w.rld c'])).toBe(`0\tuser\t2026-03-05T10:00:00.000Z\théllo 😀 ${red('wörld c')}afé\n`);
  expect(hit(['-i', 'CAFÉ'])).toBe(`0\tuser\t2026-03-05T10:00:00.000Z\théllo 😀 wörld ${red('café')}\n`);
  // case folding as Unicode has it (K and the Kelvin sign, s and the long s), in a regex and in a plain string
  expect(hit(['-i', 'kelvin'])).toBe(`1\tuser\t2026-03-05T10:00:01.000Z\tK${red('\u212Aelvin')} and ſcale\n`);
  expect(hit(['-i', 'k+elvin and s'])).toBe(`1\tuser\t2026-03-05T10:00:01.000Z\t${red('K\u212Aelvin and ſ')}cale\n`);
  expect(hit(['-F', 'a.b(c)'])).toBe(`2\tuser\t2026-03-05T10:00:02.000Z\tthe ${red('a.b(c)')} call\n`);
  expect(grep(store, ['-F', 'a.b(c)x']).code).toBe(1);
});

it('prefilters artifacts only on text every match holds, in RE2 syntax', () => {
  // a POSIX class inside a class is one character; \Q…\E and a flag group can make a run optional
  expect(requiredLiteral('[[:alpha:]abc]def')).toBe('def');
  expect(requiredLiteral('\\Qabc\\E?')).toBe(null);
  expect(requiredLiteral('(?i)token')).toBe(null);
  // ignoring case, k and s may be other letters in the bytes
  expect(requiredLiteral('kelvin scale', false, true)).toBe('elvin ');
  expect(requiredLiteral('kelvin scale', true, true)).toBe('elvin ');
  expect(requiredLiteral('kelvin scale')).toBe('kelvin scale');
});

it('ctx serve answers a backtracking pattern at once, goes on serving, and stops on SIGTERM', async () => {
  const store = storeWith([`${'a'.repeat(40)}!`]);
  const s = await serve(store);
  expect(await getWith(s.url, `/api/grep?q=${encodeURIComponent('(a+)+$')}`)).toEqual({ status: 200, body: '' });
  expect((await getWith(s.url, '/api/branches')).status).toBe(200);
  running.pop();
  expect(await s.stop()).toEqual({ code: 0, stderr: 'ctx serve: stopped (SIGTERM)\n' });
}, 60_000);

it('ctx serve refuses the API to pages of other sites (Sec-Fetch-Site, Origin), and serves its own page and the address bar', async () => {
  const store = storeWith(['héllo 😀 wörld café']);
  const s = await serve(store);
  const own = s.url.slice(0, -1);
  const refused = (why: string) => ({ status: 403, body: `{"v":1,"error":"CrossSiteRequest","message":"a page on another site may not use this server's API (${why})"}\n` });
  const cases: [Record<string, string>, { status: number; body: string } | number][] = [
    [{ 'sec-fetch-site': 'cross-site' }, refused('Sec-Fetch-Site: cross-site')],
    // another port of this machine is the same site, and another origin
    [{ 'sec-fetch-site': 'same-site' }, refused('Sec-Fetch-Site: same-site')],
    [{ origin: 'http://evil.example' }, refused('Origin: http://evil.example')],
    [{ origin: 'null' }, refused('Origin: null')],
    [{ 'sec-fetch-site': 'same-origin', origin: 'http://127.0.0.1:1' }, refused('Origin: http://127.0.0.1:1')],
    [{ 'sec-fetch-site': 'same-origin', origin: own }, 200],
    [{ 'sec-fetch-site': 'same-origin' }, 200],
    [{ 'sec-fetch-site': 'none' }, 200],
    [{}, 200],
  ];
  for (const path of ['/api/branches', '/api/grep?q=w.rld']) {
    for (const [headers, want] of cases) {
      const r = await getWith(s.url, path, headers);
      expect([path, headers, typeof want === 'number' ? r.status : r]).toEqual([path, headers, want]);
    }
  }
  // a link from elsewhere still opens the page (it reads the store through the API, as its own origin)
  expect((await getWith(s.url, '/', { 'sec-fetch-site': 'cross-site' })).status).toBe(200);
  // the Host check stays
  expect((await getWith(s.url, '/api/branches', { host: 'evil.example' })).status).toBe(403);
  // the search page's marks: where the match is in each snippet, in string indices (the emoji is two)
  const hit = JSON.parse((await getWith(s.url, `/api/grep?q=${encodeURIComponent('o . w')}&mark=1`)).body);
  expect([hit.snippet, hit.mark, hit.snippet.slice(...hit.mark)]).toEqual(['héllo 😀 wörld café', [4, 10], 'o 😀 w']);
  expect(Object.keys(hit).join(' ')).toBe('v commit branch entry role at snippet mark');
});

/** A 20 MB tool result: numbered lines, with a non-ASCII letter and an emoji in each. */
const BIG = Array.from({ length: 400_000 }, (_, i) => `line ${i}: é 😀 ${'x'.repeat(32)}\n`).join('');

function bigStore(): string {
  return storeWith([
    'read the big file',
    { role: 'assistant', content: [{ type: 'tool_use', id: 't-1', name: 'Read', input: { file_path: '/big.txt' } }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't-1', content: BIG }] },
    // a text whose 65,536th character starts an emoji: the cut keeps it whole
    `${'y'.repeat(65_535)}😀${'z'.repeat(1000)}`,
  ]);
}

it('ctx serve sends a large message part cut, and the rest on demand in bounded pieces, exactly', async () => {
  expect(BIG.length).toBeGreaterThan(20_000_000);
  const s = await serve(bigStore());
  const page = await getWith(s.url, '/api/messages?id=b');
  expect(page.status).toBe(200);
  expect(page.body.length).toBeLessThan(200_000);
  const { id, messages } = JSON.parse(page.body);
  const result = messages[2].content[0];
  expect([result.type, result.content.length, result.cut]).toEqual(['tool_result', 65_536, { part: '0', length: BIG.length, bytes: Buffer.byteLength(BIG) }]);
  expect(result.content).toBe(BIG.slice(0, 65_536));
  expect(messages[3].content[0]).toEqual({ type: 'text', text: 'y'.repeat(65_535), cut: { part: '0', length: 65_535 + 2 + 1000, bytes: 65_535 + 4 + 1000 } });
  // the rest, a piece at a time: at most 1 Mi characters each, however many are asked for
  let text = '';
  let pieces = 0;
  while (text.length < BIG.length) {
    const r = await getWith(s.url, `/api/part?id=${id}&entry=2&part=0&offset=${text.length}&limit=999999999`);
    const p = JSON.parse(r.body);
    expect([r.status, p.id, p.entry, p.part, p.offset, p.length]).toEqual([200, id, 2, '0', text.length, BIG.length]);
    expect(p.text.length).toBeLessThanOrEqual(1024 * 1024);
    if (pieces === 0) expect(Object.keys(p).join(' ')).toBe('v id entry part offset length text');
    text += p.text;
    pieces++;
  }
  expect(text === BIG).toBe(true);
  expect(pieces).toBe(Math.ceil(BIG.length / (1024 * 1024)));
  // an offset inside the emoji starts at the emoji
  const emoji = JSON.parse((await getWith(s.url, `/api/part?id=${id}&entry=3&part=0&offset=65536&limit=3`)).body);
  expect([emoji.offset, emoji.text]).toEqual([65_535, '😀z']);
  for (const [q, message] of [
    ['entry=9&part=0', 'entry 9 is past the context\'s end (4 messages)'],
    ['entry=2&part=1', 'the message has no part 1'],
    ['entry=2&part=x', "part takes a block index (3, or 3.1 in a tool result), not 'x'"],
    ['entry=3&part=0&offset=70000', "offset 70000 is past the part's end (66537)"],
  ]) {
    const r = await getWith(s.url, `/api/part?id=${id}&${q}`);
    expect([q, r.status, JSON.parse(r.body).message]).toEqual([q, 400, message]);
  }
}, 300_000);

it.runIf(existsSync('/usr/bin/chromium'))('the page shows a large tool result cut, and loads more only when asked', async () => {
  const store = bigStore();
  const s = await serve(store);
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'] });
  try {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const sizes: number[] = [];
    page.on('response', (r) => void r.body().then((b) => sizes.push(b.length), () => {}));
    const id = JSON.parse(ctx(store, ['show', 'b', '--json'], { env: ENV }).stdout).id;
    await page.goto(`${s.url}${id}`);
    await page.waitForFunction((p) => document.body.dataset.ready === p, `/${id}`, { timeout: 30_000 });
    await page.click('details.tool summary');
    const result = page.locator('details.tool .result pre');
    expect((await result.textContent())!.length).toBe(65_536);
    expect(await page.locator('details.tool .result .cut .all').textContent()).toBe('show all (21 MB)');
    expect(Math.max(...sizes)).toBeLessThan(1_000_000);
    await page.click('details.tool .result .cut .more');
    await page.waitForFunction(() => document.querySelector('details.tool .result pre')!.textContent!.length > 65_536, null, { timeout: 30_000 });
    expect((await result.textContent())!.length).toBe(65_536 + 1024 * 1024);
    expect(await page.locator('details.tool .result .cut .status').textContent()).toBe(`${Math.round((100 * (65_536 + 1024 * 1024)) / BIG.length)}% shown`);
    expect(errors).toEqual([]);
  } finally {
    await browser.close();
  }
}, 300_000);
