// What an audit of the web view on a store of the runtimes' fixtures found broken, in headless
// chromium: Codex's shell results (JSON with the output and exit code) drawn as the command's output,
// the graph at 375 px scrolling in its own box instead of widening the page, and titles (a first
// prompt, a summary) with their bold and code drawn, their HTML left as text.
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { describeBrowser, layoutProblems, openPage, ready, shot } from './browser-kit.js';
import { FIXTURES, ctx } from './helpers.js';
import { FIXED, fixtureStore, raw, startServe, type Served } from './serve-kit.js';

const ROLLOUT = join(FIXTURES, 'codex', 'rollout-2025-11-20T09-00-00-0a1b2c3d-4e5f-7a8b-9c0d-1e2f3a4b5c6d.jsonl');

/** The fixture store plus the Codex rollout whose shell calls return JSON; the rollout's tip. */
function codexStore(): { store: string; tip: string } {
  const store = fixtureStore();
  const r = ctx(store, ['import', 'codex', ROLLOUT, '-b', 'codex/todo'], { env: FIXED });
  if (r.code !== 0) throw new Error(r.stderr);
  return { store, tip: JSON.parse(ctx(store, ['show', 'codex/todo', '--json'], { env: FIXED }).stdout).id };
}

describe('/api/messages: a result its runtime unwraps', () => {
  let served: Served | undefined;
  afterAll(async () => {
    await served?.stop();
  });

  it('a Codex shell result carries its output and exit code; the call keeps its $ command', async () => {
    const { store, tip } = codexStore();
    served = await startServe(store, [], FIXED);
    const page = JSON.parse((await raw(served.url, `/api/messages?id=${tip}&stop=root`)).body.trim());
    const blocks = page.messages.flatMap((m: any) => m.content.filter((b: any) => b.type === 'tool_call' || b.type === 'tool_result'));
    expect(blocks.map((b: any) => (b.type === 'tool_call' ? ['call', b.view] : ['result', b.content, b.output]))).toEqual([
      ['call', { kind: 'shell', command: 'rg -n def list src' }],
      ['result', '{"output":"src/cli.py:12:def list(args):\\n","metadata":{"exit_code":0,"duration_seconds":0.1}}', { text: 'src/cli.py:12:def list(args):\n', exit: 0 }],
      ['call', { kind: 'shell', command: 'pytest -q' }],
      ['result', '{"output":"3 passed\\n","metadata":{"exit_code":0,"duration_seconds":1.9}}', { text: '3 passed\n', exit: 0 }],
    ]);
  });
});

const PROMPT = '**Bold** and `code` <img src=x onerror="document.body.dataset.pwned=1">';

describeBrowser('the audit’s fixes: Codex shell output, the graph at 375 px, titles', () => {
  const served: Served[] = [];
  afterAll(async () => {
    for (const s of served) await s.stop();
  });

  it('a Codex shell call shows $ command and its output, not the JSON around it, at 1400 and 375 px, light and dark', async () => {
    const { store, tip } = codexStore();
    const s = await startServe(store, [], FIXED);
    served.push(s);
    for (const [width, colorScheme] of [[1400, 'light'], [375, 'dark']] as const) {
      const { page, errors } = await openPage(width, { colorScheme });
      await page.goto(`${s.url}${tip}?stop=root`);
      await ready(page, `/${tip}?stop=root`);
      const shells = await page.$$eval('details.tool[data-view="shell"]', (els) => els.map((el) => [el.querySelector('summary')!.textContent, el.querySelector('.result')!.textContent, (el as HTMLElement).dataset.done]));
      expect(shells).toEqual([
        ['$ rg -n def list src', 'src/cli.py:12:def list(args):\n', 'ok'],
        ['$ pytest -q', '3 passed\n', 'ok'],
      ]);
      await shot(page, `web-codex-shell-${width}-${colorScheme}`);
      expect(await layoutProblems(page)).toEqual([]);
      expect(errors).toEqual([]);
      await page.context().close();
    }
  });

  it('the graph at 375 px keeps each row on one line inside its own scrolling box; the page does not widen', async () => {
    const { store } = codexStore();
    const s = await startServe(store, [], FIXED);
    served.push(s);
    for (const [width, colorScheme] of [[375, 'dark'], [1400, 'light']] as const) {
      const { page, errors } = await openPage(width, { colorScheme });
      await page.goto(`${s.url}graph`);
      await ready(page, '/graph');
      expect(await page.$eval('.graph', (el) => [getComputedStyle(el).overflowX, el.scrollWidth > el.clientWidth])).toEqual(['auto', width === 375]);
      // one line a row: every row as tall as the first
      expect(await page.$$eval('.graph .row[data-id]', (els) => new Set(els.map((el) => Math.round(el.getBoundingClientRect().height))).size)).toBe(1);
      expect(await page.$$eval('.graph .row[data-id] .type', (els) => els.map((el) => getComputedStyle(el).display === 'none'))).toEqual(Array(11).fill(width === 375));
      await shot(page, `web-graph-${width}-${colorScheme}`);
      expect(await layoutProblems(page)).toEqual([]);
      expect(errors).toEqual([]);
      await page.context().close();
    }
  });

  it('a title draws its bold and code, and its HTML as text: the session list, the commit’s heading, the comparison', async () => {
    const store = fixtureStore();
    const line = `${JSON.stringify({ type: 'user', uuid: 't-1', parentUuid: null, sessionId: 't', timestamp: '2026-03-06T10:00:00.000Z', message: { role: 'user', content: PROMPT } })}\n`;
    const r = ctx(store, ['checkpoint', '-b', 'titles', '--format', 'claude-code-v1', '--json', '-'], { env: FIXED, input: line });
    expect(r.code).toBe(0);
    const tip = JSON.parse(r.stdout).id;
    const s = await startServe(store, [], FIXED);
    served.push(s);
    const drawn = '<strong>Bold</strong> and <code>code</code> &lt;img src=x onerror="document.body.dataset.pwned=1"&gt;';
    for (const [width, colorScheme] of [[1400, 'light'], [375, 'dark']] as const) {
      const { page, errors } = await openPage(width, { colorScheme });
      await page.goto(s.url);
      await ready(page, '/');
      expect(await page.$eval('li[data-branch="titles"] .title', (el) => el.innerHTML)).toBe(drawn);
      await page.click('li[data-branch="titles"] .title');
      await ready(page, `/${tip}`);
      expect(await page.$eval('h1', (el) => el.innerHTML)).toBe(drawn);
      expect(await page.title()).toBe('Bold and code <img src=x onerror="document.body.dataset.pwned=1"> · ctx');
      const head = JSON.parse(ctx(store, ['show', 'alice/auth-fix', '--json'], { env: FIXED }).stdout).id;
      await page.goto(`${s.url}diff?a=${head}&b=${tip}`);
      await ready(page, `/diff?a=${head}&b=${tip}`);
      expect(await page.$$eval('.compare .side p.summary', (els) => els.map((el) => el.innerHTML))).toEqual(['blank lines no longer stop todo list', drawn]);
      expect(await page.evaluate(() => document.body.dataset.pwned ?? null)).toBe(null);
      await shot(page, `web-titles-${width}-${colorScheme}`);
      expect(await layoutProblems(page)).toEqual([]);
      expect(errors).toEqual([]);
      await page.context().close();
    }
  });
});
