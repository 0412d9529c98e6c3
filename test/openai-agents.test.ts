// agent-ctx/openai-agents on the built bundle: the real OpenAI Agents SDK `run()` (an Agent with a
// function tool, the Chat Completions model pointed at the mock on 127.0.0.1) keeps its history
// in a CtxSession across runs and in a fork; popItem and clearSession add commits, never rewrite.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Agent, run, setDefaultOpenAIClient, setOpenAIAPI, setTracingDisabled, tool } from '@openai/agents';
import OpenAI from 'openai';
import { z } from 'zod';
import { FIXED_ENV, FIXTURES, ROOT, ctx, fsck, tempDir } from './helpers.js';
import { messagesOf, startMockChat, text, toolCall, type MockChat } from './mock-chat-api.js';
// @ts-expect-error the bundle is JavaScript; its types are in dist/types
import * as lib from '../dist/index.js';
// @ts-expect-error the bundle is JavaScript; its types are in dist/types
import { CtxSession } from '../dist/openai-agents.js';

let mock: MockChat;
beforeAll(async () => {
  // a tool call when the last message is the user's, then `answer <n>` once its result is there
  let answers = 0;
  mock = await startMockChat((body) => (messagesOf(body).at(-1)?.role === 'tool' ? text(`answer ${++answers}`) : toolCall(`call_${answers + 1}`, 'lookup', { word: `w${answers + 1}` })));
  setDefaultOpenAIClient(new OpenAI({ baseURL: mock.baseUrl, apiKey: 'sk-test-dummy' }));
  setOpenAIAPI('chat_completions');
  setTracingDisabled(true);
});
afterAll(() => mock.close());

const lookup = tool({ name: 'lookup', description: 'look a word up', parameters: z.object({ word: z.string() }), execute: async ({ word }) => `found ${word}` });
const agent = new Agent({ name: 'helper', instructions: 'Be brief.', model: 'mock-model', tools: [lookup] });

const messages = (n: number) => messagesOf(mock.requests[n].body);
const S = 'openai-agents/chat-1';

it('no file of the bundle loads the Agents SDK or the Claude Agent SDK: the adapters take their types, or are handed the SDK', () => {
  const dist = join(ROOT, 'dist');
  const files = [...readdirSync(dist).filter((f) => f.endsWith('.js')), ...readdirSync(join(dist, 'chunks')).filter((f) => f.endsWith('.js')).map((f) => join('chunks', f))];
  expect(files).toContain('openai-agents.js');
  expect(files).toContain('claude-agent-sdk.js');
  expect(files.filter((f) => /["'`]@(openai|anthropic-ai)\//.test(readFileSync(join(dist, f), 'utf8')))).toEqual([]);
});

describe('CtxSession', () => {
  it('keeps a run history across runs and in a fork; pop and clear add commits; ctx log, grep and verify read it', async () => {
    const path = join(tempDir(), '.ctx');
    const store = await lib.openStore(path, { create: true, env: FIXED_ENV });
    try {
      const session = new CtxSession({ store, sessionId: 'chat-1' });
      expect(await session.getSessionId()).toBe('chat-1');
      expect(await session.getItems()).toEqual([]);
      expect((await run(agent, 'What is the first word?', { session })).finalOutput).toBe('answer 1');
      const firstRun = await session.getItems();
      const firstCommit = await store.resolve(S);
      expect(firstRun.map((i: { type: string }) => i.type)).toEqual(['message', 'function_call', 'function_call_result', 'message']);
      expect(firstRun[0]).toEqual({ type: 'message', role: 'user', content: 'What is the first word?' });
      expect(firstRun[2]).toEqual({ type: 'function_call_result', name: 'lookup', callId: 'call_1', status: 'completed', output: { type: 'text', text: 'found w1' } });
      expect(await session.getItems(2)).toEqual(firstRun.slice(2));
      expect(await session.getItems(0)).toEqual([]);

      // the second run's first request carries the first run exactly, then the new prompt
      expect((await run(agent, 'And the second?', { session })).finalOutput).toBe('answer 2');
      expect(mock.requests).toHaveLength(4);
      expect(messages(2).slice(0, 4)).toEqual(messages(1));
      expect(messages(2).slice(4)).toEqual([
        { role: 'assistant', content: [{ type: 'text', text: 'answer 1', role: 'assistant' }] },
        { role: 'user', content: 'And the second?' },
      ]);
      const parentItems = await session.getItems();
      expect(parentItems).toHaveLength(8);
      expect(parentItems.slice(0, 4)).toEqual(firstRun);

      // a fork's run sends the parent's whole history and its own prompt; the parent stays as it was
      const fork = await session.fork('chat-1-alt');
      expect([fork.sessionId, fork.branch]).toEqual(['chat-1-alt', 'openai-agents/chat-1-alt']);
      expect((await run(agent, 'A third?', { session: fork })).finalOutput).toBe('answer 3');
      expect(messages(4).slice(0, 8)).toEqual(messages(3));
      expect(messages(4).slice(8)).toEqual([
        { role: 'assistant', content: [{ type: 'text', text: 'answer 2', role: 'assistant' }] },
        { role: 'user', content: 'A third?' },
      ]);
      expect(await session.getItems()).toEqual(parentItems);
      const forkItems = await fork.getItems();
      expect(forkItems.slice(0, 8)).toEqual(parentItems);
      expect(forkItems).toHaveLength(12);

      // `ctx fork` from the shell: a session on the new branch sees the parent's items
      expect(ctx(path, ['fork', S, 'openai-agents/chat-cli'], { env: FIXED_ENV }).code).toBe(0);
      const cli = new CtxSession({ store, sessionId: 'chat-cli' });
      expect(await cli.getItems()).toEqual(parentItems);
      // ctx clear writes the compaction in the session's own format, which it reads back
      expect(ctx(path, ['clear', 'openai-agents/chat-cli'], { env: FIXED_ENV }).code).toBe(0);
      expect(await cli.getItems()).toEqual([]);
      expect(JSON.parse(ctx(path, ['show', 'openai-agents/chat-cli', '--json'], { env: FIXED_ENV }).stdout)).toMatchObject({ meta: { type: 'compaction', format: 'openai-agents-v1', message_count: 0 } });

      // popItem and clearSession: compaction commits on top; the items before them stay in the chain
      expect(await fork.popItem()).toEqual(forkItems[11]);
      expect(await fork.getItems()).toEqual(forkItems.slice(0, 11));
      await fork.clearSession();
      expect(await fork.getItems()).toEqual([]);
      expect(await fork.popItem()).toBeUndefined();
      await fork.addItems([{ type: 'message', role: 'user', content: 'start over' }]);
      expect(await fork.getItems()).toEqual([{ type: 'message', role: 'user', content: 'start over' }]);
      const log = ctx(path, ['log', 'openai-agents/chat-1-alt'], { env: FIXED_ENV });
      expect(log.stdout.split('\n').filter(Boolean).map((l) => l.split('\t').filter((_, k) => k === 1 || k === 3 || k === 5))).toEqual([
        ['delta', '1', 'start over'],
        ['compaction', '0', 'cleared 11 items'],
        ['compaction', '11', 'popped 1 item (message), 11 left'],
        ['delta', '4', 'A third?'],
        ['delta', '4', 'And the second?'],
        ['delta', '4', 'What is the first word?'],
      ]);
      // --stop root reads every artifact of the chain, the ones before the clear too
      const all = ctx(path, ['materialize', 'openai-agents/chat-1-alt', '--stop', 'root'], { env: FIXED_ENV });
      expect(all.code).toBe(0);
      expect(JSON.parse(all.stdout)).toHaveLength(12 + 11 + 0 + 1);

      // grep finds the tool result in the delta that added it and in the compaction that kept it; verify and fsck are clean
      expect(ctx(path, ['grep', '-F', 'found w3'], { env: FIXED_ENV }).stdout).toBe(
        'ctx-6efb7eee8728\topenai-agents/chat-1-alt\t10\ttool\t-\tfound w3\nctx-cb0fa6ad8d36\topenai-agents/chat-1-alt\t2\ttool\t-\tfound w3\n',
      );
      expect(ctx(path, ['grep', '-F', 'answer 1', S], { env: FIXED_ENV }).stdout).toBe(`ctx-1c8b7c5eea34\t${S}\t3\tassistant\t-\tanswer 1\n`);
      expect(firstCommit).toBe('ctx-1c8b7c5eea34731f265d2f7de8d54ef1a5d868b9');
      const md = ctx(path, ['materialize', S, '--format', 'markdown'], { env: FIXED_ENV }).stdout;
      expect(md).toContain('found w2');
      expect(ctx(path, ['verify'], { env: FIXED_ENV })).toMatchObject({ code: 0 });
    } finally {
      await store.close();
    }
    expect(fsck(path)).toEqual({ code: 0, output: '' });
  });

  it('continues a Claude Code session: its chain materialized as openai-agents-v1 is history the SDK sends, calls paired with their results', async () => {
    const path = join(tempDir(), '.ctx');
    expect(ctx(path, ['init', path]).code).toBe(0);
    expect(ctx(path, ['import', 'claude-code', join(FIXTURES, 'claude-code', 'compacted-session.jsonl'), '-b', 'cc'], { env: FIXED_ENV }).code).toBe(0);
    const m = ctx(path, ['materialize', 'cc', '--stop', 'root', '--format', 'openai-agents-v1'], { env: FIXED_ENV });
    expect(m.stderr).toBe('ctx: translated claude-code-v1 → openai-agents-v1 (structural)\n');
    const items = JSON.parse(m.stdout);
    expect(items.map((i: { type: string; role?: string }) => i.role ?? i.type)).toEqual(['user', 'function_call', 'function_call_result', 'assistant', 'user', 'function_call', 'function_call_result', 'user', 'assistant', 'user', 'assistant']);
    const store = await lib.openStore(path, { env: FIXED_ENV });
    try {
      const session = new CtxSession({ store, sessionId: 'from-claude' });
      await session.addItems(items);
      const before = mock.requests.length;
      await run(agent, 'Now add a test.', { session });
      const sent = messages(before);
      expect(sent.map((x) => x.role)).toEqual(['system', 'user', 'assistant', 'tool', 'assistant', 'user', 'assistant', 'tool', 'user', 'assistant', 'user', 'assistant', 'user']);
      expect(sent[2]).toEqual({ role: 'assistant', content: null, tool_calls: [{ id: items[1].callId, type: 'function', function: { name: 'Read', arguments: items[1].arguments } }] });
      expect(sent[3]).toEqual({ role: 'tool', tool_call_id: items[1].callId, content: items[2].output.text });
      expect(sent.at(-1)).toEqual({ role: 'user', content: 'Now add a test.' });
      expect((await session.getItems()).slice(0, items.length)).toEqual(items);
    } finally {
      await store.close();
    }
  });
});
