// Materializing a long chain with nothing cached: one pass of meta.json and artifact alternately,
// each artifact streamed to the chain cache, the output the cache's bytes read back. Byte-exact with
// both engines; a damaged meta.json anywhere in the chain is refused (exit 5) with nothing written
// to stdout or the cache index.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ENGINES, FIXED_ENV, ctx, git, newStore, tempDir } from './helpers.js';
import { artifactHash } from '../src/core/blake3.js';

const N = 1200; // past the git engine's bulk threshold (1,000 specs): a one-shot cat-file, read from a spool file
// every 100th line is over 1 KiB: chunked when ctx.maxBlobSize is 1024
const line = (i: number) => `${JSON.stringify({ type: 'user', message: { role: 'user', content: `turn ${i} ${'y'.repeat(i % 100 === 7 ? 3000 + i : i % 97)}` }, uuid: `u-${i}` })}\n`;
const lines = (from: number, to: number) => Array.from({ length: to - from }, (_, k) => line(from + k)).join('');
const cacheFiles = (store: string) => {
  const dir = join(store, 'ctx', 'cache', 'chains');
  return existsSync(dir) ? readdirSync(dir).sort().map((f) => [f.replace(/^[0-9a-f]{40}/, 'KEY'), statSync(join(dir, f)).size]) : [];
};

/** Imported with the git engine (isomorphic-git takes ~10 s for it); each engine then reads it. */
function imported(maxBlobSize?: number): string {
  const store = newStore();
  if (maxBlobSize) git(store, ['config', 'ctx.maxBlobSize', String(maxBlobSize)]);
  const file = join(tempDir(), 'long.jsonl');
  writeFileSync(file, lines(0, N));
  expect(ctx(store, ['import', 'claude-code', file, '-b', 'b'], { env: { ...FIXED_ENV, CTX_ENGINE: 'git' } }).code).toBe(0);
  return store;
}

describe.each(ENGINES)('a cold materialize of a %s-engine chain of 1,200 commits', (engine) => {
  const env = { ...FIXED_ENV, CTX_ENGINE: engine };

  it('is byte-exact, fills the chain cache, and the cached and one-more-checkpoint runs agree', () => {
    const store = imported();
    expect(git(store, ['rev-list', '--count', 'b']).trim()).toBe(String(N));
    const cold = ctx(store, ['materialize', 'b'], { env });
    expect([cold.code, cold.stderr, cold.stdout === lines(0, N)]).toEqual([0, '', true]);
    expect(cacheFiles(store)).toEqual([
      ['KEY.data', Buffer.byteLength(lines(0, N))],
      ['KEY.idx', N * 32],
      ['heads', expect.any(Number)],
    ]);
    const cached = ctx(store, ['materialize', 'b'], { env });
    expect([cached.code, cached.stdout === lines(0, N)]).toEqual([0, true]);
    expect(ctx(store, ['checkpoint', '-b', 'b', '--format', 'claude-code-v1', '-'], { input: line(N), env }).code).toBe(0);
    const next = ctx(store, ['materialize', 'b'], { env });
    expect([next.code, next.stdout === lines(0, N + 1)]).toEqual([0, true]);
    expect(cacheFiles(store)[1]).toEqual(['KEY.idx', (N + 1) * 32]);
  });

  it('with chunked artifacts (trees of 1 KiB blobs) among them: byte-exact, to stdout and to -o', () => {
    const store = imported(1024);
    const tree = git(store, ['cat-file', '-t', `b~${N - 1 - 107}:delta.jsonl`]).trim();
    expect(tree).toBe('tree');
    const out = ctx(store, ['materialize', 'b'], { env });
    expect([out.code, out.stderr, out.stdout === lines(0, N)]).toEqual([0, '', true]);
    rmSync(join(store, 'ctx', 'cache'), { recursive: true, force: true });
    const file = join(tempDir(), 'out.jsonl');
    expect(ctx(store, ['materialize', 'b', '-o', file], { env })).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(readFileSync(file, 'utf8') === lines(0, N)).toBe(true);
  });
});

describe('a damaged meta.json deep in a long chain', () => {
  /** N commits written with git fast-import, the ctx way (trailers, meta.json), commit `bad` with meta.json version 99. */
  async function forged(bad: number): Promise<{ store: string; badId: string }> {
    const store = newStore();
    // each artifact's true size and BLAKE3: every read checks them
    const claims = await Promise.all(Array.from({ length: N }, async (_, i) => ({ artifact: await artifactHash(Buffer.from(line(i))), artifact_size: Buffer.byteLength(line(i)) })));
    const meta = (v: number, i: number) =>
      JSON.stringify({ ...claims[i], checkpoint: 'import', created_at: '2026-01-01T00:00:00.000Z', format: 'claude-code-v1', machine: 'm', message_count: 1, principal: 'p', session_id: 's', summary: '', template: 't', token_count: 1, type: 'delta', v });
    const msg = 'delta\n\nCtx-Type: delta\nCtx-Format: claude-code-v1\n';
    const data = (s: string) => `data ${Buffer.byteLength(s)}\n${s}\n`;
    let stream = '';
    for (let i = 0; i < N; i++) {
      stream += `commit refs/heads/b\nmark :${i + 1}\ncommitter t <t@t> 1767225600 +0000\n${data(msg)}`;
      if (i > 0) stream += `from :${i}\n`;
      stream += `M 100644 inline delta.jsonl\n${data(line(i))}M 100644 inline meta.json\n${data(meta(i === bad ? 99 : 1, i))}\n`;
    }
    const r = spawnSync('git', ['--git-dir', store, 'fast-import', '--quiet'], { input: stream });
    expect(r.status).toBe(0);
    const badId = git(store, ['rev-parse', `b~${N - 1 - bad}`]).trim();
    return { store, badId };
  }

  it.each(ENGINES)('is refused with exit 5 naming the commit (%s engine): nothing on stdout, no cache index', async (engine) => {
    const { store, badId } = await forged(600);
    const plain = ctx(store, ['materialize', 'b', '--stop', 'root'], { env: { ...FIXED_ENV, CTX_ENGINE: engine } });
    expect(plain).toMatchObject({ code: 5, stdout: '', stderr: `ctx: ctx-${badId.slice(0, 12)}: unknown meta.json version 99\n` });
    expect(cacheFiles(store).filter(([f]) => f !== 'KEY.data')).toEqual([]);
    rmSync(join(store, 'ctx', 'cache'), { recursive: true, force: true });
  });

  // the walk reads meta.json in batches (256 commits first) to find the stop: one past the stop is read, never refused
  it.each(ENGINES)('older than the stop, it is not refused (%s engine), also once git has a commit-graph', async (engine) => {
    const { store, badId } = await forged(N - 100);
    const env = { ...FIXED_ENV, CTX_ENGINE: engine };
    for (const graph of [false, true]) {
      if (graph) git(store, ['gc', '--quiet']);
      rmSync(join(store, 'ctx', 'cache'), { recursive: true, force: true });
      expect(ctx(store, ['materialize', 'b', '--stop', 'b~50'], { env })).toMatchObject({ code: 0, stderr: '', stdout: lines(N - 51, N) }); // the stop's own commit is in the context
      expect(ctx(store, ['materialize', 'b', '--stop', 'b~100'], { env })).toMatchObject({ code: 5, stdout: '', stderr: `ctx: ctx-${badId.slice(0, 12)}: unknown meta.json version 99\n` });
    }
  });
});

describe('a damaged artifact deep in a long chain, packed', () => {
  // the one-shot cat-file writes to a file: what it answered before it died is read, so the
  // failure lands on the object it died on, not on the first of the batch
  it('is refused with exit 5 naming its commit, not the first one read (git engine)', () => {
    const store = imported();
    const env = { ...FIXED_ENV, CTX_ENGINE: 'git' };
    git(store, ['gc', '--quiet']);
    const bad = git(store, ['rev-parse', 'b~600']).trim();
    const blob = git(store, ['rev-parse', 'b~600:delta.jsonl']).trim();
    const pack = readdirSync(join(store, 'objects', 'pack')).find((f) => f.endsWith('.pack'))!;
    const entry = git(store, ['verify-pack', '-v', join(store, 'objects', 'pack', pack.replace(/\.pack$/, '.idx'))]).split('\n').find((l) => l.startsWith(blob))!;
    const [, , , inPack, offset] = entry.trim().split(/\s+/).map(Number);
    const path = join(store, 'objects', 'pack', pack);
    const bytes = readFileSync(path);
    bytes[offset + inPack - 3] ^= 0xff; // inside the blob's deflated bytes
    writeFileSync(path, bytes);
    rmSync(join(store, 'ctx', 'cache'), { recursive: true, force: true });
    expect(ctx(store, ['materialize', 'b', '--stop', 'root'], { env })).toMatchObject({ code: 5, stdout: '', stderr: `ctx: ctx-${bad.slice(0, 12)}: artifact is damaged\n` });
  });
});

// git lists a gc'd chain from its commit-graph without reading a commit: the cold walk turns that off
describe('a damaged commit in a chain git has a commit-graph of', () => {
  it('is refused with exit 5 naming it (git engine), as verify refuses it', () => {
    const store = newStore();
    const env = { ...FIXED_ENV, CTX_ENGINE: 'git' };
    for (let i = 0; i < 3; i++) expect(ctx(store, ['checkpoint', '-b', 'b', '--format', 'claude-code-v1', '-'], { env, input: line(i) }).code).toBe(0);
    git(store, ['gc', '--quiet']);
    expect(existsSync(join(store, 'objects', 'info', 'commit-graph'))).toBe(true);
    const [tip, parent] = git(store, ['rev-list', 'b']).trim().split('\n');
    const pack = readdirSync(join(store, 'objects', 'pack')).find((f) => f.endsWith('.pack'))!;
    const entry = git(store, ['verify-pack', '-v', join(store, 'objects', 'pack', pack.replace(/\.pack$/, '.idx'))]).split('\n').find((l) => l.startsWith(parent))!;
    const [, , , inPack, offset] = entry.split(/\s+/).map(Number);
    const bytes = readFileSync(join(store, 'objects', 'pack', pack));
    bytes[offset + (inPack >> 1)] ^= 0xff; // inside the commit's deflated bytes
    writeFileSync(join(store, 'objects', 'pack', pack), bytes);
    const err = `ctx: ctx-${tip.slice(0, 12)}: its parent ${parent.slice(0, 12)} cannot be read, the object store is damaged\n`;
    for (const args of [['materialize', 'b', '--stop', 'root'], ['verify', 'b']]) expect(ctx(store, args, { env }), args.join(' ')).toMatchObject({ code: 5, stdout: '', stderr: err });
  });
});
