// `ctx usage` caches what it read of each context commit under <gitdir>/ctx/usage/, by commit id:
// a second run reads no artifact, an edit of the store adds only the new commits, a lost cache is rebuilt.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, FIXED_ENV, ctx, git, newStore } from './helpers.js';

const env = { ...FIXED_ENV, CTX_NOW: '2026-11-27T00:00:00.000Z' };
const CLAUDE = join(FIXTURES, 'claude-code', 'split-response.jsonl');
const CODEX = join(FIXTURES, 'codex', 'rollout-2026-11-22T21-04-49-01a20513-6ef2-75e0-a186-7b61e34882c3.jsonl');
const cacheFile = (s: string) => join(s, 'ctx', 'usage', 'commits-v1.json');
const usage = (s: string) => {
  const r = ctx(s, ['usage', '--json'], { env });
  expect(r).toMatchObject({ code: 0, stderr: '' });
  return r.stdout;
};
const commits = (s: string) => git(s, ['rev-list', '--all']).trim().split('\n').sort();

describe('ctx usage cache', () => {
  it('holds every commit by id; is what a second run reads; is rebuilt, byte for byte, when deleted', () => {
    const s = newStore();
    expect(ctx(s, ['import', 'claude-code', CLAUDE], { env }).code).toBe(0);
    expect(ctx(s, ['import', 'codex', CODEX], { env }).code).toBe(0);
    const first = usage(s);
    const cached = JSON.parse(readFileSync(cacheFile(s), 'utf8')) as Record<string, unknown[][]>;
    expect(Object.keys(cached).sort()).toEqual(commits(s));
    // never a ref: a push cannot send it
    expect(git(s, ['for-each-ref', '--format=%(refname)']).split('\n').filter((r) => r.includes('usage'))).toEqual([]);

    // the second run reads the cache, not the artifacts: an edited entry shows
    const [commit, rows] = Object.entries(cached).find(([, v]) => v.length > 0)!;
    const edited = { ...cached, [commit]: rows.map((r) => [...r.slice(0, 5), 1_000_000, ...r.slice(6)]) };
    writeFileSync(cacheFile(s), JSON.stringify(edited));
    expect(usage(s)).not.toBe(first);

    rmSync(join(s, 'ctx', 'usage'), { recursive: true });
    expect(usage(s)).toBe(first);
    expect(existsSync(cacheFile(s))).toBe(true);

    // a damaged cache is read as none
    writeFileSync(cacheFile(s), '{"not json');
    expect(usage(s)).toBe(first);
    expect(Object.keys(JSON.parse(readFileSync(cacheFile(s), 'utf8'))).sort()).toEqual(commits(s));
  });

  it('a new commit adds its own entry; the others are kept as they were', () => {
    const s = newStore();
    expect(ctx(s, ['import', 'claude-code', CLAUDE], { env }).code).toBe(0);
    usage(s);
    const before = JSON.parse(readFileSync(cacheFile(s), 'utf8')) as Record<string, unknown>;
    const line = JSON.stringify({ type: 'assistant', timestamp: '2026-11-26T10:00:00Z', message: { id: 'msg_new', model: 'claude-sonnet-4-5', usage: { input_tokens: 7, output_tokens: 11 } } });
    const branch = git(s, ['for-each-ref', '--format=%(refname:short)', 'refs/heads']).trim();
    expect(ctx(s, ['checkpoint', '-b', branch, '--format', 'claude-code-v1', '-'], { env, input: `${line}\n` }).code).toBe(0);
    const out = usage(s);
    expect(out.split('\n')[0]).toContain('"responses":');
    const after = JSON.parse(readFileSync(cacheFile(s), 'utf8')) as Record<string, unknown[][]>;
    const tip = git(s, ['rev-parse', `refs/heads/${branch}`]).trim();
    expect(Object.keys(after).sort()).toEqual([...Object.keys(before), tip].sort());
    for (const k of Object.keys(before)) expect(after[k]).toEqual(before[k]);
    expect(after[tip]).toEqual([['msg_new', 'claude-sonnet-4-5', '2026-11-26T10:00:00Z', null, 7, 11, 0, 0]]);
  });
});
