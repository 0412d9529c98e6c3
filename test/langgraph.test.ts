// A real LangGraph StateGraph (@langchain/langgraph) on CtxSaver as built (dist/langgraph.js): it runs,
// is interrupted by interrupt(), resumed, time-travelled from an older checkpoint and forked with
// updateState; the store then passes git fsck --strict and ctx verify, and ctx branch, log, grep
// and serve show the thread.
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { Command, END, INTERRUPT, MessagesAnnotation, START, StateGraph, interrupt, isInterrupted } from '@langchain/langgraph';
import { AIMessage, HumanMessage, type BaseMessage } from '@langchain/core/messages';
// @ts-expect-error the bundle is JavaScript: typed below by the sources it is built from
import * as built from '../dist/langgraph.js';
import type * as Sources from '../src/adapters/langgraph/index.js';
import { ctx, fsck, git, tempDir } from './helpers.js';
import { startServe } from './serve-kit.js';

const { CtxSaver, escapeId, lineBranch, parseLineBranch } = built as typeof Sources;
type CtxSaver = Sources.CtxSaver;

const text = (m: BaseMessage) => String(m.content);
/** What an invoke that stopped at interrupt() asks, or undefined when it ran through. */
const asked = (r: unknown) => (isInterrupted<string>(r) ? r[INTERRUPT].map((i) => i.value) : undefined);

/** agent echoes the last message; review asks a person (interrupt) and records the answer. */
function buildGraph(saver: CtxSaver) {
  return new StateGraph(MessagesAnnotation)
    .addNode('agent', (s) => ({ messages: [new AIMessage({ id: `ai-${s.messages.length}`, content: `echo: ${text(s.messages.at(-1)!)}` })] }))
    .addNode('review', (s) => {
      const answer = interrupt(`approve ${s.messages.length}?`);
      return { messages: [new AIMessage({ id: `rv-${s.messages.length}`, content: `approved: ${answer}` })] };
    })
    .addEdge(START, 'agent')
    .addEdge('agent', 'review')
    .addEdge('review', END)
    .compile({ checkpointer: saver });
}

const THREAD = 'user 1/login';
const BRANCH = 'langgraph/user_201_2flogin/_';
const cfg = { configurable: { thread_id: THREAD } };
const ASK = 'the login bug: tokens expire early';
const FORK = 'forked: what about refresh tokens?';

describe('a StateGraph on CtxSaver', () => {
  it('runs, interrupts, resumes, time-travels and forks; the store is whole and ctx reads the thread', async () => {
    const store = join(tempDir(), '.ctx');
    const saver = await CtxSaver.open(store);
    const graph = buildGraph(saver);

    const r1 = await graph.invoke({ messages: [new HumanMessage({ id: 'h-0', content: ASK })] }, cfg);
    expect(r1.messages.map(text)).toEqual([ASK, `echo: ${ASK}`]);
    expect(asked(r1)).toEqual(['approve 2?']);
    expect((await graph.getState(cfg)).next).toEqual(['review']);

    const r2 = await graph.invoke(new Command({ resume: 'yes' }), cfg);
    expect(r2.messages.map(text)).toEqual([ASK, `echo: ${ASK}`, 'approved: yes']);

    const history = [];
    for await (const s of graph.getStateHistory(cfg)) history.push(s);
    expect(history.map((h) => [h.metadata?.step, h.metadata?.source, h.next, h.values.messages.map(text)])).toEqual([
      [2, 'loop', [], [ASK, `echo: ${ASK}`, 'approved: yes']],
      [1, 'loop', ['review'], [ASK, `echo: ${ASK}`]],
      [0, 'loop', ['agent'], [ASK]],
      [-1, 'input', ['__start__'], []],
    ]);

    // time travel: from the checkpoint before review, review runs again
    const beforeReview = history[1];
    const r3 = await graph.invoke(null, beforeReview.config);
    expect(asked(r3)).toEqual(['approve 2?']);
    const r4 = await graph.invoke(new Command({ resume: 'again' }), cfg);
    expect(r4.messages.map(text)).toEqual([ASK, `echo: ${ASK}`, 'approved: again']);
    const answeredAgain = (await graph.getState(cfg)).config;

    // fork: a message added to the checkpoint before agent first ran, then the graph goes on from it
    const forked = await graph.updateState(history[2].config, { messages: [new HumanMessage({ id: 'h-f', content: FORK })] });
    const r5 = await graph.invoke(null, forked);
    expect(r5.messages.map(text)).toEqual([ASK, FORK, `echo: ${FORK}`]);
    expect(asked(r5)).toEqual(['approve 3?']);

    // the line the fork left keeps its checkpoints: the earlier answer is still there by id
    const older = await graph.getState(answeredAgain);
    expect(older.values.messages.map(text)).toEqual([ASK, `echo: ${ASK}`, 'approved: again']);
    await saver.close();

    // another saver on the same store (nothing cached) reads the same thread
    const again = await CtxSaver.open(store);
    const reopened = buildGraph(again);
    expect((await reopened.getState(cfg)).values.messages.map(text)).toEqual([ASK, FORK, `echo: ${FORK}`]);
    // every checkpoint of every line, newest first: the fork's 2 (update, agent), time travel's 2
    // (LangGraph's copy of the old checkpoint, the answer), the first run's 4
    const steps = [];
    for await (const t of again.list(cfg)) steps.push(`${t.metadata?.step} ${t.metadata?.source}`);
    expect(steps).toEqual(['2 loop', '1 update', '3 loop', '2 fork', '2 loop', '1 loop', '0 loop', '-1 input']);
    const r6 = await reopened.invoke(new Command({ resume: 'ok' }), cfg);
    expect(r6.messages.map(text)).toEqual([ASK, FORK, `echo: ${FORK}`, 'approved: ok']);
    await again.close();

    expect(fsck(store)).toEqual({ code: 0, output: '' });
    const verify = ctx(store, ['verify']);
    expect([verify.code, verify.stderr]).toEqual([0, '']);
    expect(verify.stdout).toMatch(/^ok \d+ commits\n$/);

    const branches = ctx(store, ['branch']).stdout.split('\n').filter(Boolean).map((l) => l.split('\t')[0]);
    expect(branches).toEqual([BRANCH, `${BRANCH}.line-1`, `${BRANCH}.line-2`]);
    expect(parseLineBranch(BRANCH)).toEqual({ thread: THREAD, ns: '', line: 0 });

    // log: the messages each checkpoint added are its commit's subject
    const subjects = ctx(store, ['log', BRANCH]).stdout.split('\n').filter(Boolean).map((l) => l.split('\t').slice(3).join('\t'));
    expect(subjects.filter((s) => !s.includes('langgraph writes of '))).toEqual([
      '1\t3\tcontinued: approved: ok',
      '1\t10\tcontinued: echo: forked: what about refresh tokens?',
      '1\t8\tforked: what about refresh tokens?',
      '1\t7\tthe login bug: tokens expire early',
      '0\t0\tlanggraph step -1 (input)',
    ]);

    // grep: the messages channel's text, by role, on the thread's branch
    const grep = ctx(store, ['grep', 'refresh tokens']);
    expect(grep.stdout.split('\n').filter(Boolean).map((l) => l.split('\t').slice(1).join('\t'))).toEqual([
      `${BRANCH}\t0\tassistant\t-\techo: ${FORK}`,
      `${BRANCH}\t0\tuser\t-\t${FORK}`,
    ]);
    expect(ctx(store, ['materialize', BRANCH, '--format', 'markdown']).stdout).toContain(FORK);

    // serve: the branch and a search over it through the web view's API
    const served = await startServe(store);
    try {
      const listed = (await (await fetch(`${served.url}api/branches`)).text()).split('\n').filter(Boolean).map((l) => JSON.parse(l).branch ?? JSON.parse(l).name);
      expect(listed).toContain(BRANCH);
      const hits = (await (await fetch(`${served.url}api/grep?q=${encodeURIComponent('approved: ok')}`)).text()).split('\n').filter(Boolean).map((l) => JSON.parse(l));
      expect(hits.map((h) => [h.branch, h.role, h.snippet])).toEqual([[BRANCH, 'assistant', 'approved: ok']]);
    } finally {
      await served.stop();
    }
  });

  it('takes any thread id as a branch of its own, escaped, and deleteThread removes every line of it', async () => {
    const store = join(tempDir(), '.ctx');
    const saver = await CtxSaver.open(store);
    const graph = buildGraph(saver);
    const hostile = ['../../HEAD', 'a.lock', '__proto__', '_', '', ' ', 'ü/../..', '-x'].filter(Boolean);
    for (const id of hostile) await graph.invoke({ messages: [new HumanMessage({ id: 'h', content: `thread ${id}` })] }, { configurable: { thread_id: id } });
    const refsNow = git(store, ['for-each-ref', '--format=%(refname)']).split('\n').filter(Boolean);
    expect(refsNow).toEqual(hostile.map((id) => `refs/heads/${lineBranch(id, '')}`).sort());
    expect(hostile.map((id) => escapeId(id))).toEqual(['_2e_2e_2f_2e_2e_2fHEAD', 'a_2elock', '_5f_5fproto_5f_5f', '_5f', '_20', '_c3_bc_2f_2e_2e_2f_2e_2e', '-x']);
    for (const id of hostile) expect((await graph.getState({ configurable: { thread_id: id } })).values.messages.map(text)).toEqual([`thread ${id}`, `echo: thread ${id}`]);
    await saver.deleteThread('__proto__');
    expect(await saver.getTuple({ configurable: { thread_id: '__proto__' } })).toBeUndefined();
    expect(git(store, ['for-each-ref', '--format=%(refname)']).split('\n').filter(Boolean)).toEqual(refsNow.filter((r) => !r.includes('_5f_5fproto')));
    await expect(saver.put({ configurable: {} }, { v: 4, id: 'x', ts: '', channel_values: {}, channel_versions: {}, versions_seen: {} }, { source: 'input', step: -1, parents: {} }, {})).rejects.toThrow(
      "put a checkpoint: the config's configurable.thread_id must be a non-empty string (got none)",
    );
    await saver.close();
    expect(fsck(store).code).toBe(0);
  });
});
