// The web view between code and contexts in a real browser (Debian's chromium through playwright-core,
// as serve-browser.test.ts): a context's page lists the code commit it led to, that commit's page
// shows its diff beside the conversation that wrote it (side by side, stacked on a narrow screen),
// and a file's blame marks the agent's lines with their context and the person's as human. The
// pages' text is checked, never pixels; screenshots go to the test's temp dir.
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { describeBrowser, openPage, ready } from './browser-kit.js';
import { tempDir } from './helpers.js';
import { FIXED, startServe, type Served } from './serve-kit.js';
import { AUTH, BY_HAND, PROMPT, SESSION, THINKING, linkedWorld } from './serve-links-kit.js';

let served: Served | undefined;

describeBrowser("ctx serve's code pages in headless chromium", () => {
  afterAll(async () => {
    await served?.stop();
  });

  it('a context lists its code commit; the code commit shows its diff beside the conversation; the blame marks a human line', async () => {
    const w = await linkedWorld();
    served = await startServe(w.store, ['--code', w.code], FIXED);
    // CTX_SHOTS=DIR keeps them to look at
    const shots = process.env.CTX_SHOTS ?? tempDir();
    const { page, errors } = await openPage();

    // the context's page: its code commits
    await page.goto(`${served.url}ctx-${w.context}`);
    await ready(page, `/ctx-${w.context}`);
    await page.waitForSelector('#code-commits');
    expect(await page.textContent('#code-commits h2')).toBe('Code commits');
    expect(await page.$$eval('#code-commits li', (els) => els.map((el) => [(el as HTMLElement).dataset.code, el.textContent]))).toEqual([[w.agentCommit, `${w.agentCommit.slice(0, 12)} recorded src/auth.ts · ${FIXED.CTX_NOW.slice(0, 16).replace('T', ' ')} by alice`]]);
    await page.screenshot({ path: join(shots, 'context.png') });

    // followed to the code commit: the diff on the left, the context on the right
    await page.click(`#code-commits a[href="/code/${w.agentCommit}"]`);
    await ready(page, `/code/${w.agentCommit}`);
    expect(await page.textContent('h1')).toBe('Retry the token refresh once');
    expect(await page.textContent('.code-message')).toBe(`Ctx-Context: ctx-${w.context}`);
    expect(await page.$$eval('#diff .file', (els) => els.map((el) => (el as HTMLElement).dataset.path))).toEqual(['src/auth.ts']);
    expect(await page.$$eval('#diff tr', (els) => els.map((el) => [el.className, ...[...el.querySelectorAll('td')].map((td) => td.textContent)]))).toEqual([
      ['hunk', '@@ -0,0 +1,3 @@'],
      ...AUTH.trimEnd().split('\n').map((text, i) => ['add', '', String(i + 1), `+${text}`]),
    ]);
    expect(await page.$$eval('#contexts .code-context', (els) => els.map((el) => [(el as HTMLElement).dataset.context, (el as HTMLElement).dataset.known]))).toEqual([[`ctx-${w.context}`, 'recorded']]);
    expect(await page.textContent('#contexts .code-context .files')).toBe('src/auth.ts');
    expect(await page.textContent('#contexts .code-context .who')).toBe(`claude-code · claude-opus-4-5 · alice · branch alice/auth · session ${SESSION}`);
    // the slice: the prompt, the reasoning (folded), the text, the tool call that wrote the file
    expect(await page.$$eval('#contexts .slice .step', (els) => els.map((el) => [(el as HTMLElement).dataset.kind, (el as HTMLElement).dataset.entry, el.querySelector('.text')!.textContent]))).toEqual([
      ['prompt', '0', PROMPT],
      ['reasoning', '1', THINKING],
      ['text', '1', 'Done.'],
      ['tool', '1', join(w.code, 'src/auth.ts')],
    ]);
    expect(await page.textContent('#contexts .slice-from')).toBe('The conversation from its start');
    expect(await page.isVisible('#contexts .step.reasoning .text')).toBe(false);
    expect(await page.$$eval('#contexts .slice .step .kind', (els) => els.map((el) => el.getAttribute('href')))).toEqual(Array(4).fill(`/ctx-${w.context}`));
    expect(await page.textContent('#contexts .step.tool')).toBe(`tool call #1 Write src/auth.ts${join(w.code, 'src/auth.ts')}`);
    const box = async (sel: string) => (await page.locator(sel).boundingBox())!;
    expect((await box('#contexts')).x).toBeGreaterThan((await box('#diff')).x + (await box('#diff')).width - 1);
    await page.screenshot({ path: join(shots, 'code.png'), fullPage: true });

    // the person's commit after it: its page says no context made it
    await page.goto(`${served.url}code/${w.humanCommit.slice(0, 8)}`);
    await ready(page, `/code/${w.humanCommit.slice(0, 8)}`);
    expect(await page.textContent('#no-context')).toBe('no context made this commit: a person did, or ctx was not there');
    expect(await page.$$eval('#diff tr.add td.src', (els) => els.map((el) => el.textContent))).toEqual([`+${BY_HAND.trimEnd()}`]);

    // a narrow screen: the conversation below the diff
    const narrow = await openPage(600);
    await narrow.page.goto(`${served.url}code/${w.agentCommit}`);
    await ready(narrow.page, `/code/${w.agentCommit}`);
    const d = (await narrow.page.locator('#diff').boundingBox())!;
    const c = (await narrow.page.locator('#contexts').boundingBox())!;
    expect(c.y).toBeGreaterThanOrEqual(d.y + d.height - 1);
    await narrow.page.screenshot({ path: join(shots, 'code-narrow.png'), fullPage: true });

    // the blame from the header box: the agent's lines name the context, the person's line is human
    await page.fill('#blame input', 'src/auth.ts');
    await page.press('#blame input', 'Enter');
    await ready(page, '/blame?file=src%2Fauth.ts');
    expect(await page.textContent('h1')).toBe('Blame: src/auth.ts');
    expect(await page.textContent('#blame-count')).toBe('4 lines, 3 written by a context');
    const rows = await page.$$eval('table.blame tr', (els) => els.map((el) => [...el.querySelectorAll('td')].map((td) => td.textContent)));
    expect(rows).toEqual([
      [w.agentCommit.slice(0, 8), `${w.context.slice(0, 12)} #1`, '1', 'export function refresh() {'],
      ['', '', '2', '  return retryOnce(fetchToken);'],
      ['', '', '3', '}'],
      [w.humanCommit.slice(0, 8), 'human', '4', BY_HAND.trimEnd()],
    ].map(([code, who, n, text]) => [code, who.startsWith('human') || who === '' ? who : `ctx-${who}`, n, text]));
    expect(await page.$$eval('table.blame tr', (els) => els.map((el) => (el as HTMLElement).dataset.context))).toEqual([...Array(3).fill(`ctx-${w.context}`), 'human']);
    expect(await page.getAttribute('table.blame tr >> nth=0', 'title')).toBe(PROMPT);
    await page.screenshot({ path: join(shots, 'blame.png'), fullPage: true });
    // a permalink to a line marks it; a range shows those lines only
    await page.goto(`${served.url}blame?file=src/auth.ts&lines=2,4#L4`);
    await ready(page, '/blame?file=src/auth.ts&lines=2,4');
    expect(await page.$$eval('table.blame tr', (els) => els.map((el) => [el.id, el.className]))).toEqual([
      ['L2', 'blame-line agent'],
      ['L3', 'blame-line agent'],
      ['L4', 'blame-line human target'],
    ]);
    await page.goto(`${served.url}blame?file=src/auth.ts`);
    await ready(page, '/blame?file=src/auth.ts');
    // its code commit opens the commit's page
    await page.click(`table.blame a[href="/code/${w.humanCommit}"]`);
    await ready(page, `/code/${w.humanCommit}`);
    expect(await page.textContent('h1')).toBe('Note the review');

    expect([...errors, ...narrow.errors]).toEqual([]);
  });
});
