// The web view's compare, search, file history and usage pages in headless chromium (issue 24), each
// checked against the CLI's output on the same store, screenshot at 375 and 1400 px, and with no
// layout problem at either width (test/browser-kit.ts).
import type { Page } from 'playwright-core';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { describeBrowser, layoutProblems, openPage, ready, shot } from './browser-kit.js';
import { ctx } from './helpers.js';
import { USAGE_ENV, usageStore } from './usage-kit.js';
import { FIXED, fixtureStore, startServe, type Served } from './serve-kit.js';

const json = (store: string, args: string[], env: Record<string, string> = FIXED) => {
  const r = ctx(store, [...args, '--json'], { env });
  return r.stdout.trim().split('\n').filter((l) => l).map((l) => JSON.parse(l));
};

/** What chromium logs of an API request answered 400 (a pattern refused): the page shows the message itself. */
const REFUSED = 'console: Failed to load resource: the server responded with a status of 400 (Bad Request)';

/** The page's layout at both widths: nothing wider than the window, nothing off screen; a screenshot of each. */
async function bothWidths(url: string, path: string, name: string, prepare: (page: Page) => Promise<void> = async () => {}, logged: string[] = []): Promise<void> {
  for (const width of [375, 1400]) {
    const { page, errors } = await openPage(width);
    await page.goto(url + path.slice(1));
    await ready(page, path);
    await prepare(page);
    await shot(page, `${name}-${width}`);
    expect([width, await layoutProblems(page)]).toEqual([width, []]);
    expect(errors).toEqual(logged);
    await page.context().close();
  }
}

describeBrowser('the web view: compare, search, file history, usage', () => {
  // a store and its server per test: the store's temp directory goes after each test (helpers.ts)
  let store: string;
  let served: Served | undefined;
  beforeEach(async () => {
    store = fixtureStore();
    served = await startServe(store, [], FIXED);
  });
  afterEach(async () => {
    await served?.stop();
    served = undefined;
  });

  it('compares two forks from their fork point: the common messages folded, then each continuation under its branch', async () => {
    const { url } = served!;
    const [tip] = json(store, ['show', 'alice/auth-fix']);
    const [fork] = json(store, ['show', 'review/finding-1']);
    const [base] = json(store, ['show', 'alice/auth-fix~3']);
    const { page, errors } = await openPage(1400);
    // from the graph's two checked commits, as the graph links it
    await page.goto(`${url}graph`);
    await ready(page, '/graph');
    await page.check(`.graph .row[data-id="${tip.id}"] input`);
    await page.check(`.graph .row[data-id="${fork.id}"] input`);
    await page.click('text=Compare the two checked');
    const path = `/diff?${new URLSearchParams({ a: tip.id, b: fork.id })}`;
    await ready(page, path);
    expect(await page.getAttribute('.fork', 'data-base')).toBe(base.id);
    expect(await page.textContent('.fork')).toBe(`Forked at ${base.id.slice(0, 16)}: they share messages #0–#6.`);
    expect(await page.textContent('details.common > summary')).toBe('7 messages in common — show');
    const side = (which: string) =>
      page.$$eval(`.side-${which} article.msg`, (els) => els.map((el) => `${(el as HTMLElement).dataset.index} ${(el as HTMLElement).dataset.role}: ${el.querySelector('.text')?.textContent}`));
    expect(await page.textContent('.side-a h2')).toBe(`alice/auth-fix ${tip.id.slice(0, 16)}`);
    expect(await page.textContent('.side-b h2')).toBe(`review/finding-1 ${fork.id.slice(0, 16)}`);
    expect(await page.textContent('.side-a .count')).toBe('4 messages after the fork point');
    expect(await page.textContent('.side-b .count')).toBe('1 message after the fork point');
    const a = await side('a');
    // the messages are rendered markdown: `parseTodos` is drawn as code, its backticks gone
    expect(a.slice(1)).toEqual(['8 assistant: Done: parseTodos now skips blank lines instead of stopping at the first one.', '9 user: Thanks. Which files did you change?', '10 assistant: Only src/list.ts: one line in parseTodos.']);
    expect(await page.$$eval('.side-a article.msg[data-index="8"] .text code, .side-a article.msg[data-index="10"] .text code', (els) => els.map((el) => el.textContent))).toEqual(['parseTodos', 'parseTodos']);
    expect(a[0]).toMatch(/^7 user: This session is being continued from a previous conversation/);
    expect(await side('b')).toEqual(['7 user: Review: is the blank-line fix covered by a test?']);
    // side by side at 1400 px
    const tops = () => page.$$eval('.compare .side', (els) => els.map((el) => Math.round(el.getBoundingClientRect().top)));
    const [ta, tb] = await tops();
    expect(ta).toBe(tb);
    // the fold opens to the 7 messages both begin with, from the root
    await page.click('details.common > summary');
    await page.waitForSelector('details.common .messages[data-loaded="7"]');
    const common = await page.$$eval('details.common article.msg', (els) => els.map((el) => (el as HTMLElement).dataset.role));
    const root = json(store, ['materialize', 'review/finding-1', '--stop', 'root']);
    expect(common.length).toBe(7);
    expect(await page.textContent('details.common article.msg >> nth=0 >> .text')).toBe('The todo list command prints nothing when todos.txt starts with a blank line. Can you find out why?');
    expect(root.length).toBeGreaterThan(0);
    await shot(page, 'compare-open-1400');
    expect(errors).toEqual([]);
    await page.context().close();
    // stacked below 800 px; /compare is the same page
    const narrow = await openPage(375);
    await narrow.page.goto(`${url}compare?a=alice/auth-fix&b=review/finding-1`);
    await ready(narrow.page, '/compare?a=alice/auth-fix&b=review/finding-1');
    const boxes = await narrow.page.$$eval('.compare .side', (els) => els.map((el) => el.getBoundingClientRect()).map((r) => [Math.round(r.top), Math.round(r.bottom)]));
    expect(boxes[1][0]).toBeGreaterThanOrEqual(boxes[0][1]);
    // a long continuation: the first messages, then the rest when asked for
    await narrow.page.goto(`${url}diff?a=alice/auth-fix&b=review/finding-1&limit=2`);
    await ready(narrow.page, '/diff?a=alice/auth-fix&b=review/finding-1&limit=2');
    const indices = () => narrow.page.$$eval('.side-a article.msg', (els) => els.map((el) => (el as HTMLElement).dataset.index));
    expect(await indices()).toEqual(['7', '8']);
    expect(await narrow.page.textContent('.side-a button.more')).toBe('show 2 more');
    expect(await narrow.page.locator('.side-b button.more').count()).toBe(0);
    await narrow.page.click('.side-a button.more');
    await narrow.page.waitForSelector('.side-a article.msg[data-index="10"]');
    expect(await indices()).toEqual(['7', '8', '9', '10']);
    expect(await narrow.page.locator('.side-a button.more').count()).toBe(0);
    expect(narrow.errors).toEqual([]);
    await narrow.page.context().close();
    await bothWidths(url, path, 'compare');
  });

  it('searches plain text by default, ignoring case; the toggles for case, words and regular expressions are kept in the URL', async () => {
    const { url } = served!;
    const { page, errors } = await openPage(1400);
    const hitsOn = () => page.$$eval('.hit', (els) => els.map((el) => `${(el as HTMLElement).dataset.commit} ${(el as HTMLElement).dataset.entry}`));
    const cli = (args: string[]) => json(store, ['grep', ...args]).map((h) => `${h.commit} ${h.entry}`);
    // `(` is text: what ctx grep -F -i finds, no error page
    await page.goto(`${url}search?q=(`);
    await ready(page, '/search?q=(');
    const parens = cli(['-F', '-i', '(']);
    expect(parens.length).toBeGreaterThan(0);
    expect(await hitsOn()).toEqual(parens);
    expect(await page.$$eval('.hit mark', (els) => [...new Set(els.map((el) => el.textContent))])).toEqual(['(']);
    // from the header's box: plain text, any case; grouped by session, in the order grep gives them
    await page.fill('#search input', 'Blank');
    await page.press('#search input', 'Enter');
    await ready(page, '/search?q=Blank');
    const any = json(store, ['grep', '-F', '-i', 'Blank']);
    expect(any.length).toBe(5);
    expect(await hitsOn()).toEqual(any.map((h) => `${h.commit} ${h.entry}`));
    expect(await page.$$eval('.hit-group', (els) => els.map((el) => `${(el as HTMLElement).dataset.branch} ${el.querySelectorAll('.hit').length}`))).toEqual(['alice/auth-fix 4', 'review/finding-1 1']);
    expect(await page.textContent('#hits')).toBe('5 hits for Blank in 2 sessions');
    expect(await page.$$eval('.hit mark', (els) => els.map((el) => el.textContent))).toEqual(any.map(() => 'blank'));
    // the short id shows, the full one is its title
    expect(await page.getAttribute('.hit .id >> nth=0', 'title')).toBe(any[0].commit);
    expect(await page.textContent('.hit .id >> nth=0')).toBe(any[0].commit.slice(0, 16));
    await shot(page, 'search-1400');
    // Aa: the case as typed, exactly ctx grep -F (none here)
    await page.click('label.toggle[title="match case"]');
    await ready(page, '/search?q=Blank&case=1');
    expect(cli(['-F', 'Blank'])).toEqual([]);
    expect(await hitsOn()).toEqual([]);
    expect(await page.textContent('#hits')).toBe('no match for Blank');
    // lower case with case on: ctx grep -F blank
    await page.goto(`${url}search?q=blank&case=1`);
    await ready(page, '/search?q=blank&case=1');
    expect(await hitsOn()).toEqual(cli(['-F', 'blank']));
    // whole words: "line" but not "lines" or "line."'s neighbours in "blank-line"… exactly ctx grep -w -F -i
    await page.goto(`${url}search?q=line&word=1`);
    await ready(page, '/search?q=line&word=1');
    const words = cli(['-w', '-F', '-i', 'line']);
    expect(words.length).toBeLessThan(cli(['-F', '-i', 'line']).length);
    expect(await hitsOn()).toEqual(words);
    expect(await page.isChecked('label.toggle[title="whole words only"] input')).toBe(true);
    // a regular expression
    await page.goto(`${url}search?q=${encodeURIComponent('blank.*line')}&regex=1`);
    await ready(page, `/search?q=${encodeURIComponent('blank.*line')}&regex=1`);
    expect(await hitsOn()).toEqual(cli(['-i', 'blank.*line']));
    // a bad one: said under the box, the box and toggles kept, no error page
    await page.fill('form.find input[name=q]', '(');
    await page.press('form.find input[name=q]', 'Enter');
    await ready(page, '/search?q=%28&regex=1');
    const bad = ctx(store, ['grep', '-i', '(', '--json'], { env: FIXED });
    expect(bad.code).toBe(2);
    expect(await page.textContent('.search-error')).toBe(JSON.parse(bad.stderr).message);
    expect(await page.inputValue('form.find input[name=q]')).toBe('(');
    expect(await page.isChecked('label.toggle[title="regular expression (RE2)"] input')).toBe(true);
    expect(await page.locator('.hit').count()).toBe(0);
    // the browser's own line for the refused request (the page handles the answer): the only one
    expect(errors.splice(0)).toEqual([REFUSED]);
    // a hit opens its commit
    await page.goto(`${url}search?q=blank`);
    await ready(page, '/search?q=blank');
    await page.click('.hit >> nth=4');
    await ready(page, `/${any[4].commit}`);
    expect(errors).toEqual([]);
    await page.context().close();
    await bothWidths(url, '/search?q=blank', 'search');
    await bothWidths(url, '/search?q=%28&regex=1', 'search-bad-regex', undefined, [REFUSED]);
  });

  it("file history: each tool call's row opens to the edit's lines, - then +; ids short, the full one copied", async () => {
    const { url } = served!;
    const { page, errors } = await openPage(1400);
    await page.goto(`${url}files?path=src%2Flist.ts`);
    await ready(page, '/files?path=src%2Flist.ts');
    const files = json(store, ['files', 'src/list.ts']);
    expect(await page.$$eval('details.touch > summary', (els) => els.map((el) => [...el.children].map((c) => c.textContent)))).toEqual(
      files.map((f) => [f.at.slice(0, 19).replace('T', ' '), f.action, f.tool, `${f.commit.slice(0, 16)}copy`, f.branch, f.path]),
    );
    expect(await page.getAttribute('details.touch >> nth=0 >> a', 'title')).toBe(files[0].commit);
    await page.click('details.touch >> nth=0 >> summary');
    await page.waitForSelector('details.touch >> nth=0 >> .edit[data-loaded]');
    expect(await page.$$eval('details.touch:nth-child(1) .edit-lines .line', (els) => els.map((el) => `${el.className}|${el.textContent}`))).toEqual([
      "line del|-    if (line === '') break;",
      "line add|+    if (line.trim() === '') continue;",
    ]);
    // a read changed no line
    await page.click('details.touch >> nth=1 >> summary');
    await page.waitForSelector('details.touch >> nth=1 >> .edit[data-loaded]');
    expect(await page.textContent('details.touch:nth-child(2) .edit')).toBe('a read: no lines changed');
    // the copy button copies the full id and leaves the row as it was
    await page.click('details.touch >> nth=1 >> button.copy-id');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(files[1].commit);
    expect(await page.$$eval('details.touch', (els) => els.map((el) => (el as HTMLDetailsElement).open))).toEqual([true, true]);
    expect(errors).toEqual([]);
    await page.context().close();
    // the diff's colours follow the theme: the light ones, the dark ones when the system asks for dark
    for (const colorScheme of ['light', 'dark'] as const) {
      const themed = await openPage(375, { colorScheme });
      await themed.page.goto(`${url}files?path=src%2Flist.ts`);
      await ready(themed.page, '/files?path=src%2Flist.ts');
      await themed.page.click('details.touch >> nth=0 >> summary');
      await themed.page.waitForSelector('.edit-lines .line.add');
      const colours = await themed.page.$$eval('.edit-lines .line', (els) => els.map((el) => getComputedStyle(el).backgroundColor));
      expect([colorScheme, colours]).toEqual([colorScheme, colorScheme === 'light' ? ['rgb(255, 235, 233)', 'rgb(230, 255, 236)'] : ['rgb(74, 29, 31)', 'rgb(18, 54, 31)']]);
      await shot(themed.page, `files-${colorScheme}-375`);
      await themed.page.context().close();
    }
    await bothWidths(url, '/files?path=src%2Flist.ts', 'files', async (p) => {
      await p.click('details.touch >> nth=0 >> summary');
      await p.waitForSelector('details.touch >> nth=0 >> .edit[data-loaded]');
    });
  });

  it('usage: the figures of ctx usage --json for each grouping and a since, as bar charts', async () => {
    const env = USAGE_ENV;
    const four = usageStore();
    const s = await startServe(four, [], env);
    try {
      const { page, errors } = await openPage(1400);
      const figures = () =>
        page.$$eval('.usage-table tbody tr', (rows) => rows.map((tr) => [(tr as HTMLElement).dataset.key, ...[...tr.querySelectorAll('td.n')].map((td) => (td as HTMLElement).dataset.n)]));
      const want = (args: string[]) => json(four, ['usage', ...args], env).map((r) => [r.key ?? 'total', ...[r.responses, r.input_tokens, r.output_tokens, r.cache_read_tokens, r.cache_write_tokens, r.cost_usd].map(String)]);
      await page.goto(`${s.url}usage`);
      await ready(page, '/usage');
      const sessions = want([]);
      expect(sessions.length).toBe(5);
      expect(await figures()).toEqual(sessions);
      // one bar per session in each chart, the longest the largest
      expect(await page.$$eval('.chart.tokens .bar-row', (els) => els.map((el) => (el as HTMLElement).dataset.key))).toEqual(sessions.slice(0, -1).map((r) => r[0]));
      const widths = await page.$$eval('.chart.tokens .fill', (els) => els.map((el) => (el as HTMLElement).style.width));
      expect(widths).toContain('100%');
      expect(await page.textContent('#usage-total')).toMatch(/^\d+ responses · [\d,]+ tokens · USD [\d.]+ \+ \?$/);
      await shot(page, 'usage-1400');
      for (const by of ['day', 'model', 'project']) {
        await page.click(`nav.by a:text-is("${by}")`);
        await ready(page, `/usage?by=${by}`);
        expect([by, await figures()]).toEqual([by, want(['--by', by])]);
      }
      await page.fill('form.since input', '2026-11-01');
      await page.press('form.since input', 'Enter');
      await ready(page, '/usage?by=project&since=2026-11-01');
      expect(await figures()).toEqual(want(['--by', 'project', '--since', '2026-11-01']));
      expect(errors).toEqual([]);
      await page.context().close();
      await bothWidths(s.url, '/usage?by=model', 'usage');
    } finally {
      await s.stop();
    }
  });
});
