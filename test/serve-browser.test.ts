// `ctx serve` in a real browser: Debian's chromium driven by playwright-core (never a downloaded
// browser). The pages are checked against the store (counts and exact texts, each tool call with its
// result), a fork is followed, a permalink opened, two commits compared, a search run, a file's
// history shown, and any console message of
// type error or page error fails the test. Screenshots go to test-output/; with CTX_SCREENSHOT=1 the
// README's is written to docs/serve.png.
import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, expect, it } from 'vitest';
import { describeBrowser, loadAll, openPage, ready, shot } from './browser-kit.js';
import { CORPUS, FIXTURES, ROOT, ctx, describeCorpus, newStore } from './helpers.js';
import { FIXED, fixtureStore, startServe, type Served } from './serve-kit.js';

const CORPUS_SESSION = join(CORPUS, 'claude-code', 'iansherr__claude-code-log__-Users-dain-workspace-claude-code-log-sample__0d3a8e6f-290f-4105-a327-a2496e5e2a83.jsonl');

/** The context's tool calls and results, and its plain user texts, read from the materialized transcript (the store's bytes). */
function transcriptFacts(store: string, id: string) {
  const r = ctx(store, ['materialize', id], { env: FIXED });
  expect(r.code, r.stderr).toBe(0);
  const calls: { id: string; name: string }[] = [];
  const results = new Map<string, string>();
  const userTexts: string[] = [];
  let images = 0;
  for (const line of r.stdout.split('\n').filter((l) => l.trim())) {
    const e = JSON.parse(line);
    const content = e.message?.content;
    if (e.type === 'user' && typeof content === 'string') userTexts.push(content);
    if (!Array.isArray(content)) continue;
    for (const b of content) {
      if (b.type === 'tool_use') calls.push({ id: b.id, name: b.name });
      if (b.type === 'image' && b.source?.data) images++;
      if (b.type === 'tool_result') {
        const parts = typeof b.content === 'string' ? [b.content] : (b.content ?? []).filter((x: { type: string }) => x.type === 'text').map((x: { text: string }) => x.text);
        results.set(b.tool_use_id, parts.join(''));
        if (Array.isArray(b.content)) images += b.content.filter((x: { type: string; source?: { data?: string } }) => x.type === 'image' && x.source?.data).length;
      }
    }
  }
  return { calls, results, userTexts, images };
}

/** Every tool call on the page paired with its result, exactly as the transcript holds them. */
async function checkPairing(page: Page, facts: ReturnType<typeof transcriptFacts>): Promise<void> {
  const onPage = await page.$$eval('details.tool', (els) =>
    els.map((el) => ({ id: (el as HTMLElement).dataset.callId!, name: (el as HTMLElement).dataset.tool!, result: el.querySelector('.result:not(.pending)')?.textContent ?? null })),
  );
  expect(onPage.map((c) => [c.id, c.name])).toEqual(facts.calls.map((c) => [c.id, c.name]));
  expect(onPage.filter((c) => c.result !== null).length).toBe(facts.results.size);
  for (const c of onPage) if (facts.results.has(c.id)) expect([c.id, c.result]).toEqual([c.id, facts.results.get(c.id)]);
}

describeBrowser('ctx serve in headless chromium', () => {
  let served: Served | undefined;
  afterAll(async () => {
    await served?.stop();
  });

  it('the graph, a fork followed to its messages (tool calls with their results), a permalink, a resume command copied, diffs, search, file history', async () => {
    const store = fixtureStore();
    served = await startServe(store, [], FIXED);
    const { url } = served;
    const { page, errors } = await openPage();

    await page.goto(`${url}graph`);
    await ready(page, '/graph');
    const log = ctx(store, ['log', '--all', '--json'], { env: FIXED }).stdout.trim().split('\n').map((l) => JSON.parse(l));
    const rows = await page.$$eval('.graph .row[data-id]', (els) => els.map((el) => (el as HTMLElement).dataset.id));
    expect(rows).toEqual(log.map((r) => r.id));
    // the fork's lane branches off the line it was made from
    expect(await page.$$eval('.graph .lanes', (els) => els.map((el) => el.textContent))).toEqual(['*', '| *', '| *', '| *', '|/', '*', '*']);
    await shot(page, 'serve-graph');

    // follow the fork: its tip, then its messages (the first page, then the rest as they scroll in)
    const fork = log.find((r) => r.branches.includes('review/finding-1'))!;
    await page.click(`.graph .row[data-id="${fork.id}"] a`);
    await ready(page, `/${fork.id}`);
    expect(await loadAll(page)).toBe(8);
    expect(await page.$$eval('article.msg', (els) => els.map((el) => (el as HTMLElement).dataset.role))).toEqual(['user', 'assistant', 'tool', 'assistant', 'user', 'assistant', 'tool', 'user']);
    const facts = transcriptFacts(store, 'review/finding-1');
    expect(facts.calls.length).toBe(2);
    await checkPairing(page, facts);
    const userTexts = await page.$$eval('article.msg.user', (els) => els.map((el) => el.querySelector(':scope > .text')?.textContent).filter((t) => t !== undefined));
    // drawn as markdown: a code span shows without its backticks
    expect(userTexts).toEqual(facts.userTexts.map((t) => t.replaceAll('`', '')));
    await page.click('details.tool >> nth=0');
    await shot(page, 'serve-fork');
    // the README's picture: the project's own fixture, never a corpus transcript
    if (process.env.CTX_SCREENSHOT === '1') await page.screenshot({ path: join(ROOT, 'docs', 'serve.png') });

    // a permalink by a short prefix opens that commit, with its note and the resume commands
    const tip = log.find((r) => r.branches.includes('alice/auth-fix'))!;
    const prefix = `ctx-${tip.id.slice(4, 12)}`;
    await page.goto(url + prefix);
    await ready(page, `/${prefix}`);
    expect(await page.textContent('h1')).toBe('blank lines no longer stop todo list');
    expect(await page.textContent('.notes')).toBe('labels fixed, todo-cli');
    expect(await page.$eval('table.meta', (t) => t.textContent)).toContain(`id${tip.id}`);
    // its own runtime's command comes by itself; a translated one when asked for
    await page.waitForSelector('.resume .cmd[data-runtime="claude-code"] code');
    expect(await page.$$eval('.resume .cmd', (els) => els.map((el) => (el as HTMLElement).dataset.runtime))).toEqual(['claude-code', 'codex', 'gemini-cli', 'pi', 'opencode', 'copilot']);
    expect(await page.locator('.resume code').count()).toBe(1);
    await page.click('.resume .cmd[data-runtime="codex"] button.show');
    await page.waitForSelector('.resume .cmd[data-runtime="codex"] code');
    expect(await page.textContent('.resume .cmd[data-runtime="codex"] code')).toMatch(new RegExp(`^ctx export codex ${tip.id} --session-id [0-9a-f-]{36} && cd ${process.cwd()} && codex resume [0-9a-f-]{36}$`));
    const command = await page.textContent('.resume .cmd[data-runtime="claude-code"] code');
    expect(command).toMatch(new RegExp(`^ctx export claude-code ${tip.id} --session-id [0-9a-f-]{36} && cd /Users/alex/src/todo-cli && claude --resume [0-9a-f-]{36}$`));
    await page.click('.resume .cmd[data-runtime="claude-code"] button');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(command);
    expect(await page.textContent('.resume .cmd[data-runtime="claude-code"] button')).toBe('Copied');

    // the whole chain, past the compaction, and back
    expect(await loadAll(page)).toBe(4);
    await page.click('text=the whole chain from its root');
    await ready(page, `/${prefix}?stop=root`);
    expect(await loadAll(page)).toBe(11);
    expect(await page.textContent('#m-0 .text')).toBe('The todo list command prints nothing when todos.txt starts with a blank line. Can you find out why?');
    expect(await page.textContent('#m-0 .text code')).toBe('todo list');
    await page.click('text=from the nearest compaction');
    await ready(page, `/${prefix}`);
    expect(await loadAll(page)).toBe(4);

    // the difference with its parent: the link on the page
    await page.click('text=difference with its parent');
    await ready(page, `/diff?${new URLSearchParams({ a: tip.parent, b: tip.id })}`);
    const sides = await page.$$eval('.compare .side', (els) => els.map((el) => el.querySelectorAll('article.msg').length));
    // the tip adds its turn (two messages) to its parent's context, which it holds whole
    expect(sides).toEqual([0, 2]);
    expect(await page.textContent('details.common > summary')).toBe('9 messages in common — show');
    await shot(page, 'serve-diff');

    // the graph a few commits at a time, then older ones
    await page.goto(`${url}graph?n=3`);
    await ready(page, '/graph?n=3');
    expect(await page.locator('.graph .row[data-id]').count()).toBe(3);
    await page.click('a.older');
    await ready(page, '/graph?n=1003');
    expect(await page.locator('.graph .row[data-id]').count()).toBe(6);
    expect(await page.locator('a.older').count()).toBe(0);

    // the graph's old address (the start page's, before the sessions) opens it still
    await page.goto(`${url}?n=3`);
    await ready(page, '/graph?n=3');
    expect(await page.locator('.graph .row[data-id]').count()).toBe(3);

    // back to the graph: compare two checked commits
    await page.goto(`${url}graph`);
    await ready(page, '/graph');
    await page.check(`.graph .row[data-id="${fork.id}"] input`);
    await page.check(`.graph .row[data-id="${tip.id}"] input`);
    await page.click('text=Compare the two checked');
    await ready(page, `/diff?${new URLSearchParams({ a: fork.id, b: tip.id })}`);
    // they part after the fork's commit, sharing its 7 messages
    expect(await page.textContent('details.common > summary')).toBe('7 messages in common — show');

    // a search from the header box: the hits of ctx grep, each opening its commit
    await page.fill('#search input', 'blank');
    await page.press('#search input', 'Enter');
    await ready(page, '/search?q=blank');
    const grep = ctx(store, ['grep', 'blank', '--json'], { env: FIXED }).stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(grep.length).toBe(5);
    expect(await page.$$eval('.hit', (els) => els.map((el) => (el as HTMLElement).dataset.commit))).toEqual(grep.map((g) => g.commit));
    expect(await page.$$eval('.hit mark', (els) => els.map((el) => el.textContent))).toEqual(grep.map(() => 'blank'));
    expect(await page.textContent('#hits')).toBe('5 hits for blank in 2 sessions');
    await shot(page, 'serve-search');
    await page.click('.hit >> nth=4');
    await ready(page, `/${grep[4].commit}`);

    // file history from the header box: the tool calls of ctx files
    await page.fill('#files input', 'src/list.ts');
    await page.press('#files input', 'Enter');
    await ready(page, '/files?path=src%2Flist.ts');
    const files = ctx(store, ['files', 'src/list.ts', '--json'], { env: FIXED }).stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(await page.$$eval('details.touch > summary', (els) => els.map((el) => [...el.children].map((c) => c.textContent)))).toEqual(
      files.map((f) => [f.at.slice(0, 19).replace('T', ' '), f.action, f.tool, `${f.commit.slice(0, 16)}copy`, f.branch, f.path]),
    );
    expect(files.map((f) => f.action)).toEqual(['edit', 'read']);

    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('a 2,000-turn, 20 MB session opens on its first page and loads the rest as it scrolls', async () => {
    const store = newStore();
    const lines: string[] = [];
    for (let i = 0; i < 2000; i++) {
      const at = new Date(Date.UTC(2026, 2, 4, 9) + i * 1000).toISOString();
      lines.push(JSON.stringify({ type: 'user', uuid: `u${i}`, parentUuid: i ? `a${i - 1}` : null, sessionId: 'big', cwd: '/w', timestamp: at, message: { role: 'user', content: `question ${i}` } }));
      lines.push(JSON.stringify({ type: 'assistant', uuid: `a${i}`, parentUuid: `u${i}`, sessionId: 'big', cwd: '/w', timestamp: at, message: { role: 'assistant', content: [{ type: 'text', text: `answer ${i} ${'x'.repeat(10_000)}` }] } }));
    }
    const file = join(store, '..', 'big.jsonl');
    writeFileSync(file, `${lines.join('\n')}\n`);
    expect(statSync(file).size).toBeGreaterThan(20e6);
    expect(ctx(store, ['import', 'claude-code', file, '-b', 'big'], { env: FIXED }).code).toBe(0);
    const s = await startServe(store, [], FIXED);
    try {
      const { page, errors } = await openPage();
      const id = JSON.parse(ctx(store, ['show', 'big', '--json'], { env: FIXED }).stdout).id;
      await page.goto(`${s.url}${id}`);
      await page.waitForSelector('article.msg');
      expect(await page.$eval('#messages', (el) => (el as HTMLElement).dataset.total)).toBe('4000');
      // one page at first, not the whole session
      expect(await page.locator('article.msg').count()).toBe(40);
      await page.mouse.wheel(0, 100_000);
      await page.waitForFunction(() => document.querySelectorAll('article.msg').length === 140);
      expect(await page.textContent('#m-120 .text')).toBe('question 60');
      // how fast the first page paints is bench/serve.mjs's to measure, never a timed assertion here
      expect(errors).toEqual([]);
      await page.context().close();
    } finally {
      await s.stop();
    }
  });

  it('a Codex session: each function call with its output, exactly as the rollout holds them', async () => {
    const store = newStore();
    const rollout = join(FIXTURES, 'codex', 'rollout-2026-11-22T21-04-49-01a20513-6ef2-75e0-a186-7b61e34882c3.jsonl');
    expect(ctx(store, ['import', 'codex', rollout, '-b', 'codex-run'], { env: FIXED }).code).toBe(0);
    const s = await startServe(store, [], FIXED);
    try {
      const { page, errors } = await openPage();
      const id = JSON.parse(ctx(store, ['show', 'codex-run', '--json'], { env: FIXED }).stdout).id;
      await page.goto(`${s.url}${id}`);
      await ready(page, `/${id}`);
      await loadAll(page);
      const items = ctx(store, ['materialize', 'codex-run'], { env: FIXED }).stdout.trim().split('\n').map((l) => JSON.parse(l)).filter((e) => e.type === 'response_item').map((e) => e.payload);
      const calls = items.filter((p) => p.type === 'function_call').map((p) => ({ id: p.call_id, name: p.name }));
      const results = new Map(items.filter((p) => p.type === 'function_call_output').map((p) => [p.call_id, p.output]));
      expect([calls.length, results.size]).toEqual([2, 2]);
      await checkPairing(page, { calls, results, userTexts: [], images: 0 });
      await page.waitForSelector('.resume .cmd[data-runtime="codex"] code');
      expect(await page.$$eval('.resume .cmd', (els) => els.map((el) => (el as HTMLElement).dataset.runtime))).toEqual(['codex', 'claude-code', 'gemini-cli', 'pi', 'opencode', 'copilot']);
      expect(errors).toEqual([]);
      await page.context().close();
    } finally {
      await s.stop();
    }
  });

  describeCorpus('a corpus session', () => {
    it('renders every message: thinking collapsed, tool calls with their results, images as data: URLs', async () => {
      const store = newStore();
      expect(ctx(store, ['import', 'claude-code', CORPUS_SESSION, '-b', 'corpus'], { env: FIXED }).code).toBe(0);
      const s = await startServe(store, [], FIXED);
      try {
        const { page, errors } = await openPage();
        const id = JSON.parse(ctx(store, ['show', 'corpus', '--json'], { env: FIXED }).stdout).id;
        await page.goto(`${s.url}${id}`);
        await ready(page, `/${id}`);
        const total = await loadAll(page);
        expect(await page.locator('article.msg').count()).toBe(total);
        const facts = transcriptFacts(store, 'corpus');
        // the session has 14 tool calls, each answered, and one screenshot
        expect([facts.calls.length, facts.results.size, facts.images]).toEqual([14, 14, 1]);
        await checkPairing(page, facts);
        expect(await page.locator('img.shot').count()).toBe(facts.images);
        expect(await page.$$eval('img.shot', (els) => els.every((el) => (el as HTMLImageElement).src.startsWith('data:image/') && (el as HTMLImageElement).naturalWidth > 0))).toBe(true);
        // thinking is collapsed
        const thinking = await page.$$eval('details.thinking', (els) => els.map((el) => (el as HTMLDetailsElement).open));
        expect(thinking.length).toBeGreaterThan(0);
        expect(thinking.every((open) => !open)).toBe(true);
        // the picture: a tool call opened with its result, in the conversation around it
        await page.click('details.tool >> nth=1 >> summary');
        await page.evaluate(() => scrollTo(0, 0));
        await shot(page, 'serve-corpus');
        expect(errors).toEqual([]);
        await page.context().close();
      } finally {
        await s.stop();
      }
    });
  });
});
