// The conversation page of `ctx serve` on a long session: a Claude Code session of 10,000 messages
// (prompts in markdown, answers with code blocks, edits, shell calls with 30 coloured lines of
// output, todo lists, files written) in a store of 1,000 other sessions (bench/timeline-gen.mjs),
// opened in headless chromium (Debian's /usr/bin/chromium through playwright-core). Measured: the
// time from navigation to the first message drawn, with the server just started and again on the same
// server; then scrolling through the first 1,000 messages, the longest task the page ran (a hitch).
// The peer, in the same rounds: the same page for a 10-message session of the same store (the
// page's own cost: its script, the commit, the resume commands), so the long session's share shows.
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { CTX_BIN, FIXED_ENV, NODE, fmtInt, fmtMs, median, progress, run, table, tempDir } from './lib.mjs';
import { serve, stop } from './serve.mjs';
import { generateTimeline } from './timeline-gen.mjs';

const CHROMIUM = '/usr/bin/chromium';
const TURNS = 2000; // 5 messages a turn
const SCROLLED = 1000;
const ROUNDS = 3;

const OUTPUT = Array.from({ length: 30 }, (_, i) => `\x1b[32m✓\x1b[39m test/mod.test.ts > case ${i} \x1b[2m(${i} ms)\x1b[22m`).join('\n');

export function longSession(file, turns = TURNS) {
  const base = { sessionId: 'bench-conversation', cwd: '/work', version: '2.1.330', isSidechain: false };
  const lines = [];
  let prev = null;
  const add = (i, k, line) => {
    const uuid = `${k}${i}`;
    lines.push({ ...base, ...line, uuid, parentUuid: prev, timestamp: new Date(Date.UTC(2026, 2, 4, 9) + i * 60_000).toISOString() });
    prev = uuid;
  };
  const call = (i) => {
    switch (i % 4) {
      case 0:
        return { name: 'Edit', input: { file_path: `/work/src/mod${i % 50}.ts`, old_string: `export const a${i} = 1;\nexport const b = 2;`, new_string: `export const a${i} = 2;\nexport const b = 2;\nexport const c = 3;` } };
      case 1:
        return { name: 'Bash', input: { command: 'npx vitest run test/mod.test.ts' } };
      case 2:
        return { name: 'TodoWrite', input: { todos: [{ content: 'Read', status: 'completed' }, { content: `Fix mod${i}`, status: 'in_progress' }, { content: 'Test', status: 'pending' }] } };
      default:
        return { name: 'Write', input: { file_path: `/work/src/new${i}.ts`, content: Array.from({ length: 40 }, (_, j) => `export function f${j}(x: number): number {\n  return x * ${j};\n}`).join('\n') } };
    }
  };
  for (let i = 0; i < turns; i++) {
    const c = call(i);
    add(i, 'u', { type: 'user', message: { role: 'user', content: `Step ${i}: make **mod${i % 50}** handle \`null\`, and keep the tests green.` } });
    add(i, 'a', { type: 'assistant', message: { id: `m${i}a`, role: 'assistant', content: [{ type: 'text', text: `Looking at \`mod${i % 50}.ts\`:\n\n\`\`\`ts\nexport function f(x: number | null) {\n  return x ?? 0;\n}\n\`\`\`` }, { type: 'tool_use', id: `t${i}`, ...c }] } });
    add(i, 'r', { type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `t${i}`, content: c.name === 'Bash' ? OUTPUT : 'ok' }] } });
    add(i, 'b', { type: 'assistant', message: { id: `m${i}b`, role: 'assistant', content: [{ type: 'text', text: `Done: **mod${i % 50}** returns 0 for \`null\`.\n\n| file | change |\n| --- | --- |\n| src/mod${i % 50}.ts | \`??\` |` }] } });
    add(i, 'v', { type: 'user', message: { role: 'user', content: 'Thanks.' } });
  }
  writeFileSync(file, lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
  return lines.length;
}

/** The longest task of the page's main thread in a trace, in CPU (thread) milliseconds. */
function longestCpu(trace) {
  const events = trace.traceEvents ?? trace;
  const main = new Set(events.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`));
  return events.filter((e) => e.name === 'RunTask' && e.ph === 'X' && main.has(`${e.pid}:${e.tid}`)).reduce((m, e) => Math.max(m, (e.tdur ?? 0) / 1000), 0);
}

export async function benchConversation() {
  if (!existsSync(CHROMIUM)) return { markdown: `## The conversation page\n\nskipped: ${CHROMIUM} (Debian package \`chromium\`) is not installed\n`, summary: null };
  const { chromium } = await import('playwright-core');
  const dir = tempDir('conversation');
  const store = join(dir, 'store.git');
  progress('conversation: a store of 1,000 sessions');
  generateTimeline(store, { commits: 10_000, principals: 50, chain: 10 });
  const file = join(dir, 'session.jsonl');
  const messages = longSession(file);
  progress(`conversation: import a ${fmtInt(messages)}-message session (${(readFileSync(file).length / 2 ** 20).toFixed(1)} MB)`);
  run(NODE, [CTX_BIN, '--store', store, 'import', 'claude-code', file, '-b', 'long'], { env: FIXED_ENV });
  const id = JSON.parse(run(NODE, [CTX_BIN, '--store', store, 'show', 'long', '--json'], { stdout: 'pipe' }).stdout).id;
  const shortFile = join(dir, 'short.jsonl');
  longSession(shortFile, 2);
  run(NODE, [CTX_BIN, '--store', store, 'import', 'claude-code', shortFile, '-b', 'short'], { env: FIXED_ENV });
  const shortId = JSON.parse(run(NODE, [CTX_BIN, '--store', store, 'show', 'short', '--json'], { stdout: 'pipe' }).stdout).id;
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
  const cold = [];
  const warm = [];
  const peer = [];
  const longest = [];
  const longestCpuMs = [];
  const perPage = [];
  try {
    for (let i = 0; i <= ROUNDS; i++) {
      progress(`conversation: round ${i}/${ROUNDS}`);
      const s = await serve(store);
      const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
      const errors = [];
      page.on('pageerror', (e) => errors.push(e.message));
      page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
      for (const [times, commit] of [[cold, id], [warm, id], [peer, shortId], [warm, id]]) {
        const start = performance.now();
        await page.goto(`${s.url}${commit}?stop=root`);
        await page.waitForSelector('article.msg');
        if (i > 0) times.push(performance.now() - start);
        // the resume command the page asks for next renders the whole session: done before the next load
        await page.waitForSelector('.resume code', { timeout: 120_000 });
      }
      if (i > 0) warm.splice(warm.length - 2, 2, (warm[warm.length - 2] + warm[warm.length - 1]) / 2);
      const total = Number(await page.$eval('#messages', (el) => el.dataset.total));
      if (total !== messages || errors.length) throw new Error(`conversation: ${total} of ${messages} messages, errors: ${errors.join('; ')}`);
      // scrolling: every task over 50 ms the page runs while pages of messages come in and draw
      await page.evaluate(() => {
        window.__long = [];
        new PerformanceObserver((l) => window.__long.push(...l.getEntries().map((e) => e.duration))).observe({ type: 'longtask', buffered: false });
      });
      // and the same tasks' CPU time (a trace's thread time): on two loaded cores a task's wall time is mostly waiting for a core
      await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline'] });
      const started = performance.now();
      while ((await page.$eval('#messages', (el) => Number(el.dataset.loaded))) < SCROLLED) {
        await page.mouse.wheel(0, 20_000);
        await page.waitForTimeout(16);
      }
      const spent = performance.now() - started;
      const tasks = await page.evaluate(() => window.__long);
      const cpu = longestCpu(JSON.parse((await browser.stopTracing()).toString()));
      if (i > 0) {
        longest.push(tasks.length ? Math.max(...tasks) : 0);
        longestCpuMs.push(cpu);
        perPage.push(spent / ((SCROLLED - 40) / 100));
      }
      await page.close();
      await stop(s.proc);
    }
  } finally {
    await browser.close();
  }
  const summary = { cold: median(cold), warm: median(warm), peer: median(peer), longest: median(longest), longestCpu: median(longestCpuMs), perPage: median(perPage), messages };
  const markdown = [
    '## The conversation page: a 10,000-message session\n',
    `A Claude Code session of ${fmtInt(messages)} messages (${fmtInt(TURNS)} turns: a markdown prompt, an answer with a code block and one of Edit, Bash ` +
      '(30 lines of coloured output), TodoWrite or Write (120 lines), its result, a markdown answer with a table, a thank-you), imported into a store of 1,000 generated sessions ' +
      '(10,000 commits), opened whole (`?stop=root`) in headless chromium at 1400 × 900. **first paint, server just started**: navigation to the first message drawn, nothing cached; ' +
      `**again**: the same URL on the same server (the mean of two loads, one before and one after the peer's); **peer**: a 10-message session of the same shape on the same server, between them; **scrolling**: the wheel turned until ${fmtInt(SCROLLED)} messages are on the page, the time per page of 100 and the longest task the page ran (PerformanceObserver longtask, wall time) and its CPU time from a trace (its thread time: on shared cores a task's wall time is mostly waiting). ` +
      `Medians of ${ROUNDS} rounds, the first discarded.\n`,
    table(
      ['', 'ms'],
      [
        ['first paint, server just started', fmtMs(summary.cold)],
        ['first paint again (messages cached)', fmtMs(summary.warm)],
        ['peer: first paint of a 10-message session, same server', fmtMs(summary.peer)],
        ['scrolling: a page of 100 messages loaded and drawn', fmtMs(summary.perPage)],
        ['scrolling: longest task (wall, PerformanceObserver longtask)', fmtMs(summary.longest)],
        ['scrolling: longest task, CPU time (trace)', fmtMs(summary.longestCpu)],
      ],
    ),
    '',
  ].join('\n');
  return { markdown, summary };
}
