// Concurrent writers: compare-and-swap under git's lock-file protocol, with the default engine.
import { existsSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXED_ENV, checkpointLoop, ctx, fsck, git, newStore, objectCount, refSnapshot } from './helpers.js';

const env = FIXED_ENV;
const line = (n: number) => `{"type":"user","n":${n}}\n`;
// Under FIXED_ENV: line(1) as a root on x, then line(2) on top of it.
const A = 'ctx-22093387b890';
const B = 'ctx-50ac5c449615';

function locksUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.lock'));
}

// CTX_RACE_COMMITS makes a longer race: CTX_RACE_COMMITS=500 npx vitest run test/concurrency.test.ts
const RACE = Number(process.env.CTX_RACE_COMMITS ?? 25);

describe('concurrent checkpoints', () => {
  it(`two processes × ${RACE} checkpoints with --retry make one chain of ${2 * RACE}`, async () => {
    const store = newStore();
    const [p1, p2] = await Promise.all([checkpointLoop(store, 'race', 'p1', RACE, env), checkpointLoop(store, 'race', 'p2', RACE, env)]);
    expect(p1).toMatchObject({ code: 0, stderr: '' });
    expect(p2).toMatchObject({ code: 0, stderr: '' });

    expect(git(store, ['rev-list', '--count', 'race'])).toBe(`${2 * RACE}\n`);
    expect(git(store, ['rev-list', '--first-parent', '--count', 'race'])).toBe(`${2 * RACE}\n`);
    expect(git(store, ['rev-list', '--min-parents=2', 'race'])).toBe('');
    expect(git(store, ['rev-list', '--max-parents=0', 'race']).trim().split('\n')).toHaveLength(1);

    const summaries = git(store, ['log', '--reverse', '--format=%s', 'race']).trim().split('\n');
    const expected = (k: number) => Array.from({ length: RACE }, (_, i) => `p${k}-${i}`);
    // each process's commits appear once, in the order it made them
    expect(summaries.filter((s) => s.startsWith('p1-'))).toEqual(expected(1));
    expect(summaries.filter((s) => s.startsWith('p2-'))).toEqual(expected(2));
    expect(summaries).toHaveLength(2 * RACE);

    // every id a process printed is on the chain
    const chain = new Set(git(store, ['rev-list', 'race']).trim().split('\n').map((o) => `ctx-${o.slice(0, 12)}`));
    const printed = (p1.stdout + p2.stdout).trim().split('\n');
    expect(printed).toHaveLength(2 * RACE);
    for (const id of printed) expect(chain.has(id)).toBe(true);

    expect(fsck(store).code).toBe(0);
    expect(locksUnder(join(store, 'refs'))).toEqual([]);
  }, 120_000); // 100 CLI processes: ~10 s on two idle cores, much more on a busy machine

  it('a checkpoint whose --parent is no longer the tip fails with exit 3 and writes nothing', () => {
    const store = newStore();
    expect(ctx(store, ['checkpoint', '-b', 'x', '--format', 'claude-code-v1', '-'], { env, input: line(1) }).stdout).toBe(`${A}\n`);
    expect(ctx(store, ['checkpoint', '-b', 'x', '--format', 'claude-code-v1', '-'], { env, input: line(2) }).stdout).toBe(`${B}\n`);
    const refs = refSnapshot(store);
    const objects = objectCount(store);

    const r = ctx(store, ['checkpoint', '-b', 'x', '--format', 'claude-code-v1', '--parent', A, '-'], { env, input: line(3) });
    expect(r).toMatchObject({ code: 3, stdout: '', stderr: `ctx: branch moved: x is now at ${B}\n` });
    expect(refSnapshot(store)).toBe(refs);
    expect(objectCount(store)).toBe(objects);
    expect(fsck(store).code).toBe(0);
    expect(locksUnder(join(store, 'refs'))).toEqual([]);
  });

  it('a fresh lock on the branch makes a checkpoint fail with exit 3 naming the lock, and is left alone', () => {
    const store = newStore();
    expect(ctx(store, ['checkpoint', '-b', 'x', '--format', 'claude-code-v1', '-'], { env, input: line(1) }).code).toBe(0);
    const lock = join(store, 'refs', 'heads', 'x.lock');
    writeFileSync(lock, 'another writer\n');
    const refs = refSnapshot(store);

    const r = ctx(store, ['checkpoint', '-b', 'x', '--format', 'claude-code-v1', '-'], { env, input: line(2) });
    expect(r).toMatchObject({ code: 3, stdout: '', stderr: `ctx: refs/heads/x is locked by another writer (${lock})\n` });
    expect(refSnapshot(store)).toBe(refs);
    expect(readFileSync(lock, 'utf8')).toBe('another writer\n');
    expect(Date.now() - statSync(lock).mtimeMs).toBeLessThan(10_000);
    expect(fsck(store).code).toBe(0);
  });

  it('a lock older than 10 s is broken and the checkpoint succeeds', () => {
    const store = newStore();
    expect(ctx(store, ['checkpoint', '-b', 'x', '--format', 'claude-code-v1', '-'], { env, input: line(1) }).stdout).toBe(`${A}\n`);
    const lock = join(store, 'refs', 'heads', 'x.lock');
    writeFileSync(lock, 'a writer that died\n');
    const past = new Date(Date.now() - 20_000);
    utimesSync(lock, past, past);

    const r = ctx(store, ['checkpoint', '-b', 'x', '--format', 'claude-code-v1', '-'], { env, input: line(2) });
    expect(r).toMatchObject({ code: 0, stdout: `${B}\n`, stderr: '' });
    expect(git(store, ['rev-parse', 'refs/heads/x']).slice(0, 12)).toBe(B.slice(4));
    expect(git(store, ['rev-parse', 'x^']).slice(0, 12)).toBe(A.slice(4));
    expect(existsSync(lock)).toBe(false);
    expect(fsck(store).code).toBe(0);
  });
});
