// Three parts of the conversation page, in headless chromium: a Claude Code subagent kept on its own
// branch drawn inside the Task call that started it (loaded when the call opens); a search hit that
// opens its message, also one deep in a long session (the list starts a few messages before it);
// a ctx clear or ctx compact shown as a divider (with the compact's summary) when the whole chain is read
// (?stop=root). Plus their API records.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { describeBrowser, layoutProblems, openPage, ready, shot } from './browser-kit.js';
import { ctx, git, newStore, tempDir } from './helpers.js';
import { FIXED, raw, startServe, type Served } from './serve-kit.js';

const SESSION = '7d2c9a10-4b1e-4c3f-9a8b-1c2d3e4f5a6b';
const AGENT = 'a5f3e2d1c0b9a8f7';
const PROMPT = 'List the files under src/ that **parse** dates.';
const at = (n: number) => new Date(Date.UTC(2026, 2, 4, 9, 0, n)).toISOString();
const line = (n: number, type: 'user' | 'assistant', content: unknown, extra: Record<string, unknown> = {}) => ({
  type,
  sessionId: SESSION,
  cwd: '/home/alex/src/cal',
  version: '2.1.330',
  isSidechain: false,
  uuid: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  parentUuid: n ? `00000000-0000-4000-8000-${String(n - 1).padStart(12, '0')}` : null,
  timestamp: at(n),
  message: type === 'user' ? { role: 'user', content } : { id: `msg_${n}`, role: 'assistant', model: 'claude-opus-4-5-20251101', content },
  ...extra,
});
const jsonl = (lines: object[]) => lines.map((l) => `${JSON.stringify(l)}\n`).join('');

/** A session whose Task call's subagent transcript is a file of its own (agent-<id>.jsonl), both imported: the agent's branch starts at the Task's commit. */
function subagentStore(): { store: string; tip: string; agentBranch: string } {
  const dir = tempDir();
  const main = join(dir, `${SESSION}.jsonl`);
  writeFileSync(
    main,
    jsonl([
      line(0, 'user', 'Which files parse dates?'),
      line(1, 'assistant', [{ type: 'tool_use', id: 'toolu_task_9', name: 'Task', input: { description: 'Find date parsing', subagent_type: 'Explore', prompt: PROMPT } }]),
      line(2, 'user', [{ type: 'tool_result', tool_use_id: 'toolu_task_9', content: 'src/when.ts and src/range.ts parse dates.' }], { toolUseResult: { agentId: AGENT } }),
      line(3, 'assistant', [{ type: 'text', text: 'Two files: `src/when.ts` and `src/range.ts`.' }]),
    ]),
  );
  const agent = join(dir, `agent-${AGENT}.jsonl`);
  const side = (n: number, type: 'user' | 'assistant', content: unknown) => ({ ...line(n, type, content), isSidechain: true, agentId: AGENT, uuid: `10000000-0000-4000-8000-${String(n).padStart(12, '0')}`, parentUuid: n === 10 ? null : `10000000-0000-4000-8000-${String(n - 1).padStart(12, '0')}` });
  writeFileSync(
    agent,
    jsonl([
      { ...side(10, 'user', PROMPT), sourceToolAssistantUUID: line(1, 'assistant', []).uuid },
      side(11, 'assistant', [{ type: 'tool_use', id: 'toolu_grep_1', name: 'Bash', input: { command: 'grep -rl Date.parse src' } }]),
      side(12, 'user', [{ type: 'tool_result', tool_use_id: 'toolu_grep_1', content: 'src/when.ts\nsrc/range.ts' }]),
      side(13, 'assistant', [{ type: 'text', text: 'src/when.ts and src/range.ts parse dates.' }]),
    ]),
  );
  const store = newStore();
  for (const file of [main, agent]) {
    const r = ctx(store, ['import', 'claude-code', file], { env: FIXED });
    if (r.code !== 0) throw new Error(r.stderr);
  }
  const tip = JSON.parse(ctx(store, ['show', `claude/${SESSION}`, '--json'], { env: FIXED }).stdout).id;
  return { store, tip, agentBranch: `claude/${SESSION}.agent-${AGENT}` };
}

/** A session of `turns` turns (a prompt and an answer each) with a needle in the answer of turn 2 and of turn 120. */
function longStore(turns = 150): { store: string } {
  const dir = tempDir();
  const file = join(dir, `${SESSION}.jsonl`);
  const lines: object[] = [];
  for (let i = 0; i < turns; i++) {
    lines.push(line(2 * i, 'user', `Step ${i}: go on.`));
    lines.push(line(2 * i + 1, 'assistant', [{ type: 'text', text: i === 2 ? 'The early needle-early is here.' : i === 120 ? 'Found the needle-deep at last.' : `Step ${i} done.` }]));
  }
  writeFileSync(file, jsonl(lines));
  const store = newStore();
  const r = ctx(store, ['import', 'claude-code', file, '-b', 'long'], { env: FIXED });
  if (r.code !== 0) throw new Error(r.stderr);
  return { store };
}

/** `ctx ARGS` in `store` that must exit 0: its stdout. */
const okIn = (store: string) => (args: string[], input?: string) => {
  const r = ctx(store, args, { env: FIXED, input });
  if (r.code !== 0) throw new Error(r.stderr);
  return r.stdout;
};

/** A session, a ctx clear, and a turn after it. */
function clearedStore(): { store: string; clear: string; tip: string } {
  const dir = tempDir();
  const file = join(dir, `${SESSION}.jsonl`);
  writeFileSync(file, jsonl([line(0, 'user', 'First task.'), line(1, 'assistant', [{ type: 'text', text: 'First answer.' }])]));
  const store = newStore();
  const ok = okIn(store);
  ok(['import', 'claude-code', file, '-b', 'work']);
  const clear = JSON.parse(ok(['clear', 'work', '--json'])).id;
  const tip = JSON.parse(ok(['checkpoint', '-b', 'work', '--format', 'claude-code-v1', '--json', '-'], jsonl([line(2, 'user', 'A new task after the clear.')]))).id;
  return { store, clear, tip };
}

/** How Claude Code's format opens a compaction's summary. */
const LEAD_IN = 'This session is being continued from a previous conversation that ran out of context. The summary below covers the earlier portion of the conversation.';

/** A session of three turns, a ctx compact keeping the last, and a turn after it. */
function compactedStore(): { store: string; compaction: string; tip: string } {
  const dir = tempDir();
  const file = join(dir, `${SESSION}.jsonl`);
  const turns = ['First', 'Second', 'Third'].flatMap((w, i) => [line(2 * i, 'user', `${w} task.`), line(2 * i + 1, 'assistant', [{ type: 'text', text: `${w} answer.` }])]);
  writeFileSync(file, jsonl(turns));
  writeFileSync(join(dir, 'summary.md'), 'The **summary** of the work so far.\n');
  const store = newStore();
  const ok = okIn(store);
  ok(['import', 'claude-code', file, '-b', 'work']);
  const compaction = JSON.parse(ok(['compact', 'work', '--summary-file', join(dir, 'summary.md'), '--keep-turns', '1', '--json'])).id;
  const tip = JSON.parse(ok(['checkpoint', '-b', 'work', '--format', 'claude-code-v1', '--json', '-'], jsonl([line(6, 'user', 'A new task after the compact.')]))).id;
  return { store, compaction, tip };
}

/** `git update-ref --stdin` with these lines. */
const execGit = (gitdir: string, input: string) => execFileSync('git', ['--git-dir', gitdir, 'update-ref', '--stdin'], { input: `${input}\n` });

const page1 = async (url: string, path: string) => JSON.parse((await raw(url, path)).body.trim());

describe('/api/messages: a subagent run, where the commit’s own messages start, a clear under ?stop=root', () => {
  const served: Served[] = [];
  // each test's server stops before helpers.ts removes that test's temp store (a live server may still be writing in it)
  afterEach(async () => {
    for (const s of served.splice(0)) await s.stop();
  });

  it('an agent call carries the run on its own branch; the run reads from its first commit', async () => {
    const { store, tip, agentBranch } = subagentStore();
    const s = await startServe(store, [], FIXED);
    served.push(s);
    const p = await page1(s.url, `/api/messages?id=${tip}&stop=root`);
    const agentTip = JSON.parse(ctx(store, ['show', agentBranch, '--json'], { env: FIXED }).stdout).id;
    const call = p.messages[1].content[0];
    expect([call.name, call.view.kind, call.run.branch, call.run.id]).toEqual(['Task', 'agent', agentBranch, agentTip]);
    const run = await page1(s.url, `/api/messages?id=${call.run.id}&stop=${call.run.stop}`);
    expect(run.messages.map((m: any) => [m.role, m.author ?? null, m.content.map((b: any) => b.type).join(',')])).toEqual([
      ['user', 'subagent', 'text'],
      ['assistant', 'subagent', 'tool_call'],
      ['tool', 'subagent', 'tool_result'],
      ['assistant', 'subagent', 'text'],
    ]);
    expect(run.messages[0].content[0].text).toBe(PROMPT);
  });

  it('among many branches (sessions, forks, copies of the run) the call keeps the same run, and the branches are read once per store state', async () => {
    const { store, tip, agentBranch } = subagentStore();
    const runOf = async (url: string, id: string, stop = 'root') => (await page1(url, `/api/messages?id=${id}&stop=${stop}`)).messages[1].content[0].run;
    const alone = await startServe(store, [], FIXED);
    served.push(alone);
    const before = await runOf(alone.url, tip);
    await alone.stop();
    // 40 other sessions in one import, 200 more names for their tips and 20 for the run's, two forks with turns of their own
    const dir = tempDir();
    for (let k = 0; k < 40; k++) {
      const id = `5e55a0${String(k).padStart(2, '0')}-0000-4000-8000-000000000000`;
      writeFileSync(join(dir, `${id}.jsonl`), jsonl([{ ...line(0, 'user', `Other session ${k}.`), sessionId: id, uuid: `20000000-0000-4000-8000-${String(k).padStart(12, '0')}` }]));
    }
    const ok = okIn(store);
    ok(['import', 'claude-code', dir]);
    const heads = git(store, ['for-each-ref', '--format=%(objectname) %(refname)', 'refs/heads/']).trim().split('\n').map((l) => l.split(' '));
    const others = heads.filter(([, ref]) => !ref.includes(SESSION));
    expect(others.length).toBe(40);
    const agentTip = heads.find(([, ref]) => ref === `refs/heads/${agentBranch}`)![0];
    const copies = [...Array.from({ length: 200 }, (_, i) => `${others[i % 40][0]} refs/heads/many/s${i}`), ...Array.from({ length: 20 }, (_, i) => `${agentTip} refs/heads/zz/run-copy-${i}`)];
    execGit(store, copies.map((c) => `create ${c.split(' ')[1]} ${c.split(' ')[0]}`).join('\n'));
    // a turn after the run's commit, and a fork with a turn of its own from each of the two
    const next = JSON.parse(ok(['checkpoint', '-b', `claude/${SESSION}`, '--format', 'claude-code-v1', '--json', '-'], jsonl([line(4, 'user', 'Thanks.')]))).id;
    for (const [at, name] of [[tip, 'side/early'], [next, 'side/late']]) {
      ok(['fork', at, name]);
      ok(['checkpoint', '-b', name, '--format', 'claude-code-v1', '-'], jsonl([line(20, 'user', `Go on from ${name}.`)]));
    }
    const trace = join(tempDir(), 'trace');
    const s = await startServe(store, [], { ...FIXED, GIT_TRACE: trace });
    served.push(s);
    const histories = () => readFileSync(trace, 'utf8').split('\n').filter((l) => l.includes('rev-list --first-parent --parents')).length;
    expect((await raw(s.url, '/api/sessions')).body.trim().split('\n').length).toBe(264);
    expect(await runOf(s.url, tip)).toEqual(before);
    expect(before).toEqual({ id: `ctx-${agentTip}`, stop: before.stop, branch: agentBranch });
    expect(await runOf(s.url, tip, 'compaction')).toEqual(before);
    expect(await runOf(s.url, next)).toEqual(before);
    expect(histories()).toBe(1);
    // a new turn moves a branch: the next conversation reads the branches again, once
    ok(['checkpoint', '-b', 'side/late', '--format', 'claude-code-v1', '-'], jsonl([line(21, 'user', 'One more turn.')]));
    expect(await runOf(s.url, next, 'compaction')).toEqual(before);
    expect(await runOf(s.url, next, tip)).toEqual(before);
    expect(histories()).toBe(2);
  });

  it('own: the index of the first message the commit itself holds', async () => {
    const { store } = longStore(6);
    const s = await startServe(store, [], FIXED);
    served.push(s);
    const log = ctx(store, ['log', 'long', '--json'], { env: FIXED }).stdout.trim().split('\n').map((l) => JSON.parse(l));
    const pages = await Promise.all(log.map((c: { id: string }) => page1(s.url, `/api/messages?id=${c.id}&limit=1`)));
    // one commit a turn, newest first: each turn's prompt is its own first message
    expect(pages.map((p) => [p.total, p.own])).toEqual([[12, 10], [10, 8], [8, 6], [6, 4], [4, 2], [2, 0]]);
  });

  it('?stop=root reads through a ctx clear and marks the message after it', async () => {
    const { store, clear, tip } = clearedStore();
    const s = await startServe(store, [], FIXED);
    served.push(s);
    const root = await page1(s.url, `/api/messages?id=${tip}&stop=root`);
    expect(root.messages.map((m: any) => [m.content[0].text, m.divider ?? null])).toEqual([
      ['First task.', null],
      ['First answer.', null],
      ['A new task after the clear.', { kind: 'clear', commit: clear, summary: false }],
    ]);
    // from the nearest compaction (the clear) the same divider
    const near = await page1(s.url, `/api/messages?id=${tip}`);
    expect(near.messages.map((m: any) => m.divider ?? null)).toEqual([{ kind: 'clear', commit: clear, summary: false }]);
  });

  it('?stop=root reads through a ctx compact and puts its summary back where it sits, as a compaction holds it', async () => {
    const { store, compaction, tip } = compactedStore();
    const s = await startServe(store, [], FIXED);
    served.push(s);
    const text = (m: any) => m.content.map((b: any) => b.text).join('|');
    const summary = `${LEAD_IN}\n\n[ctx compact] Summary of the earlier conversation (3 messages):\n\nThe **summary** of the work so far.`;
    const root = await page1(s.url, `/api/messages?id=${tip}&stop=root`);
    expect(root.messages.map((m: any) => [m.role, text(m), m.divider ?? null])).toEqual([
      ['user', 'First task.', null],
      ['assistant', 'First answer.', null],
      ['user', 'Second task.', null],
      ['assistant', 'Second answer.', null],
      ['user', 'Third task.', null],
      ['assistant', 'Third answer.', null],
      ['user', summary, { kind: 'compaction', commit: compaction, summary: true }],
      ['user', 'A new task after the compact.', null],
    ]);
    expect([root.total, root.own]).toEqual([8, 7]);
    // from the compaction: the same summary first, then what it kept (the first prompt, the last turn)
    const near = await page1(s.url, `/api/messages?id=${tip}`);
    expect(near.messages.map((m: any) => [text(m), m.divider ?? null])).toEqual([
      [summary, { kind: 'compaction', commit: compaction, summary: true }],
      ['First task.', null],
      ['Third task.', null],
      ['Third answer.', null],
      ['A new task after the compact.', null],
    ]);
  });
});

describeBrowser('subagents nested, search hits opening their message, a clear and a compact divider', () => {
  const served: Served[] = [];
  // each test's server stops before helpers.ts removes that test's temp store (a live server may still be writing in it)
  afterEach(async () => {
    for (const s of served.splice(0)) await s.stop();
  });

  it('the Task call holds its subagent run from its branch, folded, drawn when opened; no overflow at 1400 and 375 px', async () => {
    const { store, tip, agentBranch } = subagentStore();
    const s = await startServe(store, [], FIXED);
    served.push(s);
    for (const width of [1400, 375]) {
      const { page, errors } = await openPage(width);
      await page.goto(`${s.url}${tip}?stop=root`);
      await ready(page, `/${tip}?stop=root`);
      const task = 'details.tool[data-view="agent"]';
      expect(await page.$eval(task, (el) => [(el as HTMLDetailsElement).open, el.querySelector('summary')!.textContent, el.querySelectorAll('article.msg').length])).toEqual([false, 'Task (Explore) Find date parsing · subagent run', 0]);
      await page.click(`${task} > summary`);
      await page.waitForSelector(`${task} .subagent-messages article.msg`);
      expect(await page.textContent(`${task} > summary`)).toBe('Task (Explore) Find date parsing · 4 subagent messages');
      expect(await page.textContent(`${task} .run-branch`)).toBe(`on its branch ${agentBranch}`);
      // the prompt, the subagent's own shell call with its result, its answer; the tool result's message folded into its call
      const nested = await page.$$eval(`${task} .subagent-messages > article.msg`, (els) => els.map((el) => [el.getAttribute('data-role'), el.id, el.classList.contains('folded')]));
      expect(nested).toEqual([
        ['user', '', false],
        ['assistant', '', false],
        ['tool', '', true],
        ['assistant', '', false],
      ]);
      expect(await page.textContent(`${task} .subagent-messages article.msg:first-child .text strong`)).toBe('parse');
      expect(await page.textContent(`${task} .subagent-messages details.tool[data-view="shell"] > summary`)).toBe('$ grep -rl Date.parse src');
      expect(await page.textContent(`${task} .subagent-messages details.tool[data-view="shell"] .result`)).toBe('src/when.ts\nsrc/range.ts');
      expect(await page.textContent(`${task} .subagent-messages article.msg:last-child .text p`)).toBe('src/when.ts and src/range.ts parse dates.');
      // the main list holds the session's own four messages only
      expect(await page.$$eval('#messages > .block > article.msg', (els) => els.map((el) => el.id))).toEqual(['m-0', 'm-1', 'm-2', 'm-3']);
      await shot(page, `web-subagent-${width}`);
      expect(await layoutProblems(page)).toEqual([]);
      expect(errors).toEqual([]);
      await page.context().close();
    }
  });

  it('a search hit opens its message, marked and in view, also deep in a long session where the list starts near it', async () => {
    const { store } = longStore();
    const s = await startServe(store, [], FIXED);
    served.push(s);
    for (const [needle, index, earlier] of [
      ['needle-early', 5, null],
      ['needle-deep', 241, '238 earlier messages not shown · show from the start'],
    ] as const) {
      const { page, errors } = await openPage(1400);
      await page.goto(`${s.url}search?q=${needle}`);
      await ready(page, `/search?q=${needle}`);
      const href = await page.getAttribute('a.hit', 'href');
      const commit = JSON.parse((await raw(s.url, `/api/grep?q=${needle}&fixed=1`)).body.trim());
      expect(href).toBe(`/${commit.commit}#entry-1`);
      await page.click('a.hit');
      await ready(page, `/${commit.commit}`);
      expect(new URL(page.url()).hash).toBe('#entry-1');
      expect(await page.$$eval('.target', (els) => els.map((el) => [el.id, el.querySelector('.text')!.textContent]))).toEqual([[`m-${index}`, needle === 'needle-early' ? 'The early needle-early is here.' : 'Found the needle-deep at last.']]);
      const box = await page.$eval('.target', (el) => {
        const r = el.getBoundingClientRect();
        return r.top >= 0 && r.bottom <= innerHeight;
      });
      expect(box).toBe(true);
      expect(await page.$$eval('p.earlier', (els) => els.map((el) => el.textContent))).toEqual(earlier ? [earlier] : []);
      // a message's own link opens it the same way
      expect(await page.getAttribute(`#m-${index} a.index`, 'href')).toBe(`#m-${index}`);
      expect(errors).toEqual([]);
      await page.context().close();
    }
  });

  it('?stop=root shows the clear as a divider above the message after it', async () => {
    const { store, clear, tip } = clearedStore();
    const s = await startServe(store, [], FIXED);
    served.push(s);
    const { page, errors } = await openPage(375);
    await page.goto(`${s.url}${tip}?stop=root`);
    await ready(page, `/${tip}?stop=root`);
    expect(await page.$$eval('.divider', (els) => els.map((el) => [el.className, (el as HTMLElement).dataset.commit, el.textContent, el.closest('article')!.id]))).toEqual([['divider clear', clear, `context cleared ${clear.slice(0, 16)}`, 'm-2']]);
    expect(await page.textContent('#m-2 .text')).toBe('A new task after the clear.');
    expect(await layoutProblems(page)).toEqual([]);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('?stop=root shows a passed-over ctx compact as a divider holding its summary, in light and dark', async () => {
    const { store, compaction, tip } = compactedStore();
    const s = await startServe(store, [], FIXED);
    served.push(s);
    for (const [width, colorScheme] of [[1400, 'light'], [375, 'dark']] as const) {
      const { page, errors } = await openPage(width, { colorScheme });
      await page.goto(`${s.url}${tip}?stop=root`);
      await ready(page, `/${tip}?stop=root`);
      expect(await page.$$eval('.divider', (els) => els.map((el) => [el.className, (el as HTMLElement).dataset.commit, el.textContent, el.closest('article')!.id]))).toEqual([['divider compaction', compaction, `context compacted ${compaction.slice(0, 16)}`, 'm-6']]);
      expect(await page.$eval('#m-6', (el) => [el.className, el.querySelector('details.summary > summary')!.textContent, (el.querySelector('details.summary') as HTMLDetailsElement).open])).toEqual(['msg user divided', 'summary', false]);
      await page.click('#m-6 details.summary > summary');
      expect(await page.$eval('#m-6 details.summary .text', (el) => [el.textContent!.trim(), el.querySelector('strong')!.textContent])).toEqual([`${LEAD_IN}\n[ctx compact] Summary of the earlier conversation (3 messages):\nThe summary of the work so far.`, 'summary']);
      expect(await page.$$eval('#messages article.msg .text', (els) => els.map((el) => el.textContent!.trim()))).toEqual(['First task.', 'First answer.', 'Second task.', 'Second answer.', 'Third task.', 'Third answer.', `${LEAD_IN}\n[ctx compact] Summary of the earlier conversation (3 messages):\nThe summary of the work so far.`, 'A new task after the compact.']);
      await shot(page, `web-passed-compact-${width}-${colorScheme}`);
      expect(await layoutProblems(page)).toEqual([]);
      expect(errors).toEqual([]);
      await page.context().close();
    }
  });
});
