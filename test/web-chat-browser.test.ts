// The conversation on a commit's page as people read chat, in a real browser (Debian's chromium
// through playwright-core), over the project's fixture fixtures/claude-code/conversation.jsonl: its
// markdown (raw HTML shown as text, never run), thinking folded, each tool call drawn from its
// runtime's view (an edit as a diff, a file written as highlighted code, `$ cmd` with coloured,
// folded output, a checklist), images only from data, a subagent nested under its call, a compaction
// as a divider; screenshots at 375 and 1400 px pass the layout check. Also the /api/messages record.
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeBrowser, layoutProblems, loadAll, openPage, ready, shot } from './browser-kit.js';
import { FIXTURES, ctx, newStore } from './helpers.js';
import { FIXED, raw, startServe, type Served } from './serve-kit.js';

const FIXTURE = join(FIXTURES, 'claude-code', 'conversation.jsonl');

/** The fixture imported as `conv`; its log, newest first. */
function conversationStore(): { store: string; log: { id: string; type: string }[] } {
  const store = newStore();
  const r = ctx(store, ['import', 'claude-code', FIXTURE, '-b', 'conv'], { env: FIXED });
  if (r.code !== 0) throw new Error(r.stderr);
  const log = ctx(store, ['log', 'conv', '--json'], { env: FIXED }).stdout.trim().split('\n').map((l) => JSON.parse(l));
  return { store, log };
}

/** The layout check of the conversation's page, its header included. */
const conversationLayout = (page: Page): Promise<string[]> => layoutProblems(page);

const TOOL = (name: string) => `details.tool[data-tool="${name}"]`;
const texts = (page: Page, selector: string) => page.$$eval(selector, (els) => els.map((el) => el.textContent));

describe('/api/messages: tool calls with their views, a compaction marked', () => {
  let served: Served | undefined;
  let world: ReturnType<typeof conversationStore>;
  beforeAll(async () => {
    world = conversationStore();
    served = await startServe(world.store, [], FIXED);
  });
  afterAll(async () => {
    await served?.stop();
  });

  it('sends each call with its view (a one-line view with its arguments as key: value); the summary a compaction starts with carries its divider', async () => {
    const r = await raw(served!.url, `/api/messages?id=conv&stop=root&limit=100`);
    expect(r.status).toBe(200);
    const page = JSON.parse(r.body.trim());
    expect([page.total, page.offset]).toEqual([21, 0]);
    const calls = page.messages.flatMap((m: any) => m.content.filter((b: any) => b.type === 'tool_call').map((b: any) => [b.name, b.view?.kind ?? null]));
    expect(calls).toEqual([['Edit', 'edit'], ['Write', 'write'], ['Bash', 'shell'], ['TodoWrite', 'todo'], ['Task', 'agent'], ['WebSearch', 'brief']]);
    const search = page.messages.flatMap((m: any) => m.content.filter((b: any) => b.name === 'WebSearch'))[0];
    expect(search.view).toEqual({ kind: 'brief', text: '"vitest toEqual arrays"', args: [{ key: 'query', value: 'vitest toEqual arrays' }] });
    const edit = page.messages[2].content[0];
    expect(edit).toEqual({
      type: 'tool_call',
      id: 'toolu_edit_01',
      name: 'Edit',
      input: edit.input,
      view: { kind: 'edit', path: '/home/alex/src/todo-cli/src/list.ts', edits: [{ old: edit.input.old_string, new: edit.input.new_string }] },
    });
    const compaction = world.log.find((c) => c.type === 'compaction')!;
    const divided = page.messages.flatMap((m: any, i: number) => (m.divider ? [[i, m.divider]] : []));
    expect(divided).toEqual([[18, { kind: 'compaction', commit: compaction.id, summary: true }]]);
    // from the nearest compaction (the default), the summary opens the context
    const tip = JSON.parse((await raw(served!.url, `/api/messages?id=conv&limit=1`)).body.trim());
    expect([tip.total, tip.messages[0].divider]).toEqual([3, { kind: 'compaction', commit: compaction.id, summary: true }]);
  });
});

describeBrowser('the conversation in headless chromium', () => {
  let served: Served | undefined;
  afterAll(async () => {
    await served?.stop();
  });

  it('markdown, tool calls drawn from their views, images, a subagent, a compaction; no script runs; no overflow at 1400 and 375 px', async () => {
    const { store, log } = conversationStore();
    served = await startServe(store, [], FIXED);
    const tip = log[0].id;
    const compaction = log.find((c) => c.type === 'compaction')!.id;
    for (const width of [1400, 375]) {
      const { page, errors } = await openPage(width);
      let alerts = 0;
      page.on('dialog', (d) => {
        alerts++;
        void d.dismiss();
      });
      await page.goto(`${served.url}${tip}?stop=root`);
      await ready(page, `/${tip}?stop=root`);
      expect(await loadAll(page)).toBe(21);
      await shot(page, `web-chat-${width}`);
      expect(await conversationLayout(page)).toEqual([]);

      // the prompt: markdown, and the IDE's selection folded under its tag
      expect(await page.$$eval('#m-0 details.wrapped', (els) => els.map((el) => [(el as HTMLElement).dataset.tag, (el as HTMLDetailsElement).open, el.querySelector('summary')!.textContent]))).toEqual([['ide_selection', false, 'ide_selection']]);
      expect(await page.textContent('#m-0 details.wrapped pre')).toBe("The user selected the lines 3 to 4 from /home/alex/src/todo-cli/src/list.ts:\n    if (line === '') break;\n    todos.push(line);");
      expect(await texts(page, '#m-0 .text p')).toEqual(['Why does todo list stop at a blank line? Fix parseTodos, please.']);
      expect([await page.textContent('#m-0 .text strong'), await page.textContent('#m-0 .text code')]).toEqual(['todo list', 'parseTodos']);
      // thinking folded, drawn when opened
      expect(await page.$$eval('details.thinking', (els) => els.map((el) => [(el as HTMLDetailsElement).open, el.querySelector('.text')]))).toEqual([[false, null]]);
      await page.click('details.thinking > summary');
      await page.waitForSelector('details.thinking .text');
      expect(await page.$$eval('details.thinking', (els) => els.map((el) => [(el as HTMLDetailsElement).open, el.querySelector('.text')!.textContent]))).toEqual([[true, 'The loop breaks on the first empty line; it should skip it.']]);

      // the edit: a line diff with its context, its counts, and its result in the same block
      expect(await page.$eval(TOOL('Edit'), (el) => [(el as HTMLDetailsElement).open, el.querySelector('summary')!.textContent])).toEqual([true, 'Edit /home/alex/src/todo-cli/src/list.ts +1 −1']);
      expect(await page.$$eval(`${TOOL('Edit')} .diff-view .line`, (els) => els.map((el) => [el.className, el.textContent]))).toEqual([
        ['line ctx', "   for (const line of text.split('\\n')) {"],
        ['line del', "-    if (line === '') break;"],
        ['line add', "+    if (line.trim() === '') continue;"],
        ['line ctx', '     todos.push(line);'],
      ]);
      expect(await page.textContent(`${TOOL('Edit')} .result`)).toBe('The file /home/alex/src/todo-cli/src/list.ts has been updated successfully.');

      // the file written: folded, then when opened highlighted TypeScript, its first lines and a button for all 25
      expect(await page.$eval(TOOL('Write'), (el) => [(el as HTMLDetailsElement).open, el.querySelector('summary')!.textContent, el.querySelector('pre.code')])).toEqual([false, 'Write /home/alex/src/todo-cli/test/list.test.ts 25 lines', null]);
      await page.click(`${TOOL('Write')} > summary`);
      await page.waitForSelector(`${TOOL('Write')} pre.code.file`);
      expect(await page.$eval(`${TOOL('Write')} pre.code.file`, (el) => [el.classList.contains('folded'), el.querySelector('code')!.className, el.querySelectorAll('.hljs-keyword').length > 0, el.textContent!.split('\n').length])).toEqual([true, 'hljs language-typescript', true, 26]);
      await page.click(`${TOOL('Write')} > button.show-all`);
      expect(await page.$eval(`${TOOL('Write')} pre.code.file`, (el) => el.classList.contains('folded'))).toBe(false);

      // the shell call: `$ cmd`, its output coloured and folded after 20 lines, the output's own <script> as text
      expect(await page.textContent(`${TOOL('Bash')} > summary`)).toBe('$ npx vitest run test/list.test.ts');
      expect(await page.$eval(`${TOOL('Bash')} .result`, (el) => [el.classList.contains('folded'), el.querySelector('.ansi-green-fg')!.textContent, el.textContent!.split('\n').length, el.textContent!.split('\n').pop()])).toEqual([true, '✓', 26, '<script>alert(2)</script>']);
      expect(await page.textContent(`${TOOL('Bash')} > button.show-all`)).toBe('show all 26 lines');

      // the todo list as a checklist
      expect(await page.textContent(`${TOOL('TodoWrite')} > summary`)).toBe('TodoWrite 1 of 3 done');
      expect(await page.$$eval(`${TOOL('TodoWrite')} li.todo-item`, (els) => els.map((el) => [(el as HTMLElement).dataset.status, el.textContent]))).toEqual([
        ['completed', '☑ Fix parseTodos'],
        ['in_progress', '◐ Add tests'],
        ['pending', '☐ Update the changelog'],
      ]);

      // images: the transcript's PNG drawn from its data; an image by address named, never fetched
      expect(await page.$$eval('img', (els) => els.map((el) => [(el as HTMLImageElement).src.slice(0, 22), (el as HTMLImageElement).naturalWidth]))).toEqual([['data:image/png;base64,', 8]]);
      expect(await texts(page, '#m-10 .ref')).toEqual(['[image: https://example.com/tracker.png]']);

      // the subagent: its two messages nested in the Task call that started it, with the call's result
      expect(await page.textContent(`${TOOL('Task')} > summary`)).toBe('Task (Explore) Find other blank-line bugs · 2 subagent messages');
      expect(await page.$$eval(`${TOOL('Task')} .subagent-run article.msg`, (els) => els.map((el) => [el.id, (el as HTMLElement).dataset.author, el.querySelector('.text')!.textContent]))).toEqual([
        ['m-12', 'subagent', 'Search src/ for other loops that stop at an empty line.'],
        ['m-13', 'subagent', 'Only src/list.ts had one; src/done.ts already skips blank lines.'],
      ]);
      expect(await page.textContent(`${TOOL('Task')} .result`)).toBe('No other loop stops at an empty line.');

      // a tool said in one line (its runtime's plug-in): its arguments as key: value lines, folded; no tool shows JSON
      expect(await page.$eval(TOOL('WebSearch'), (el) => [(el as HTMLElement).dataset.view, (el as HTMLDetailsElement).open, el.querySelector('summary')!.textContent, el.querySelector('.args')!.textContent])).toEqual(['brief', false, 'WebSearch "vitest toEqual arrays"', 'query: vitest toEqual arrays']);
      expect(await page.$$eval('details.tool', (els) => els.filter((el) => /^\s*[{[]"/.test(el.textContent ?? '')).length)).toBe(0);
      // the results' own messages are drawn with their calls, not as rows of their own
      expect(await page.$$eval('article.msg.folded', (els) => els.map((el) => el.id))).toEqual(['m-3', 'm-5', 'm-7', 'm-9', 'm-14', 'm-16']);

      // the answer: a highlighted code block, a table, <script> as text, links only to http(s)
      // (a tag on lines of its own inside a fence stays the fence's text)
      expect(await page.$$eval('#m-17 pre.code code', (els) => els.map((el) => [el.className, el.textContent]))).toEqual([
        ['hljs language-ts', "if (line.trim() === '') continue;\n"],
        ['hljs language-xml', '<todo>\n  <skip-blank/>\n</todo>\n'],
      ]);
      expect(await page.locator('#m-17 details.wrapped').count()).toBe(0);
      expect(await texts(page, '#m-17 table td')).toEqual(['src/list.ts', 'break → continue']);
      expect(await texts(page, '#m-17 p')).toContain('A page that shows <script>alert(1)</script> must not run it; see the docs and [this](javascript:alert(3)).');
      expect(await page.$$eval('#m-17 .text a', (els) => els.map((el) => [el.getAttribute('href'), el.getAttribute('rel'), el.getAttribute('target')]))).toEqual([['https://vitest.dev/', 'noopener noreferrer nofollow', '_blank']]);
      expect(await page.$$eval('script', (els) => els.map((el) => el.getAttribute('src')))).toEqual(['/app.js']);
      expect(alerts).toBe(0);

      // the compaction: a divider with its summary folded, not a user message
      expect(await page.$eval('#m-18', (el) => [(el as HTMLElement).dataset.divider, el.querySelector('.divider')!.textContent, (el.querySelector('details.summary') as HTMLDetailsElement).open])).toEqual(['compaction', `context compacted ${compaction.slice(0, 16)}`, false]);
      expect(await texts(page, '#m-18 details.summary .text li')).toEqual(['parseTodos now skips blank lines.', 'Tests added in test/list.test.ts.']);
      expect(await page.locator('#m-18 .head').count()).toBe(0);

      // everything opened: still nothing wider than the window
      await page.$$eval('details', (els) => els.forEach((el) => ((el as HTMLDetailsElement).open = true)));
      await page.waitForSelector(`${TOOL('Task')} details.agent-prompt .text`);
      await page.$$eval('button.show-all', (els) => els.forEach((el) => (el as HTMLButtonElement).click()));
      await shot(page, `web-chat-open-${width}`);
      expect(await conversationLayout(page)).toEqual([]);
      expect(errors).toEqual([]);
      await page.context().close();
    }
  });

  it('in the dark: the same page, a screenshot, no overflow', async () => {
    const { store, log } = conversationStore();
    const s = await startServe(store, [], FIXED);
    try {
      const { page, errors } = await openPage(1400, { colorScheme: 'dark' });
      await page.goto(`${s.url}${log[0].id}?stop=root`);
      await ready(page, `/${log[0].id}?stop=root`);
      await loadAll(page);
      await shot(page, 'web-chat-dark');
      expect(await conversationLayout(page)).toEqual([]);
      expect(await page.$eval('.diff-view .line.add', (el) => getComputedStyle(el).backgroundColor)).toBe('rgb(18, 54, 31)');
      expect(errors).toEqual([]);
      await page.context().close();
    } finally {
      await s.stop();
    }
  });
});
