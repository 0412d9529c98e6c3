// bureau-agent-v1: CBOR arrays of message maps, concatenated by decoding, merging and encoding once.
import { decode, encode } from 'cbor-x';
import { describe, expect, it } from 'vitest';
import { ENGINES, FIXED_ENV, ctx, fsck, newStore, objectCount, refSnapshot } from './helpers.js';

const FIRST = [{ role: 'user', content: 'hi' }];
const SECOND = [{ role: 'assistant', content: [{ type: 'text', text: 'yo' }] }];
const MERGED = [...FIRST, ...SECOND];
// Under FIXED_ENV: encode(FIRST) as a root on b, then encode(SECOND) on top.
const ROOT = 'ctx-4dc3cfadf5e4dad7a602166b2a50b9a997958b47';
const TIP = 'ctx-dd748afc63d313284c80a9e6bb842f191d3f8dc2';
// Compared as hex: cbor-x's decode() hangs a dataView property on the buffer it reads.
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

describe.each(ENGINES)('bureau-agent-v1, engine %s', (engine) => {
  const env = { ...FIXED_ENV, CTX_ENGINE: engine };

  function twoCommits(): string {
    const store = newStore();
    const a = ctx(store, ['checkpoint', '-b', 'b', '--format', 'bureau-agent-v1', '-'], { env, input: encode(FIRST) });
    const b = ctx(store, ['checkpoint', '-b', 'b', '--format', 'bureau-agent-v1', '-'], { env, input: encode(SECOND) });
    expect([a.stdout, b.stdout]).toEqual([`${ROOT.slice(0, 16)}\n`, `${TIP.slice(0, 16)}\n`]);
    return store;
  }

  it('materializes the merged array, encoded once', () => {
    const store = twoCommits();
    const m = ctx(store, ['materialize', 'b'], { env });
    expect([m.code, m.stderr]).toEqual([0, '']);
    expect(decode(m.bytes)).toEqual(MERGED);
    expect(hex(m.bytes)).toBe(hex(encode(MERGED)));
    expect(hex(ctx(store, ['materialize', '--stop', 'root', '--verify', 'b'], { env }).bytes)).toBe(hex(encode(MERGED)));
    // each commit keeps its own array, as given
    expect(hex(ctx(store, ['show', '--delta', 'b~1'], { env }).bytes)).toBe(hex(encode(FIRST)));
    expect(hex(ctx(store, ['show', '--delta', 'b'], { env }).bytes)).toBe(hex(encode(SECOND)));
    expect(hex(ctx(store, ['materialize', 'b~1'], { env }).bytes)).toBe(hex(encode(FIRST)));

    const json = ctx(store, ['--json', 'materialize', 'b'], { env });
    expect(JSON.parse(json.stdout)).toEqual({
      v: 1,
      format: 'bureau-agent-v1',
      tier: 'native',
      stop: 'compaction',
      view: 'reasoning',
      masked: 0,
      window: null,
      commits: [ROOT, TIP],
      bytes: encode(MERGED).length,
      content: Buffer.from(encode(MERGED)).toString('base64'),
    });
    expect(ctx(store, ['verify'], { env })).toMatchObject({ code: 0, stdout: 'ok 2 commits\n', stderr: '' });
    expect(fsck(store).code).toBe(0);
  });

  it('--format raw gives every artifact as is, base64, in a JSON envelope', () => {
    const store = twoCommits();
    const r = ctx(store, ['materialize', '--format', 'raw', 'b'], { env });
    expect([r.code, r.stderr]).toEqual([0, '']);
    const artifact = (id: string, data: unknown) => ({ id, type: 'delta', format: 'bureau-agent-v1', encoding: 'base64', data: Buffer.from(encode(data)).toString('base64') });
    expect(r.stdout).toBe(`${JSON.stringify({ v: 1, format: 'raw', artifacts: [artifact(ROOT, FIRST), artifact(TIP, SECOND)] })}\n`);
  });

  it('refuses to materialize a bureau chain as gemini-cli-chat-v1 (no writer from messages)', () => {
    const store = twoCommits();
    const refs = refSnapshot(store);
    const objects = objectCount(store);
    const r = ctx(store, ['materialize', '--format', 'gemini-cli-chat-v1', 'b'], { env });
    expect(r).toMatchObject({
      code: 1,
      stdout: '',
      stderr: `ctx: ${ROOT.slice(0, 16)} holds bureau-agent-v1, not gemini-cli-chat-v1: materialize it as bureau-agent-v1 or raw\n`,
    });
    expect(refSnapshot(store)).toBe(refs);
    expect(objectCount(store)).toBe(objects);
  });
});
