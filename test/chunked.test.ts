// Artifacts over ctx.maxBlobSize are stored as a subtree of numbered chunk blobs; readers reassemble them.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ENGINES, FIXED_ENV, FIXTURES, ctx, fsck, git, newStore } from './helpers.js';

const SOURCE = join(FIXTURES, 'claude-code', 'compacted-session.jsonl');
const KIB = 1024;

function catBlob(store: string, oid: string): Buffer {
  return execFileSync('git', ['--git-dir', store, 'cat-file', 'blob', oid]);
}

/** `git ls-tree -r -l`: path → [size, blob id]. */
function files(store: string, commit: string): Map<string, [number, string]> {
  const out = new Map<string, [number, string]>();
  for (const l of git(store, ['ls-tree', '-r', '-l', commit]).trim().split('\n')) {
    const [info, path] = l.split('\t');
    const [mode, type, oid, size] = info.split(/\s+/);
    expect([mode, type]).toEqual(['100644', 'blob']);
    out.set(path, [Number(size), oid]);
  }
  return out;
}

function importInto(store: string, env: Record<string, string>): string[] {
  const r = ctx(store, ['import', 'claude-code', SOURCE, '-b', 's'], { env });
  expect(r.code).toBe(0);
  return git(store, ['rev-list', '--reverse', 's']).trim().split('\n');
}

describe.each(ENGINES)('chunked artifacts, engine %s', (engine) => {
  const env = { ...FIXED_ENV, CTX_ENGINE: engine };

  it('splits artifacts over 1 KiB into 1 KiB chunks and reads them back byte for byte', () => {
    const source = readFileSync(SOURCE);
    const store = newStore();
    git(store, ['config', '-f', join(store, 'config'), 'ctx.maxBlobSize', '1k']);
    const commits = importInto(store, env);
    expect(commits.length).toBeGreaterThan(1);

    let offset = 0;
    let chunked = 0;
    for (const c of commits) {
      const meta = JSON.parse(catBlob(store, git(store, ['rev-parse', `${c}:meta.json`]).trim()).toString('utf8'));
      const name = `${meta.type === 'compaction' ? 'summary' : 'delta'}.jsonl`;
      const tree = files(store, c);
      const paths = [...tree.keys()].filter((p) => p !== 'meta.json');
      let artifact: Buffer;
      if (meta.artifact_size > KIB) {
        chunked++;
        const n = Math.ceil(meta.artifact_size / KIB);
        expect(paths).toEqual(Array.from({ length: n }, (_, i) => `${name}/${String(i).padStart(4, '0')}`));
        paths.forEach((p, i) => expect(tree.get(p)![0]).toBe(i < n - 1 ? KIB : meta.artifact_size - (n - 1) * KIB));
        artifact = Buffer.concat(paths.map((p) => catBlob(store, tree.get(p)![1])));
      } else {
        expect(paths).toEqual([name]);
        artifact = catBlob(store, tree.get(name)![1]);
      }
      expect(artifact.length).toBe(meta.artifact_size);
      // each artifact is the next slice of the transcript
      expect(artifact).toEqual(source.subarray(offset, offset + artifact.length));
      offset += artifact.length;
    }
    expect(offset).toBe(source.length);
    expect(chunked).toBeGreaterThan(0);

    const m = ctx(store, ['materialize', '--stop', 'root', 's'], { env });
    expect([m.code, m.stderr]).toEqual([0, '']);
    expect(m.bytes).toEqual(source);
    const mv = ctx(store, ['materialize', '--verify', '--stop', 'root', 's'], { env });
    expect(mv.bytes).toEqual(source);
    expect(ctx(store, ['verify'], { env })).toMatchObject({ code: 0, stdout: `ok ${commits.length} commits\n`, stderr: '' });
    expect(fsck(store).code).toBe(0);

    // a default store holds the same artifacts whole, with the same meta.json, and materializes the same bytes
    const plain = newStore();
    const plainCommits = importInto(plain, env);
    expect(plainCommits.length).toBe(commits.length);
    plainCommits.forEach((c, i) => {
      expect(git(plain, ['rev-parse', `${c}:meta.json`])).toBe(git(store, ['rev-parse', `${commits[i]}:meta.json`]));
      expect([...files(plain, c).keys()].filter((p) => p !== 'meta.json')).toHaveLength(1);
    });
    expect(ctx(plain, ['materialize', '--stop', 'root', 's'], { env }).bytes).toEqual(source);
    expect(ctx(plain, ['materialize', 's'], { env }).bytes).toEqual(ctx(store, ['materialize', 's'], { env }).bytes);
  });

  it('keeps an artifact of exactly maxBlobSize whole and chunks one byte more', () => {
    const store = newStore();
    git(store, ['config', '-f', join(store, 'config'), 'ctx.maxBlobSize', '1k']);
    const line = (n: number) => `{"type":"user","x":"${'a'.repeat(n - 23)}"}\n`;
    for (const n of [KIB, KIB + 1]) {
      expect(line(n).length).toBe(n);
      const r = ctx(store, ['checkpoint', '-b', `b${n}`, '--format', 'claude-code-v1', '-'], { env, input: line(n) });
      expect(r.code).toBe(0);
      expect(ctx(store, ['materialize', `b${n}`], { env }).stdout).toBe(line(n));
    }
    expect([...files(store, 'b1024').entries()].map(([p, [size]]) => [p, size])).toEqual([['delta.jsonl', KIB], ['meta.json', expect.any(Number)]]);
    expect([...files(store, 'b1025').entries()].map(([p, [size]]) => [p, size])).toEqual([
      ['delta.jsonl/0000', KIB],
      ['delta.jsonl/0001', 1],
      ['meta.json', expect.any(Number)],
    ]);
    expect(ctx(store, ['verify'], { env })).toMatchObject({ code: 0, stdout: 'ok 2 commits\n' });
    expect(fsck(store).code).toBe(0);
  });
});
