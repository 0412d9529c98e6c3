// Annotations on refs/notes/ctx: JSON Lines notes that native git reads, and native git's fanned-out notes that ctx reads.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, FIXED_ENV, ctx, fsck, git, newStore, tempDir } from './helpers.js';

const LINE = '{"type":"user","n":1}\n';
// Under FIXED_ENV: LINE as a root with --summary orig.
const ID = 'ctx-a7596d9b15c88e47497a2f1216928c911b9dc847';
const OID = ID.slice(4);
const AT = FIXED_ENV.CTX_NOW;

const META = {
  artifact: 'blake3:99075f34d6835dac7ef0bdd350f79e5f9280627ff92f10935fe57b217f7e35ad',
  artifact_size: 22,
  checkpoint: 'explicit',
  created_at: AT,
  format: 'claude-code-v1',
  machine: 'box',
  message_count: 1,
  principal: 'alice',
  session_id: 's-1',
  summary: 'orig',
  template: 'test-agent',
  token_count: 0,
  type: 'delta',
  v: 1,
};

/** A transcript of `n` user prompts: import makes one commit per prompt. */
function prompts(n: number): string {
  let s = '';
  for (let i = 0; i < n; i++) s += `{"type":"user","message":{"role":"user","content":"prompt ${i}"},"uuid":"u${i}","sessionId":"s1","timestamp":"2026-01-01T10:00:00.000Z"}\n`;
  return s;
}

function notesList(store: string): Map<string, string> {
  return new Map(git(store, ['notes', '--ref', 'ctx', 'list']).trim().split('\n').map((l) => l.split(' ').reverse() as [string, string]));
}

// One chain of 302 commits, 300 of them with notes added by native git (which fans the notes tree out);
// each engine's test works on its own copy. Built outside tempDir(), which is emptied after every test.
let fanned: string;
const setupDir = mkdtempSync(join(tmpdir(), 'ctx-test-'));
afterAll(() => rmSync(setupDir, { recursive: true, force: true }));
beforeAll(() => {
  fanned = join(setupDir, '.ctx');
  expect(ctx(fanned, ['init', fanned]).code).toBe(0);
  const transcript = join(setupDir, 'prompts.jsonl');
  writeFileSync(transcript, prompts(302));
  expect(ctx(fanned, ['import', 'claude-code', transcript, '-b', 'many'], { env: FIXED_ENV }).code).toBe(0);
  for (const oid of git(fanned, ['rev-list', 'many']).trim().split('\n').slice(0, 300)) {
    execFileSync('git', ['--git-dir', fanned, 'notes', '--ref', 'ctx', 'add', '-m', `{"v":1,"summary":"n-${oid.slice(0, 8)}"}`, oid]);
  }
});

describe.each(ENGINES)('annotations, engine %s', (engine) => {
  const env = { ...FIXED_ENV, CTX_ENGINE: engine };

  it('annotate writes a JSON line note; show prefers it over meta.json; more annotations append lines', () => {
    const store = newStore();
    expect(ctx(store, ['checkpoint', '-b', 'main', '--format', 'claude-code-v1', '--summary', 'orig', '-'], { env, input: LINE }).stdout).toBe(`${ID.slice(0, 16)}\n`);

    const a = ctx(store, ['annotate', ID.slice(0, 16), '--summary', 'better summary'], { env });
    expect(a).toMatchObject({ code: 0, stderr: '' });
    const first = `{"at":"${AT}","by":"alice","summary":"better summary","v":1}\n`;
    expect(git(store, ['notes', '--ref', 'ctx', 'show', OID])).toBe(first);

    const shown = ctx(store, ['show', '--json', 'main'], { env });
    expect(shown.code).toBe(0);
    expect(JSON.parse(shown.stdout)).toEqual({
      v: 1,
      id: ID,
      parent: null,
      branches: ['main'],
      summary: 'better summary',
      meta: META,
      annotations: { at: AT, by: 'alice', summary: 'better summary' },
      links: [],
    });
    // meta.json itself is immutable
    expect(git(store, ['cat-file', 'blob', 'main:meta.json'])).toBe(`${JSON.stringify(META)}\n`);

    expect(ctx(store, ['annotate', 'main', '--label', 'a', 'b'], { env }).code).toBe(0);
    expect(git(store, ['notes', '--ref', 'ctx', 'show', OID])).toBe(`${first}{"at":"${AT}","by":"alice","labels":["a","b"],"v":1}\n`);
    const again = JSON.parse(ctx(store, ['show', '--json', 'main'], { env }).stdout);
    expect(again.summary).toBe('better summary');
    expect(again.annotations).toEqual({ at: AT, by: 'alice', summary: 'better summary', labels: ['a', 'b'] });

    // a later summary wins
    expect(ctx(store, ['annotate', 'main', '--summary', 'third', '--principal', 'bob'], { env }).code).toBe(0);
    const third = JSON.parse(ctx(store, ['show', '--json', 'main'], { env }).stdout);
    expect(third.summary).toBe('third');
    expect(third.annotations).toEqual({ at: AT, by: 'bob', summary: 'third', labels: ['a', 'b'] });
    expect(third.meta.summary).toBe('orig');
    expect(git(store, ['notes', '--ref', 'ctx', 'show', OID]).split('\n')).toHaveLength(4);
    expect(git(store, ['rev-list', '--count', 'refs/notes/ctx'])).toBe('3\n');
    expect(fsck(store).code).toBe(0);
  });

  it('reads and extends a notes tree that native git fanned out', () => {
    const store = join(tempDir(), '.ctx');
    cpSync(fanned, store, { recursive: true });
    const oids = git(store, ['rev-list', 'many']).trim().split('\n');
    expect(oids).toHaveLength(302);
    // native git noted the newest 300; the two oldest have no note
    const noted = oids.slice(0, 300);
    const entries = git(store, ['ls-tree', 'refs/notes/ctx']).trim().split('\n');
    expect(entries.length).toBeGreaterThan(1);
    for (const e of entries) expect(e).toMatch(/^040000 tree [0-9a-f]{40}\t[0-9a-f]{2}$/);
    const before = notesList(store);
    expect(before.size).toBe(300);

    const target = noted[7];
    const shown = ctx(store, ['show', '--json', target], { env });
    expect(shown.code).toBe(0);
    expect(JSON.parse(shown.stdout)).toMatchObject({ id: `ctx-${target}`, summary: `n-${target.slice(0, 8)}`, annotations: { summary: `n-${target.slice(0, 8)}` } });

    const other = noted[100];
    expect(ctx(store, ['annotate', `ctx-${other}`, '--summary', 'hello'], { env }).code).toBe(0);
    const fresh = oids[301];
    expect(ctx(store, ['annotate', `ctx-${fresh}`, '--summary', 'new note'], { env }).code).toBe(0);

    expect(git(store, ['notes', '--ref', 'ctx', 'list']).trim().split('\n')).toHaveLength(301);
    const after = notesList(store);
    for (const [oid, blob] of before) if (oid !== other) expect(after.get(oid)).toBe(blob);
    expect(git(store, ['notes', '--ref', 'ctx', 'show', other])).toBe(`{"v":1,"summary":"n-${other.slice(0, 8)}"}\n{"at":"${AT}","by":"alice","summary":"hello","v":1}\n`);
    expect(git(store, ['notes', '--ref', 'ctx', 'show', fresh])).toBe(`{"at":"${AT}","by":"alice","summary":"new note","v":1}\n`);
    // still fanned out: native git finds every note where it looks first
    for (const e of git(store, ['ls-tree', 'refs/notes/ctx']).trim().split('\n')) expect(e).toMatch(/^040000 tree [0-9a-f]{40}\t[0-9a-f]{2}$/);

    expect(JSON.parse(ctx(store, ['show', '--json', other], { env }).stdout).summary).toBe('hello');
    const bare = JSON.parse(ctx(store, ['show', '--json', oids[300]], { env }).stdout);
    expect([bare.summary, bare.meta.summary, bare.annotations]).toEqual(['prompt 1', 'prompt 1', {}]);
    expect(fsck(store).code).toBe(0);
  });
});
