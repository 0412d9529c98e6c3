// What an audit of the web view on a store of the runtimes' fixtures found broken, in headless
// chromium: Codex's shell results (JSON with the output and exit code) drawn as the command's output,
// and the graph at 375 px scrolling in its own box instead of widening the page.
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

describeBrowser('the audit’s fixes: Codex shell output, the graph at 375 px', () => {
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
});
