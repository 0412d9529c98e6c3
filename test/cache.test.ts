// The materialize cache under <repo>/ctx/cache is derived data: damaged or deleted, it never changes what materialize returns.
import { readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ENGINES, FIXED_ENV, FIXTURES, ctx, fsck, newStore, objectCount, refSnapshot } from './helpers.js';

const SOURCE = join(FIXTURES, 'claude-code', 'compacted-session.jsonl');

function cacheFiles(store: string): Map<string, Buffer> {
  const dir = join(store, 'ctx', 'cache');
  const out = new Map<string, Buffer>();
  let names: string[];
  try {
    names = readdirSync(dir, { recursive: true, encoding: 'utf8' });
  } catch {
    return out;
  }
  for (const n of names.sort()) if (statSync(join(dir, n)).isFile()) out.set(n, readFileSync(join(dir, n)));
  return out;
}

/** Same length, other bytes: from `from` on, every byte replaced. */
function garble(file: Buffer, from: number): Buffer {
  const g = Buffer.from(file);
  for (let i = from; i < g.length; i++) g[i] = (file[i] + 1 + (i % 7)) & 0xff;
  return g;
}

describe.each(ENGINES)('materialize cache, engine %s', (engine) => {
  const env = { ...FIXED_ENV, CTX_ENGINE: engine };

  it('gives the same bytes from the cache, from a damaged cache and without one', () => {
    const store = newStore();
    expect(ctx(store, ['import', 'claude-code', SOURCE, '-b', 's'], { env }).code).toBe(0);
    const source = readFileSync(SOURCE);
    const root = () => {
      const r = ctx(store, ['materialize', '--stop', 'root', 's'], { env });
      expect([r.code, r.stderr]).toEqual([0, '']);
      return r.bytes;
    };
    const compaction = () => {
      const r = ctx(store, ['materialize', 's'], { env });
      expect([r.code, r.stderr]).toEqual([0, '']);
      return r.bytes;
    };

    expect(cacheFiles(store).size).toBe(0);
    expect(root()).toEqual(source);
    const fromCompaction = compaction();
    expect(fromCompaction.length).toBeGreaterThan(0);
    expect(fromCompaction.length).toBeLessThan(source.length);
    const entries = cacheFiles(store);
    expect(entries.size).toBeGreaterThan(0);
    expect([...entries.keys()].filter((n) => n.endsWith('.tmp'))).toEqual([]);

    // a cache hit: same bytes, and the entries are as they were
    expect(root()).toEqual(source);
    expect(compaction()).toEqual(fromCompaction);
    expect(cacheFiles(store)).toEqual(entries);

    const refs = refSnapshot(store);
    const objects = objectCount(store);
    const dir = join(store, 'ctx', 'cache');

    // every body garbled behind an intact header: rebuilt from the repo, entries rewritten
    for (const [name, bytes] of entries) writeFileSync(join(dir, name), garble(bytes, bytes.indexOf(0x0a) + 1));
    expect(root()).toEqual(source);
    expect(compaction()).toEqual(fromCompaction);
    expect(cacheFiles(store)).toEqual(entries);

    // every whole file garbled, header included
    for (const [name, bytes] of entries) writeFileSync(join(dir, name), garble(bytes, 0));
    expect(compaction()).toEqual(fromCompaction);
    expect(root()).toEqual(source);
    expect(cacheFiles(store)).toEqual(entries);

    // a body cut short
    for (const [name, bytes] of entries) writeFileSync(join(dir, name), bytes.subarray(0, bytes.length - 1));
    expect(root()).toEqual(source);
    expect(compaction()).toEqual(fromCompaction);

    // no cache at all
    rmSync(join(store, 'ctx'), { recursive: true, force: true });
    expect(root()).toEqual(source);
    expect(compaction()).toEqual(fromCompaction);
    expect(cacheFiles(store)).toEqual(entries);

    // the cache is not part of the repo
    expect(refSnapshot(store)).toBe(refs);
    expect(objectCount(store)).toBe(objects);
    expect(fsck(store).code).toBe(0);
  });

  it('does not serve a branch tip that has moved', () => {
    const store = newStore();
    expect(ctx(store, ['import', 'claude-code', SOURCE, '-b', 's'], { env }).code).toBe(0);
    const source = readFileSync(SOURCE);
    expect(ctx(store, ['materialize', '--stop', 'root', 's'], { env }).bytes).toEqual(source);
    const more = '{"type":"user","message":{"role":"user","content":"one more"}}\n';
    expect(ctx(store, ['checkpoint', '-b', 's', '--format', 'claude-code-v1', '-'], { env, input: more }).code).toBe(0);
    expect(ctx(store, ['materialize', '--stop', 'root', 's'], { env }).bytes).toEqual(Buffer.concat([source, Buffer.from(more)]));
    expect(ctx(store, ['materialize', '--stop', 'root', 's~1'], { env }).bytes).toEqual(source);
  });
});
