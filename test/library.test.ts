// The library API as an in-process agent wrapper uses it (the README's example), on the built bundle.
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { ENGINES, FIXED_ENV, fsck, git, tempDir } from './helpers.js';
// @ts-expect-error the bundle is JavaScript; its types are in dist/types
import * as lib from '../dist/index.js';

const line = (text: string) => Buffer.from(JSON.stringify({ type: 'user', message: { role: 'user', content: text } }) + '\n');

describe.each(ENGINES)('openStore with the %s engine', (engine) => {
  it('checkpoints, materializes, forks, annotates and verifies in-process', async () => {
    const path = join(tempDir(), '.ctx');
    await expect(lib.openStore(path)).rejects.toMatchObject({ code: 'NotFoundError', exit: 4 });
    const store = await lib.openStore(path, { create: true, engine, env: FIXED_ENV });
    try {
      const first = await store.checkpoint({ branch: 'agent/run-42', format: 'claude-code-v1', artifact: line('Fix the login bug'), summary: 'task received' });
      expect(first.id).toBe('ctx-776906848e83ae1f9d7d3684495fcd43e5fdffc2');
      expect(first.parent).toBeNull();
      expect(first.meta.message_count).toBe(1);
      const second = await store.checkpoint({ branch: 'agent/run-42', format: 'claude-code-v1', artifact: line('and the logout one'), retry: true });
      expect(second.parent).toBe(first.id);
      const m = await store.materialize('agent/run-42');
      expect(Buffer.from(m.bytes).toString()).toBe(line('Fix the login bug').toString() + line('and the logout one').toString());
      expect(m.commits).toEqual([first.id, second.id]);
      expect(await store.resolve('agent/run-42~1')).toBe(first.id);
      expect(await store.fork(first.id, 'agent/run-42-alt')).toEqual({ branch: 'agent/run-42-alt', id: first.id });
      expect((await store.annotate(first.id, { summary: 'the task as given' })).id).toBe(first.id);
      expect((await store.show(first.id)).summary).toBe('the task as given');
      expect((await store.log('agent/run-42')).map((r: { id: string }) => r.id)).toEqual([second.id, first.id]);
      expect(await store.verify()).toEqual({ commits: 2, problems: [] });
      await expect(store.checkpoint({ branch: 'agent/run-42', format: 'claude-code-v1', artifact: line('x'), parent: first.id })).rejects.toMatchObject({
        code: 'ConflictError',
        exit: 3,
      });
      await expect(store.show('ctx-ffff')).rejects.toBeInstanceOf(lib.NotFoundError);
    } finally {
      await store.close();
    }
    expect(git(path, ['rev-parse', 'agent/run-42-alt']).trim()).toBe('776906848e83ae1f9d7d3684495fcd43e5fdffc2');
    expect(fsck(path)).toEqual({ code: 0, output: '' });
  });
});
