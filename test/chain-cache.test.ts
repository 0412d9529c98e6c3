// Resume is incremental: a byte-append chain is cached once, append-only, and every tip of it is a
// prefix; a new tip reads only its new artifacts, and the cache grows with the chain, not the tips.
import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FIXED_ENV, ctx, git, newStore } from './helpers.js';

const line = (i: number) => `${JSON.stringify({ type: 'user', message: { role: 'user', content: `turn ${i} ${'x'.repeat(i % 50)}` }, uuid: `u-${i}` })}\n`;
const add = (store: string, branch: string, i: number) => expect(ctx(store, ['checkpoint', '-b', branch, '--format', 'claude-code-v1', '-'], { input: line(i), env: FIXED_ENV }).code).toBe(0);
const materialize = (store: string, spec: string) => {
  const r = ctx(store, ['materialize', spec], { env: FIXED_ENV });
  expect([r.code, r.stderr]).toEqual([0, '']);
  return r.stdout;
};
const chainFiles = (store: string) => {
  const dir = join(store, 'ctx', 'cache', 'chains');
  return readdirSync(dir)
    .sort()
    .map((f) => [f.replace(/^[0-9a-f]{40}/, 'KEY'), statSync(join(dir, f)).size]);
};
const expected = (from: number, to: number) => Array.from({ length: to - from }, (_, k) => line(from + k)).join('');

describe('the append-only chain cache', () => {
  it('new tips, old tips and forks are prefixes of one cache file; a new tip reads only its new artifacts', () => {
    const store = newStore();
    for (let i = 0; i < 20; i++) add(store, 'b', i);
    expect(materialize(store, 'b')).toBe(expected(0, 20));
    const after20 = chainFiles(store);
    expect(after20.slice(0, 2)).toEqual([
      ['KEY.data', Buffer.byteLength(expected(0, 20))],
      ['KEY.idx', 20 * 32],
    ]);

    for (let i = 20; i < 25; i++) add(store, 'b', i);
    // the first 20 deltas are no longer in the repo's object store: only the cache can give them
    const old = git(store, ['rev-list', 'b~5']).trim().split('\n');
    for (const c of old) {
      const blob = git(store, ['rev-parse', `${c}:delta.jsonl`]).trim();
      rmSync(join(store, 'objects', blob.slice(0, 2), blob.slice(2)));
    }
    expect(materialize(store, 'b')).toBe(expected(0, 25));
    expect(chainFiles(store).slice(0, 2)).toEqual([
      ['KEY.data', Buffer.byteLength(expected(0, 25))],
      ['KEY.idx', 25 * 32],
    ]);
    // an older tip is a prefix: nothing read, nothing written
    expect(materialize(store, 'b~7')).toBe(expected(0, 18));
    expect(chainFiles(store)[0][1]).toBe(Buffer.byteLength(expected(0, 25)));

    // a fork from b~3: the shared prefix from the cache, its own commit from the repo; the cache stays the main line's
    expect(ctx(store, ['fork', 'b~3', 'f'], { env: FIXED_ENV }).code).toBe(0);
    add(store, 'f', 99);
    expect(materialize(store, 'f')).toBe(expected(0, 22) + line(99));
    expect(chainFiles(store)[1][1]).toBe(25 * 32);
  });

  it('a tip a few deltas past one materialized before is resumed without walking the whole chain', () => {
    const store = newStore();
    for (let i = 0; i < 20; i++) add(store, 'b', i);
    expect(materialize(store, 'b')).toBe(expected(0, 20));
    add(store, 'b', 20);
    add(store, 'b', 21);
    // the chain from b~5 down is gone from the object store: a walk of the whole chain would fail
    // (git reads a commit one past what it lists, so the few looked at stay)
    for (const c of git(store, ['rev-list', 'b~5']).trim().split('\n')) rmSync(join(store, 'objects', c.slice(0, 2), c.slice(2)));
    expect(materialize(store, 'b')).toBe(expected(0, 22));
    expect(materialize(store, 'b~1')).toBe(expected(0, 21));
    expect(chainFiles(store).map(([name]) => name)).toEqual(['KEY.data', 'KEY.idx', 'heads']);
  });

  it('a damaged cache is rebuilt from the repo, never served', () => {
    const store = newStore();
    for (let i = 0; i < 5; i++) add(store, 'b', i);
    expect(materialize(store, 'b')).toBe(expected(0, 5));
    const dir = join(store, 'ctx', 'cache', 'chains');
    const data = readdirSync(dir).find((f) => f.endsWith('.data'))!;
    rmSync(join(dir, 'heads'));
    const bytes = readFileSync(join(dir, data));
    bytes[3] ^= 0x20;
    writeFileSync(join(dir, data), bytes);
    expect(materialize(store, 'b')).toBe(expected(0, 5));
    expect(readFileSync(join(dir, data), 'utf8')).toBe(expected(0, 5));
    // the same with the heads kept: the streamed output checks the cached bytes before copying any
    const again = readFileSync(join(dir, data));
    again[10] ^= 0x20;
    writeFileSync(join(dir, data), again);
    add(store, 'b', 5);
    expect(materialize(store, 'b')).toBe(expected(0, 6));
    expect(materialize(store, 'b')).toBe(expected(0, 6));
  });
});
