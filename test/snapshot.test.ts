// Snapshot commits bound what a materialize reads: the newest snapshot of its stop plus the deltas
// after it. --stop root, live capture and compaction pass over them.
import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FIXED_ENV, ctx, fsck, git, newStore, tempDir } from './helpers.js';

const line = (i: number) => `${JSON.stringify({ type: 'user', message: { role: 'user', content: `t${i}` }, uuid: `u-${i}`, sessionId: 's-1' })}\n`;
const add = (store: string, i: number) => expect(ctx(store, ['checkpoint', '-b', 'b', '--format', 'claude-code-v1', '-'], { input: line(i), env: FIXED_ENV }).code).toBe(0);
const lines = (from: number, to: number) => Array.from({ length: to - from }, (_, k) => line(from + k)).join('');
const types = (store: string) => git(store, ['log', '--format=%(trailers:key=Ctx-Type,valueonly)', 'b']).split('\n').filter(Boolean);

describe('ctx snapshot', () => {
  it('materialize reads the snapshot and what follows; --stop root passes over it', () => {
    const store = newStore();
    for (let i = 0; i < 5; i++) add(store, i);
    const snap = ctx(store, ['snapshot', 'b', '--json'], { env: FIXED_ENV });
    expect(snap.code).toBe(0);
    expect(JSON.parse(snap.stdout)).toMatchObject({ v: 1, branch: 'b', type: 'snapshot', format: 'claude-code-v1' });
    add(store, 5);
    const m = JSON.parse(ctx(store, ['materialize', 'b', '--json'], { env: FIXED_ENV }).stdout);
    expect(m.commits).toEqual([JSON.parse(snap.stdout).id, `ctx-${git(store, ['rev-parse', 'b']).trim()}`]);
    expect(m.content).toBe(lines(0, 6));
    expect(ctx(store, ['materialize', 'b', '--stop', 'root'], { env: FIXED_ENV }).stdout).toBe(lines(0, 6));
    const meta = JSON.parse(git(store, ['show', 'b~1:meta.json']));
    expect(meta.snapshot_of).toEqual({ stop: 'compaction', commit: `ctx-${git(store, ['rev-parse', 'b~2']).trim()}` });
    expect([meta.message_count, meta.session_id]).toEqual([5, 's-1']);
    expect(fsck(store)).toEqual({ code: 0, output: '' });
    expect(ctx(store, ['verify', '--all']).code).toBe(0);
  });

  it('ctx.autoSnapshot N: a snapshot once more than N commits follow the last one', () => {
    const store = newStore();
    git(store, ['config', 'ctx.autoSnapshot', '3']);
    for (let i = 0; i < 9; i++) add(store, i);
    // t0..t3, a snapshot; t4..t7, a snapshot; t8 (newest first)
    expect(types(store)).toEqual(['delta', 'snapshot', 'delta', 'delta', 'delta', 'delta', 'snapshot', 'delta', 'delta', 'delta', 'delta']);
    expect(ctx(store, ['materialize', 'b'], { env: FIXED_ENV }).stdout).toBe(lines(0, 9));
    git(store, ['config', 'ctx.autoSnapshot', 'often']);
    expect(ctx(store, ['checkpoint', '-b', 'b', '--format', 'claude-code-v1', '-'], { input: line(9), env: FIXED_ENV })).toMatchObject({ code: 2, stderr: 'ctx: config ctx.autoSnapshot: often is not a number of commits (0: off, else 2 or more)\n' });
  });

  it('the hook captures past a snapshot at the tip, from the repo alone', () => {
    const store = newStore();
    const file = join(tempDir(), 's-1.jsonl');
    writeFileSync(file, lines(0, 3));
    const hook = () => ctx(store, ['hook', 'claude-code'], { input: JSON.stringify({ session_id: 's-1', transcript_path: file, hook_event_name: 'Stop' }), env: FIXED_ENV });
    expect(hook().code).toBe(0);
    expect(ctx(store, ['snapshot', 'claude/s-1'], { env: FIXED_ENV }).code).toBe(0);
    // the hook's derived state names the old tip: it re-derives the offset through the snapshot
    writeFileSync(file, lines(0, 5));
    expect(hook()).toMatchObject({ code: 0, stderr: '' });
    expect(ctx(store, ['materialize', 'claude/s-1', '--stop', 'root'], { env: FIXED_ENV }).stdout).toBe(lines(0, 5));
    expect(git(store, ['for-each-ref', '--format=%(refname)', 'refs/heads']).trim()).toBe('refs/heads/claude/s-1');
  });
});
