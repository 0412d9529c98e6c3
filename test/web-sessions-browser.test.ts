// The start page of sessions and the frame around every page, in headless chromium: the rows as
// /api/sessions gives them (grouped by project then runtime, newest first, forks nested), each
// filter kept in the URL, the graph one click away, the dark theme, the keys, the copy button,
// and screenshots at 375 and 1400 px, light and dark, that pass the layout check.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeBrowser, layoutProblems, openPage, ready, shot } from './browser-kit.js';
import { ctx } from './helpers.js';
import { FIXED, startServe, type Served } from './serve-kit.js';
import { sessionsStore } from './sessions-kit.js';

/** The page's clock (relative times read from it). */
const NOW = new Date('2026-11-27T18:00:00.000Z');
/** The first prompt as a title draws it: its `code` as code, the backticks gone. */
const FIRST_PROMPT = 'The todo list command prints nothing when todos.txt starts with a blank line. Can you find out why?';

/** Each row as the page draws it: depth (0 top, 1 a fork under it), title, runtime badge, model badge, relative time, its title attribute, counts, branch. */
function rows(page: Page) {
  return page.$$eval('.session-row', (els) =>
    els.map((el) => {
      let depth = 0;
      for (let p = el.parentElement?.parentElement; p && p.matches('ul.forks'); p = p.parentElement?.parentElement ?? null) depth++;
      const t = (sel: string) => el.querySelector(sel)?.textContent ?? null;
      return [depth, t('.title'), t('.badge.runtime'), t('.badge.model'), t('time'), el.querySelector('time')!.getAttribute('title'), t('.counts'), t('.branch')];
    }),
  );
}

/** The groups: project, then its runtimes' headings, then the branches of each (top-level rows and their forks). */
function groups(page: Page) {
  return page.$$eval('section.project', (els) =>
    els.map((s) => [s.querySelector('h2')!.textContent, ...[...s.querySelectorAll('.runtime-group')].map((g) => [g.querySelector('h3')!.textContent, ...[...g.querySelectorAll('li.session')].map((li) => (li as HTMLElement).dataset.branch)])]),
  );
}

describeBrowser('the sessions page and the frame in headless chromium', () => {
  let served: Served;
  let store: string;
  let kept: string;
  beforeAll(async () => {
    // one store for every test here: a copy outside the helpers' temp dirs, which go after each test
    kept = mkdtempSync(join(tmpdir(), 'ctx-sessions-'));
    store = join(kept, '.ctx');
    cpSync(sessionsStore(), store, { recursive: true });
    served = await startServe(store, [], FIXED);
  });
  afterAll(async () => {
    await served?.stop();
    rmSync(kept, { recursive: true, force: true });
  });

  async function open(path: string, width = 1400, colorScheme: 'light' | 'dark' = 'light') {
    const { page, errors } = await openPage(width, { colorScheme });
    await page.clock.setFixedTime(NOW);
    page.on('response', (r) => r.status() >= 400 && errors.push(`${r.status()} ${r.url()}`));
    await page.goto(served.url + path.slice(1));
    await ready(page, path).catch(async (e) => {
      throw new Error(`${e.message}; ready=${await page.evaluate(() => document.body.dataset.ready)}; errors: ${errors.join('; ')}`);
    });
    return { page, errors };
  }

  it('lists every session by project then runtime, newest first, forks under their session, with titles, badges, times and counts', async () => {
    const { page, errors } = await open('/');
    expect(await page.title()).toBe('Sessions · ctx');
    expect(await groups(page)).toEqual([
      ['/home/alice/proj', ['opencode', 'carol/file']],
      ['(no project recorded)', ['GitHub Copilot CLI', 'dave/copilot'], ['Gemini CLI', 'bob/gemini'], ['Codex CLI', 'bob/notes']],
      ['/home/alex/src/todo-cli', ['Claude Code', 'alice/merge']],
      ['/Users/alex/src/todo-cli', ['Claude Code', 'alice/auth-fix', 'review/finding-1', 'alice/side']],
      ['/home/alice/todo', ['pi', 'carol/done-flag']],
    ]);
    expect(await rows(page)).toEqual([
      [0, '"make a file"', 'opencode', 'mock-model', '1 h ago', '2026-11-27 16:02 UTC', '3 messages · 26 tokens', 'carol/file'],
      [0, 'make a file', 'GitHub Copilot CLI', null, '2 h ago', '2026-11-27 15:55 UTC', '11 messages · 95 tokens', 'dave/copilot'],
      [0, 'read notes.txt please', 'Gemini CLI', 'gemini-3.8-flash', '9 months ago', '2026-03-02 09:00 UTC', '5 messages · 125 tokens', 'bob/gemini'],
      [0, 'read notes.txt please', 'Codex CLI', null, '9 months ago', '2026-03-01 10:00 UTC', '5 messages · 96 tokens', 'bob/notes'],
      [0, 'Fix and merge todo list blank-line bug', 'Claude Code', 'claude-opus-5-5', '1 week ago', '2026-11-20 11:00 UTC', '6 messages · 68 tokens', 'alice/merge'],
      [0, FIRST_PROMPT, 'Claude Code', 'claude-opus-4-5-20251101', '8 months ago', '2026-03-04 09:15 UTC', '11 messages · 388 tokens', 'alice/auth-fix'],
      [1, FIRST_PROMPT, 'Claude Code', 'claude-opus-4-5-20251101', '8 months ago', '2026-03-05 10:00 UTC', '8 messages · 240 tokens', 'review/finding-1'],
      [1, FIRST_PROMPT, 'Claude Code', 'claude-opus-4-5-20251101', '8 months ago', '2026-03-04 09:14 UTC', '9 messages · 368 tokens', 'alice/side'],
      [0, 'Add a --done flag to todo list.', 'pi', 'claude-sonnet-4-5', '10 months ago', '2026-01-10 09:02 UTC', '14 messages · 123 tokens', 'carol/done-flag'],
    ]);
    // a title's code spans are drawn as code
    expect(await page.$$eval('.session-row .title code', (els) => els.map((el) => [el.closest('li')!.dataset.branch, el.textContent]))).toEqual([
      ['alice/auth-fix', 'todo list'],
      ['review/finding-1', 'todo list'],
      ['alice/side', 'todo list'],
      ['carol/done-flag', 'todo list'],
    ]);
    // the runtime's own title is marked as such; a title opens the session's tip
    expect(await page.$$eval('.session-row .title.titled', (els) => els.map((el) => el.textContent))).toEqual(['Fix and merge todo list blank-line bug']);
    expect(await page.textContent('#session-count')).toBe('9 sessions');
    const tip = JSON.parse(ctx(store, ['show', 'alice/merge', '--json'], { env: FIXED }).stdout).id;
    await page.click('li[data-branch="alice/merge"] > .session-row .title');
    await ready(page, `/${tip}`);
    expect(await page.title()).toBe('Thanks, merge it. · ctx');
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('filters by runtime, project, branch glob and date, each kept in the URL; the graph one click away', async () => {
    const { page, errors } = await open('/');
    const branches = () => page.$$eval('li.session', (els) => els.map((el) => (el as HTMLElement).dataset.branch));
    await page.selectOption('#filters select[name=runtime]', 'claude-code');
    await ready(page, '/?runtime=claude-code');
    expect(await branches()).toEqual(['alice/merge', 'alice/auth-fix', 'review/finding-1', 'alice/side']);
    expect(await page.textContent('#session-count')).toBe('4 of 9 sessions');
    await page.selectOption('#filters select[name=project]', '/Users/alex/src/todo-cli');
    await ready(page, '/?runtime=claude-code&project=%2FUsers%2Falex%2Fsrc%2Ftodo-cli');
    expect(await branches()).toEqual(['alice/auth-fix', 'review/finding-1', 'alice/side']);
    // a permalink: the filters come back from the URL
    await page.goto(`${served.url}?branch=${encodeURIComponent('review/*')}`);
    await ready(page, '/?branch=review%2F*');
    expect(await page.inputValue('#filters input[name=branch]')).toBe('review/*');
    // a fork whose session is filtered out stands alone, saying what it forks from
    expect(await branches()).toEqual(['review/finding-1']);
    expect(await page.textContent('li[data-branch="review/finding-1"] .fork-of')).toBe('fork of alice/auth-fix');
    await page.fill('#filters input[name=branch]', 'bob/?otes');
    await page.press('#filters input[name=branch]', 'Enter');
    await ready(page, '/?branch=bob%2F%3Fotes');
    expect(await branches()).toEqual(['bob/notes']);
    await page.goto(`${served.url}?since=2026-11-01`);
    await ready(page, '/?since=2026-11-01');
    expect(await branches()).toEqual(['carol/file', 'dave/copilot', 'alice/merge']);
    await page.goto(`${served.url}?since=1d`);
    await ready(page, '/?since=1d');
    expect(await branches()).toEqual(['carol/file', 'dave/copilot']);
    await page.goto(`${served.url}?runtime=pi&since=1d`);
    await ready(page, '/?runtime=pi&since=1d');
    expect([await branches(), await page.textContent('p.empty')]).toEqual([[], 'No session matches these filters.']);
    await page.click('#filters a.clear');
    await ready(page, '/');
    expect((await branches()).length).toBe(9);
    // the graph: the header's link and the page's
    await page.click('a.graph-link');
    await ready(page, '/graph');
    expect(await page.title()).toBe('Graph · ctx');
    expect(await page.locator('.graph .row[data-id]').count()).toBe(Number(ctx(store, ['log', '--all', '--json'], { env: FIXED }).stdout.trim().split('\n').length));
    await page.click('header a.nav-sessions');
    await ready(page, '/');
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('the theme follows the system, the toggle overrides it and is remembered; keys move, open and help; a copy button copies', async () => {
    const { page, errors } = await open('/', 1400, 'dark');
    const colours = () => page.evaluate(() => [getComputedStyle(document.body).backgroundColor, getComputedStyle(document.body).color]);
    expect(await colours()).toEqual(['rgb(13, 17, 23)', 'rgb(230, 237, 243)']);
    await page.click('#theme');
    expect(await colours()).toEqual(['rgb(255, 255, 255)', 'rgb(29, 31, 33)']);
    expect(await page.evaluate(() => localStorage.getItem('ctx-theme'))).toBe('light');
    await page.reload();
    await ready(page, '/');
    expect(await colours()).toEqual(['rgb(255, 255, 255)', 'rgb(29, 31, 33)']);
    await page.keyboard.press('t');
    expect(await colours()).toEqual(['rgb(13, 17, 23)', 'rgb(230, 237, 243)']);

    // j/k through the rows, Enter opens the current one
    const current = () => page.$$eval('.session-row.current', (els) => els.map((el) => el.closest('li')!.dataset.branch));
    await page.keyboard.press('j');
    await page.keyboard.press('j');
    await page.keyboard.press('j');
    expect(await current()).toEqual(['bob/gemini']);
    await page.keyboard.press('k');
    expect(await current()).toEqual(['dave/copilot']);
    // ? shows the keys, Escape hides them; / goes to the search box
    await page.keyboard.press('?');
    expect(await page.$$eval('#keys kbd', (els) => els.map((el) => el.textContent))).toEqual(['j / k', 'Enter', 'n / p, ] / [', '/', 'g', 't', '?']);
    await page.keyboard.press('Escape');
    expect(await page.locator('#keys').count()).toBe(0);
    await page.keyboard.press('/');
    expect(await page.evaluate(() => document.activeElement?.closest('form')?.id)).toBe('search');
    await page.keyboard.press('Escape');
    await page.keyboard.press('Enter');
    const copilot = JSON.parse(ctx(store, ['show', 'dave/copilot', '--json'], { env: FIXED }).stdout);
    await ready(page, `/${copilot.id}`);
    // p goes to the parent, n back to the commit it was left for
    await page.keyboard.press('p');
    await ready(page, `/${copilot.parent}`);
    await page.keyboard.press('n');
    await ready(page, `/${copilot.id}`);
    // the commit page's copy button copies its id
    await page.click('p.toolbar button.copy');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(copilot.id);
    await page.keyboard.press('g');
    await ready(page, '/');
    await page.click('li[data-branch="bob/notes"] > .session-row button.copy');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(JSON.parse(ctx(store, ['show', 'bob/notes', '--json'], { env: FIXED }).stdout).id);
    expect(await page.textContent('li[data-branch="bob/notes"] > .session-row button.copy')).toBe('Copied');
    expect(errors).toEqual([]);
    await page.context().close();
  });

  for (const scheme of ['light', 'dark'] as const) {
    it(`fits at 375 and 1400 px in the ${scheme} theme (screenshots; nothing past the window's edges)`, async () => {
      for (const width of [375, 1400]) {
        const { page, errors } = await open('/', width, scheme);
        expect(await layoutProblems(page)).toEqual([]);
        await shot(page, `sessions-${width}-${scheme}`);
        if (width === 375) {
          // one search box in the header; the other forms behind the menu, which opens within the window
          expect(await page.isVisible('#files')).toBe(false);
          expect(await page.$eval('header', (el) => el.getBoundingClientRect().height)).toBeLessThan(60);
          await page.click('#menu');
          expect(await page.isVisible('#files')).toBe(true);
          expect(await layoutProblems(page)).toEqual([]);
          await shot(page, `sessions-${width}-${scheme}-menu`);
        }
        expect(errors).toEqual([]);
        await page.context().close();
      }
    });
  }
});
