// What an audit of the web view on a store of the runtimes' fixtures found broken, in headless
// chromium: Codex's shell results (JSON with the output and exit code) drawn as the command's output,
// the graph at 375 px scrolling in its own box instead of widening the page, titles (a first
// prompt, a summary) with their bold and code drawn, their HTML left as text, and every runtime's
// other tools (searches, fetches, listings, an MCP tool) in one line each, never as JSON.
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { describeBrowser, layoutProblems, openPage, ready, shot } from './browser-kit.js';
import { FIXTURES, ctx, newStore } from './helpers.js';
import { FIXED, fixtureStore, raw, startServe, type Served } from './serve-kit.js';

const ROLLOUT = join(FIXTURES, 'codex', 'rollout-2025-11-20T09-00-00-0a1b2c3d-4e5f-7a8b-9c0d-1e2f3a4b5c6d.jsonl');

/** fixtures/tool-calls: a session of each runtime calling the tools its plug-in says in one line. */
const TOOL_CALLS = [
  ['claude-code', 'claude-code.jsonl'],
  ['gemini-cli', 'session-2026-03-03T09-00-5a5a5a5a.jsonl'],
  ['codex', 'rollout-2026-03-04T10-00-00-01a21dd1-845b-7400-9ae0-912b49e4f6cc.jsonl'],
  ['pi', '2026-01-11T09-00-00-000Z_019a0001-aaaa-7bbb-8ccc-000000000002.jsonl'],
  ['copilot', 'events.jsonl'],
  ['opencode', 'session.json'],
] as const;

/** Each runtime's calls as the page draws them: [tool, view, summary line]. */
const DRAWN: Record<(typeof TOOL_CALLS)[number][0], [string, string, string][]> = {
  'claude-code': [
    ['Glob', 'brief', 'Glob src/**/*.ts in /home/bo/app'],
    ['Grep', 'brief', 'Grep "function sum" in src (*.ts)'],
    ['LS', 'brief', 'LS /home/bo/app/src'],
    ['WebSearch', 'brief', 'WebSearch "vitest toBeCloseTo"'],
    ['WebFetch', 'brief', 'WebFetch https://vitest.dev/api/expect'],
    ['NotebookEdit', 'brief', 'NotebookEdit /home/bo/app/explore.ipynb cell c2 replace'],
    ['ExitPlanMode', 'brief', 'ExitPlanMode Plan: fix `sum`…'],
    ['AskUserQuestion', 'brief', 'AskUserQuestion Keep the old name?'],
    ['BashOutput', 'brief', 'BashOutput b7f2'],
    ['TaskCreate', 'brief', 'TaskCreate Fix sum'],
    ['TaskUpdate', 'brief', 'TaskUpdate #1 completed'],
    ['MultiEdit', 'edit', 'MultiEdit src/sum.ts +2 −2'],
    ['mcp__tracker__create_issue', 'args', 'mcp__tracker__create_issue title: sum ignores b · labels: bug, math · body: line 1 … · meta: priority: 2, draft: false'],
  ],
  'gemini-cli': [
    ['list_directory', 'brief', 'list_directory /work/proj/src'],
    ['glob', 'brief', 'glob **/*.ts in /work/proj'],
    ['grep_search', 'brief', 'grep_search "function sum" in /work/proj/src (*.ts)'],
    ['search_file_content', 'brief', 'search_file_content "return a" (*.ts)'],
    ['read_many_files', 'brief', 'read_many_files src/*.ts, README.md'],
    ['web_fetch', 'brief', 'web_fetch Summarise https://example.com/sum'],
    ['google_web_search', 'brief', 'google_web_search "typescript sum function"'],
    ['save_memory', 'brief', 'save_memory "sum lives in src/sum.ts"'],
  ],
  codex: [
    ['shell_command', 'shell', '$ npm test'],
    ['write_stdin', 'brief', 'write_stdin session 3 "q"'],
    ['list_dir', 'brief', 'list_dir /work/proj/src'],
    ['grep_files', 'brief', 'grep_files "sum\\(" in /work/proj (*.ts)'],
    ['view_image', 'read', 'view_image /work/proj/plot.png'],
    ['apply_patch', 'patch', 'apply_patch src/sum.ts, test/sum.test.ts, test/old.test.ts'],
    ['spawn_agent', 'args', 'spawn_agent task_name: review · message: Review src/sum.ts'],
  ],
  pi: [
    ['grep', 'brief', 'grep "def list" in src (*.py)'],
    ['find', 'brief', 'find *.py in src'],
    ['ls', 'brief', 'ls .'],
  ],
  copilot: [
    ['report_intent', 'brief', 'report_intent Finding sum'],
    ['glob', 'brief', 'glob **/*.ts in src'],
    ['grep', 'brief', 'grep "function sum" in src (*.ts)'],
    ['web_fetch', 'brief', 'web_fetch https://example.com/sum'],
    ['read_bash', 'brief', 'read_bash 2'],
  ],
  opencode: [
    ['glob', 'brief', 'glob **/*.ts in /home/alice/proj'],
    ['grep', 'brief', 'grep "function sum" in /home/alice/proj/src (*.ts)'],
    ['list', 'brief', 'list /home/alice/proj'],
    ['webfetch', 'brief', 'webfetch https://example.com/sum'],
    ['websearch', 'brief', 'websearch "typescript sum"'],
  ],
};

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

  it('every runtime’s other tools show one line each and their arguments as key: value lines, never JSON (1400 px; Claude Code’s at 375 px too)', async () => {
    const store = newStore();
    const tips = TOOL_CALLS.map(([runtime, file]) => {
      const r = ctx(store, ['import', runtime, join(FIXTURES, 'tool-calls', file), '-b', `tools/${runtime}`, '--json'], { env: FIXED });
      expect(r.code).toBe(0);
      return [runtime, JSON.parse(r.stdout).id as string] as const;
    });
    const s = await startServe(store, [], FIXED);
    served.push(s);
    for (const [width, colorScheme] of [[1400, 'light'], [375, 'dark']] as const) {
      const { page, errors } = await openPage(width, { colorScheme });
      // what a call shows does not depend on the width: at 375 px only the page with the most (Claude Code's) is checked again
      for (const [runtime, tip] of width === 1400 ? tips : tips.slice(0, 1)) {
        await page.goto(`${s.url}${tip}`);
        await ready(page, `/${tip}`);
        const calls = await page.$$eval('details.tool', (els) => els.map((el) => [(el as HTMLElement).dataset.tool, (el as HTMLElement).dataset.view, el.querySelector('summary')!.textContent]));
        expect(calls, runtime).toEqual(DRAWN[runtime]);
        // what a call shows (its result aside) holds no JSON object or list, opened or not
        const json = await page.$$eval('details.tool', (els) => els.map((el) => {
          const call = el.cloneNode(true) as HTMLElement;
          call.querySelectorAll('.result').forEach((r) => r.remove());
          return /[{[]\s*"/.test(call.textContent!) ? (el as HTMLElement).dataset.tool : null;
        }).filter((t) => t !== null));
        expect(json, runtime).toEqual([]);
        if (runtime === 'claude-code') {
          await page.click('details.tool[data-tool="mcp__tracker__create_issue"] > summary');
          const args = 'details.tool[data-tool="mcp__tracker__create_issue"] .args';
          expect(await page.$$eval(`${args} > .arg`, (els) => els.map((el) => [el.querySelector('.arg-key')!.textContent, el.querySelector('.arg-value')!.tagName, el.querySelector('.arg-value')!.textContent]))).toEqual([
            ['title:', 'SPAN', 'sum ignores b'],
            ['labels:', 'PRE', '- bug\n- math'],
            ['body:', 'PRE', Array.from({ length: 30 }, (_, i) => `line ${i + 1}`).join('\n')],
            ['meta:', 'PRE', 'priority: 2\ndraft: false'],
          ]);
          // the 30-line body folded under a button
          expect(await page.$$eval(`${args} pre.folded + button.show-all`, (els) => els.map((el) => el.textContent))).toEqual(['show all 30 lines']);
          await page.click('details.tool[data-tool="ExitPlanMode"] > summary');
          expect(await page.$eval('details.tool[data-tool="ExitPlanMode"] > .text.md', (el) => el.innerHTML)).toBe('<h2>Plan: fix <code>sum</code></h2>\n<ol>\n<li>Add <strong>b</strong> to the result</li>\n<li>Run the tests</li>\n</ol>');
          await page.click('details.tool[data-tool="WebSearch"] > summary');
          expect(await page.$eval('details.tool[data-tool="WebSearch"] .args', (el) => el.textContent)).toBe('query: vitest toBeCloseTo');
        }
        if (runtime === 'claude-code') await shot(page, `web-tools-${width}-${colorScheme}`);
        expect(await layoutProblems(page), runtime).toEqual([]);
      }
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
