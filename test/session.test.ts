// The library's session, as an agent loop lives in it: append the whole conversation every turn,
// only what is new is checkpointed, and the context comes back parsed. On the built bundle.
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { FIXED_ENV, ctx, fsck, git, newStore, tempDir } from './helpers.js';
// @ts-expect-error the bundle is JavaScript; its types are in dist/types
import * as lib from '../dist/index.js';

type Chat = { role: string; content: string | null; tool_calls?: unknown[]; tool_call_id?: string };

/** Turn `i` of a loop: a prompt, a tool call and its result on every fifth turn, an answer. */
function turn(i: number): Chat[] {
  const out: Chat[] = [{ role: 'user', content: `step ${i}: what next?` }];
  if (i % 5 === 0) {
    out.push({ role: 'assistant', content: null, tool_calls: [{ id: `c${i}`, type: 'function', function: { name: 'ls', arguments: `{"path":"src/${i}"}` } }] });
    out.push({ role: 'tool', tool_call_id: `c${i}`, content: `a${i}.ts\nb${i}.ts` });
  }
  out.push({ role: 'assistant', content: `done with step ${i}` });
  return out;
}

const encode = (ms: Chat[]) => `[\n${ms.map((m) => JSON.stringify(m)).join(',\n')}\n]\n`;

describe('store.session', () => {
  it('a 50-turn loop appends only what is new each turn: the same chain as the CLI writes; the same messages again write nothing', async () => {
    const path = join(tempDir(), '.ctx');
    const store = await lib.openStore(path, { create: true, env: FIXED_ENV });
    const cli = newStore();
    const conversation: Chat[] = [];
    try {
      const s = store.session('design-room', { author: 'coder' });
      for (let i = 0; i < 50; i++) {
        const before = conversation.length;
        conversation.push(...turn(i));
        const w = await s.append(conversation);
        expect(w.meta.message_count).toBe(conversation.length - before);
        const r = ctx(cli, ['checkpoint', '-b', 'design-room', '--format', 'openai-chat-v1', '--author', 'coder', '-'], { env: FIXED_ENV, input: encode(conversation.slice(before)) });
        expect(r.stdout.trim()).toBe(w.id.slice(0, 16));
        // the loop appends again (a retry, a crash before its own bookkeeping): nothing is written
        expect(await s.append(conversation)).toBeNull();
      }
      expect(git(path, ['rev-parse', 'design-room'])).toBe(git(cli, ['rev-parse', 'design-room']));
      expect(git(path, ['rev-list', '--count', 'design-room']).trim()).toBe('50');
      expect(await s.messages()).toEqual(conversation);
      // a new session object (another process) knows the position from the store, not from the caller
      expect(await store.session('design-room', { author: 'coder' }).append(conversation)).toBeNull();
    } finally {
      await store.close();
    }
    expect(fsck(path)).toEqual({ code: 0, output: '' });
  });

  it('refuses a conversation that does not start with what the branch holds (exit 3); counts again when another writer moved the branch', async () => {
    const path = join(tempDir(), '.ctx');
    const store = await lib.openStore(path, { create: true, env: FIXED_ENV });
    try {
      const s = store.session('loop');
      const conversation = [...turn(1), ...turn(2)];
      await s.append(conversation);
      const tip = git(path, ['rev-parse', 'loop']);
      await expect(s.append([{ role: 'user', content: 'something else' }, ...conversation])).rejects.toMatchObject({ code: 'ConflictError', exit: 3 });
      await expect(s.append(conversation.slice(0, 2))).rejects.toMatchObject({ code: 'ConflictError', exit: 3 });
      expect(git(path, ['rev-parse', 'loop'])).toBe(tip);
      // the CLI appends a turn: the session counts the branch's messages again and goes on after them
      const more = turn(3);
      expect(ctx(path, ['checkpoint', '-b', 'loop', '--format', 'openai-chat-v1', '-'], { env: FIXED_ENV, input: encode(more) }).code).toBe(0);
      expect(await s.append([...conversation, ...more])).toBeNull();
      const w = await s.append([...conversation, ...more, ...turn(4)]);
      expect(w.meta.message_count).toBe(2);
      // a window: the session's messages since a time (the commits' created_at here; all at CTX_NOW)
      expect(await s.messages({ since: '1h' })).toEqual([...conversation, ...more, ...turn(4)]);
      expect(await s.messages({ since: '2099-01-01' })).toEqual([]);
      // a fork is a session of its own, from the same messages
      const f = await s.fork('loop-alt');
      expect(await f.messages()).toEqual([...conversation, ...more, ...turn(4)]);
      expect(await store.session('nothing-yet').messages()).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it('messages({ budget }): over the window, compacted in memory, nothing written; under it, as stored', async () => {
    const path = join(tempDir(), '.ctx');
    const store = await lib.openStore(path, { create: true, env: FIXED_ENV });
    try {
      const s = store.session('long');
      const conversation: Chat[] = [];
      for (let i = 0; i < 20; i++) conversation.push(...turn(i));
      await s.append(conversation);
      const tip = git(path, ['rev-parse', 'long']);
      expect(await s.messages({ budget: { window: 100_000, reserveOutput: 1_000 } })).toEqual(conversation);
      const small = await s.messages({ budget: { window: 300, reserveOutput: 100 } });
      expect(small.length).toBeLessThan(conversation.length);
      // the latest turns are kept as they are
      expect(small.slice(-2)).toEqual(conversation.slice(-2));
      expect(git(path, ['rev-parse', 'long'])).toBe(tip);
      // neutral messages in and out (bureau-agent-v1)
      const n = store.session('neutral', { format: 'bureau-agent-v1' });
      const msgs = [
        { role: 'user', content: [{ type: 'text', text: 'hi' }] },
        { role: 'assistant', content: [{ type: 'text', text: 'hello' }] },
      ];
      expect((await n.append(msgs)).meta.format).toBe('bureau-agent-v1');
      expect(await n.messages()).toEqual(msgs);
      expect(() => store.session('x', { format: 'gemini-cli-chat-v1' })).toThrow(/cannot append gemini-cli-chat-v1/);
    } finally {
      await store.close();
    }
  });
});
