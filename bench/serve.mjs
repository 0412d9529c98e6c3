// ctx serve: a 2,000-turn, ~20 MB Claude Code session opened in headless chromium (Debian's
// /usr/bin/chromium through playwright-core): the time from navigation to the first messages drawn,
// with the server just started (nothing cached) and again (the commit's messages cached). And the
// CPU the server spends on the first page of messages (/api/messages, read from /proc before and
// after the request) beside `ctx materialize` of the same commit, cold (its caches deleted), as
// the peer: both read the whole chain once.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CTX_BIN, FIXED_ENV, NODE, fmtInt, fmtMs, fmtRatio, median, progress, run, table, tempDir } from './lib.mjs';
import { measured } from './resume.mjs';

const CHROMIUM = '/usr/bin/chromium';
const TURNS = 2000;
const ROUNDS = 5;
const TICK = 1000 / 100; // ms per clock tick (USER_HZ)

function session(file) {
  const lines = [];
  const pad = 'lorem ipsum dolor sit amet '.repeat(370); // ~10 KB an answer
  for (let i = 0; i < TURNS; i++) {
    const at = new Date(Date.UTC(2026, 2, 4, 9) + i * 60_000).toISOString();
    const base = { sessionId: 'bench-serve', cwd: '/work', version: '2.1.330' };
    lines.push({ ...base, type: 'user', uuid: `u${i}`, parentUuid: i ? `r${i - 1}` : null, timestamp: at, message: { role: 'user', content: `step ${i}: look at src/mod${i % 50}.ts` } });
    lines.push({ ...base, type: 'assistant', uuid: `a${i}`, parentUuid: `u${i}`, timestamp: at, message: { role: 'assistant', content: [{ type: 'text', text: `Reading it. ${pad}` }, { type: 'tool_use', id: `t${i}`, name: 'Read', input: { file_path: `/work/src/mod${i % 50}.ts` } }] } });
    lines.push({ ...base, type: 'user', uuid: `r${i}`, parentUuid: `a${i}`, timestamp: at, message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `t${i}`, content: `export const mod${i} = ${i};\n` }] } });
  }
  writeFileSync(file, lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
}

/** `ctx serve --port 0` on the store; its URL and pid. */
export function serve(store) {
  const proc = spawn(NODE, [CTX_BIN, '--store', store, 'serve', '--port', '0'], { env: { ...process.env, ...FIXED_ENV }, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((done, fail) => {
    let out = '';
    proc.stdout.on('data', (b) => {
      out += b;
      if (out.includes('\n')) done({ url: out.split('\n')[0], proc });
    });
    proc.on('exit', (code) => fail(new Error(`ctx serve exited ${code}`)));
  });
}

export const stop = (proc) => new Promise((done) => (proc.once('exit', done), proc.kill('SIGTERM')));

/** user + sys CPU ms of a process so far, with its children that ended (the git processes of a request). */
function cpuOf(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) * TICK;
}

export async function benchServe() {
  if (!existsSync(CHROMIUM)) return { markdown: `## ctx serve\n\nskipped: ${CHROMIUM} (Debian package \`chromium\`) is not installed\n`, summary: null };
  const { chromium } = await import('playwright-core');
  const dir = tempDir('serve');
  const file = join(dir, 'session.jsonl');
  session(file);
  const store = join(dir, 'store.git');
  progress(`serve: import a ${TURNS}-turn session (${(readFileSync(file).length / 2 ** 20).toFixed(1)} MB)`);
  run(NODE, [CTX_BIN, '--store', store, 'import', 'claude-code', file, '-b', 'big'], { env: FIXED_ENV });
  const id = JSON.parse(run(NODE, [CTX_BIN, '--store', store, 'show', 'big', '--json'], { stdout: 'pipe' }).stdout).id;

  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const cold = [];
  const warm = [];
  const endpoint = [];
  const materialize = [];
  try {
    for (let i = 0; i <= ROUNDS; i++) {
      progress(`serve: round ${i}/${ROUNDS}`);
      // the endpoint's CPU on a server just started (its first request reads the chain)
      let s = await serve(store);
      const before = cpuOf(s.proc.pid);
      const res = await fetch(`${s.url}api/messages?id=${id}&limit=40`);
      if (JSON.parse(await res.text()).total !== 3 * TURNS) throw new Error('serve: not every message is in the context');
      await new Promise((done) => setTimeout(done, 200)); // the request's git processes reaped
      const spent = cpuOf(s.proc.pid) - before;
      await stop(s.proc);
      rmSync(join(store, 'ctx', 'cache'), { recursive: true, force: true });
      const m = measured(NODE, [CTX_BIN, '--store', store, 'materialize', id]);
      // the page on a server just started, then again on the same server
      s = await serve(store);
      const page = await browser.newPage();
      const errors = [];
      page.on('pageerror', (e) => errors.push(e.message));
      page.on('console', (msg) => msg.type() === 'error' && errors.push(msg.text()));
      for (const times of [cold, warm]) {
        const start = performance.now();
        await page.goto(`${s.url}${id}`);
        await page.waitForSelector('article.msg');
        if (i > 0) times.push(performance.now() - start);
        // the resume command the page asks for next renders the whole session: done before the next load
        await page.waitForSelector('.resume code', { timeout: 60_000 });
      }
      const drawn = await page.locator('article.msg').count();
      if (errors.length || drawn !== 40) throw new Error(`serve: the page drew ${drawn} messages, errors: ${errors.join('; ')}`);
      await page.close();
      await stop(s.proc);
      if (i > 0) {
        endpoint.push(spent);
        materialize.push(m.cpu);
      }
    }
  } finally {
    await browser.close();
  }
  const size = readFileSync(file).length;
  const summary = { cold: median(cold), warm: median(warm), endpoint: median(endpoint), materialize: median(materialize) };
  const markdown = [
    '## ctx serve: a 2,000-turn session in headless chromium\n',
    `A Claude Code session of ${fmtInt(TURNS)} turns (${fmtInt(3 * TURNS)} messages: a question, a ~10 KB answer with a Read call, its result), ` +
      `${(size / 2 ** 20).toFixed(1)} MB, imported as ${fmtInt(TURNS)} commits. **page, server just started**: navigation to the first message drawn ` +
      '(the first 40 of the context, the rest loaded on scroll, 100 at a time), the server holding nothing yet; **page again**: the same URL on the same server. ' +
      '**/api/messages CPU**: user + sys of the server process and its git processes for its first page of messages (the whole chain read and turned into neutral messages), ' +
      `from /proc; **ctx materialize CPU**: the whole process (GNU time), \`<store>/ctx/cache\` deleted first. Medians of ${ROUNDS} rounds, the first discarded.\n`,
    table(
      ['', 'ms'],
      [
        ['page, server just started', fmtMs(summary.cold)],
        ['page again (messages cached)', fmtMs(summary.warm)],
        ['/api/messages first page, server CPU', fmtMs(summary.endpoint)],
        ['ctx materialize (cold), process CPU', fmtMs(summary.materialize)],
        ['endpoint / materialize', fmtRatio(summary.endpoint / summary.materialize)],
      ],
    ),
    '',
  ].join('\n');
  return { markdown, summary };
}
