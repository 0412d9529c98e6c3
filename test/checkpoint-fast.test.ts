// `ctx checkpoint -b B --format F FILE` runs from the hook bundle (src/cli/checkpoint-fast.ts), any
// other form through the whole CLI: both must print, fail and exit alike and write the same commits.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ctx, newStore, refSnapshot, ROOT, tempDir } from './helpers.js';

const ENV = { CTX_PRINCIPAL: 'p', CTX_MACHINE: 'm', CTX_NOW: '2026-01-02T03:04:05.678Z' };
// `--type delta` (the default) sends the same checkpoint through commander
const FULL = ['--type', 'delta'];

describe('ctx checkpoint -b B --format F FILE (the fast path)', () => {
  it('writes the same commits and prints the same ids as the whole CLI', () => {
    const [fast, full] = [newStore(), newStore()];
    const dir = tempDir();
    const lines = ['go on', 'and then?'].map((text, i) => {
      const f = join(dir, `${i}.jsonl`);
      writeFileSync(f, `${JSON.stringify({ type: 'user', message: { role: 'user', content: text } })}\n`);
      return f;
    });
    for (const f of lines) {
      const a = ctx(fast, ['checkpoint', '-b', 'b', '--format', 'claude-code-v1', f], { env: ENV });
      const b = ctx(full, ['checkpoint', '-b', 'b', '--format', 'claude-code-v1', ...FULL, f], { env: ENV });
      expect(a).toEqual(b);
      expect([a.code, a.stdout]).toEqual([0, expect.stringMatching(/^ctx-[0-9a-f]{12}\n$/)]);
    }
    expect(refSnapshot(fast)).toBe(refSnapshot(full));
  });

  it('fails with the same line and exit code: a bad branch, an unknown format, a missing file, bytes not of the format', () => {
    const store = newStore();
    const dir = tempDir();
    const good = join(dir, 'a.jsonl');
    writeFileSync(good, '{"type":"user","message":{"role":"user","content":"x"}}\n');
    const bad = join(dir, 'bad.jsonl');
    writeFileSync(bad, 'not json\n');
    const cases: [string[], number, string][] = [
      [['-b', 'bad..x', '--format', 'claude-code-v1', good], 2, `ctx: bad branch name 'bad..x': contains ".."\n`],
      [['-b', 'b', '--format', 'nope', good], 2, expect.stringMatching(/^ctx: unknown format 'nope' \(known: claude-code-v1, /) as never],
      [['-b', 'b', '--format', 'claude-code-v1', join(dir, 'missing.jsonl')], 4, `ctx: no such file: ${join(dir, 'missing.jsonl')}\n`],
      [['-b', 'b', '--format', 'claude-code-v1', bad], 1, 'ctx: line 1 is not JSON (byte 0)\n'],
    ];
    for (const [args, code, stderr] of cases) {
      const a = ctx(store, ['checkpoint', ...args], { env: ENV });
      expect([a.code, a.stdout, a.stderr]).toEqual([code, '', stderr]);
      expect(ctx(store, ['checkpoint', ...FULL, ...args], { env: ENV })).toEqual(a);
    }
    expect(refSnapshot(store)).toBe('');
  });

  it('writes the same commit with its own code cache, without it, with a damaged one, or with none', () => {
    // a copy of the build's files a checkpoint reads: bin/, dist/cli.cjs, hook.cjs, its caches, the token ranks
    const copy = tempDir();
    cpSync(join(ROOT, 'bin'), join(copy, 'bin'), { recursive: true });
    mkdirSync(join(copy, 'dist', 'chunks'), { recursive: true });
    for (const f of ['cli.cjs', 'hook.cjs', 'hook.cache', 'hook.checkpoint.cache', 'chunks/cl100k_base.ranks']) cpSync(join(ROOT, 'dist', f), join(copy, 'dist', f));
    const line = join(tempDir(), 'a.jsonl');
    writeFileSync(line, '{"type":"user","message":{"role":"user","content":"x"}}\n');
    const run = () => {
      const store = newStore();
      const r = spawnSync(process.execPath, [join(copy, 'bin', 'ctx'), '--store', store, 'checkpoint', '-b', 'b', '--format', 'claude-code-v1', line], { env: { ...process.env, ...ENV } });
      return [r.status, r.stdout.toString(), r.stderr.toString()];
    };
    const want = [0, ctx(newStore(), ['checkpoint', '-b', 'b', '--format', 'claude-code-v1', line], { env: ENV }).stdout, ''];
    expect(want[1]).toMatch(/^ctx-[0-9a-f]{12}\n$/);
    expect(run()).toEqual(want);
    // damaged: V8 rejects it and compiles the bundle as without one
    writeFileSync(join(copy, 'dist', 'hook.checkpoint.cache'), 'not a cache');
    expect(run()).toEqual(want);
    // missing: dist/hook.cache instead
    rmSync(join(copy, 'dist', 'hook.checkpoint.cache'));
    expect(run()).toEqual(want);
    rmSync(join(copy, 'dist', 'hook.cache'));
    expect(run()).toEqual(want);
  });
});
