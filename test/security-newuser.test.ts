// Found as a new user would (issue 20): an import takes only its runtime's own files and writes
// nothing when it refuses one; a mistyped name gets the nearest as a hint; a dead hook's empty lock
// does not hold up capture.
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CORPUS, FIXTURES, FIXED_ENV, corpusFiles, ctx, describeCorpus, git, newStore, tempDir } from './helpers.js';

/** Several CLI runs a test, on a machine that may be busy. */
const SLOW = 240_000;
const CLAUDE = join(FIXTURES, 'claude-code', 'compacted-session.jsonl');
const CODEX = join(FIXTURES, 'codex', 'rollout-2025-11-20T09-00-00-0a1b2c3d-4e5f-7a8b-9c0d-1e2f3a4b5c6d.jsonl');
const GEMINI = join(FIXTURES, 'gemini-cli', 'session-2026-01-10T09-00-aaaa1111.jsonl');

/** A store path nothing has made yet, in an empty directory (the command's cwd). */
function noStore(): string {
  return join(tempDir(), 'store');
}

/** The store was not made, and nothing else was written beside it. */
function expectNothingWritten(store: string): void {
  expect(existsSync(store)).toBe(false);
  expect(readdirSync(dirname(store))).toEqual([]);
}

describe('an import recognizes its runtime’s files', () => {
  it.each([
    ['codex', CLAUDE, 'is not a Codex rollout: this looks like a Claude Code transcript: ctx import claude-code'],
    ['gemini-cli', CLAUDE, 'is not a Gemini CLI session: this looks like a Claude Code transcript: ctx import claude-code'],
    ['claude-code', CODEX, 'is not a Claude Code transcript: this looks like a Codex rollout: ctx import codex'],
    ['gemini-cli', CODEX, 'is not a Gemini CLI session: this looks like a Codex rollout: ctx import codex'],
    ['claude-code', GEMINI, 'is not a Claude Code transcript: this looks like a Gemini CLI session: ctx import gemini-cli'],
    ['codex', GEMINI, 'is not a Codex rollout: this looks like a Gemini CLI session: ctx import gemini-cli'],
  ])('import %s of another runtime’s file exits 2 naming what it looks like, and makes no store', (runtime, file, says) => {
    const store = noStore();
    const r = ctx(store, ['import', runtime, file], { env: FIXED_ENV });
    expect([r.code, r.stdout, r.stderr]).toEqual([2, '', `ctx: ${file} ${says} ${file}\n`]);
    expectNothingWritten(store);
  }, SLOW);

  it('a file no runtime writes is refused, saying why', () => {
    const dir = tempDir();
    const cases: [string, string, string][] = [
      ['foo.jsonl', '{"foo":1}\n', 'is not a Claude Code transcript (line 1 has no known type)'],
      ['words.jsonl', 'hello\n', 'is not a Claude Code transcript (line 1 is not JSON)'],
      ['list.jsonl', '[1,2]\n', 'is not a Claude Code transcript (line 1 is not a JSON object)'],
      ['two.jsonl', '{"type":"note"}\n{"type":"user","content":"hi"}\n', 'is not a Claude Code transcript (none of its 2 lines has a known type)'],
    ];
    for (const [name, text, says] of cases) {
      const file = join(dir, name);
      writeFileSync(file, text);
      const store = noStore();
      const r = ctx(store, ['import', 'claude-code', file], { env: FIXED_ENV });
      expect([r.code, r.stderr]).toEqual([2, `ctx: ${file} ${says}\n`]);
      expectNothingWritten(store);
    }
    const chat = join(dir, 'traj.json');
    writeFileSync(chat, '[\n  {"role": "user", "content": "hi"}\n]\n');
    const r = ctx(noStore(), ['import', 'gemini-cli', chat], { env: FIXED_ENV });
    expect([r.code, r.stderr]).toEqual([2, `ctx: ${chat} is not a Gemini CLI session (a JSON document of no known shape)\n`]);
    // lines of unknown types before the first known one are passed over
    const later = join(dir, 'later.jsonl');
    writeFileSync(later, `{"type":"some-future-line","x":1}\n${readFileSync(CLAUDE, 'utf8')}`);
    expect(ctx(newStore(), ['import', 'claude-code', later, '-b', 'later'], { env: FIXED_ENV })).toMatchObject({ code: 0, stderr: '' });
  }, SLOW);

  it('a directory import reports a file of another runtime and imports the rest', () => {
    const dir = tempDir();
    copyFileSync(CLAUDE, join(dir, 'a.jsonl'));
    copyFileSync(CODEX, join(dir, 'b.jsonl'));
    const store = newStore();
    const r = ctx(store, ['import', 'claude-code', dir], { env: FIXED_ENV });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`${join(dir, 'b.jsonl')}: not a Claude Code transcript: this looks like a Codex rollout: ctx import codex ${join(dir, 'b.jsonl')}\nctx: 1 of 2 files not imported\n`);
    expect(r.stdout).toMatch(new RegExp(`^${join(dir, 'a.jsonl')}\t`));
  }, SLOW);
});

describeCorpus('every corpus file is recognized as its own runtime’s', () => {
  const RUNTIMES = { 'claude-code': 'Claude Code transcript', codex: 'Codex rollout', 'gemini-cli': 'Gemini CLI session' } as const;
  const names = Object.keys(RUNTIMES) as (keyof typeof RUNTIMES)[];
  const article = (kind: string) => (/^[AEIOU]/.test(kind) ? 'an' : 'a');

  const owned = names.flatMap((own) => [...corpusFiles(own, '.jsonl'), ...corpusFiles(own, '.json')].filter((f) => readFileSync(f).length > 0 && !f.endsWith('.meta.json')).map((file) => [own, file] as const));

  it('covers each runtime', () => {
    for (const own of names) expect(owned.filter(([o]) => o === own).length).toBeGreaterThan(0);
  }, SLOW);

  it.each(owned)('%s: %s is refused by the other two, naming its own', (own, file) => {
    const store = noStore();
    for (const other of names.filter((n) => n !== own)) {
      const r = ctx(store, ['import', other, file], { env: FIXED_ENV });
      const kind = RUNTIMES[other];
      expect([r.code, r.stderr]).toEqual([2, `ctx: ${file} is not ${article(kind)} ${kind}: this looks like ${article(RUNTIMES[own])} ${RUNTIMES[own]}: ctx import ${own} ${file}\n`]);
    }
    expectNothingWritten(store);
  }, SLOW);

  it('and a file of another agent is refused by all three (a pi session is pointed to ctx import pi)', () => {
    const store = noStore();
    for (const file of readdirSync(join(CORPUS, 'other')).map((f) => join(CORPUS, 'other', f)))
      for (const runtime of names) {
        const r = ctx(store, ['import', runtime, file], { env: FIXED_ENV });
        expect([basename(file), runtime, r.code]).toEqual([basename(file), runtime, 2]);
        const pointed = /pi-session/.test(basename(file)) ? `: this looks like a pi session: ctx import pi ${file}\n$` : ' \\((line 1|none of its|a JSON document)';
        expect(r.stderr).toMatch(new RegExp(`^ctx: .* is not an? ${RUNTIMES[runtime]}${pointed}`));
      }
    expectNothingWritten(store);
  }, SLOW);
});

describe('unknown names: nothing written, the nearest suggested', () => {
  it('an unknown runtime exits 2 before a store is made', () => {
    const store = noStore();
    const r = ctx(store, ['import', 'claud-code', CLAUDE], { env: FIXED_ENV });
    expect([r.code, r.stdout, r.stderr]).toEqual([2, '', 'ctx: unknown runtime claud-code: did you mean claude-code?\n']);
    expectNothingWritten(store);
    expect(ctx(store, ['import', 'nothing-like-it', CLAUDE], { env: FIXED_ENV }).stderr).toBe("ctx: unknown runtime 'nothing-like-it' (claude-code, codex, gemini-cli, pi, opencode, copilot; or an executable ctx-runtime-nothing-like-it on PATH)\n");
    expectNothingWritten(store);
  }, SLOW);

  it('a missing file or a bad -b makes no store either', () => {
    const store = noStore();
    expect(ctx(store, ['import', 'claude-code', '/nonexistent/x.jsonl'], { env: FIXED_ENV })).toMatchObject({ code: 4, stderr: 'ctx: no such file: /nonexistent/x.jsonl\n' });
    expectNothingWritten(store);
    expect(ctx(store, ['import', 'claude-code', CLAUDE, '-b', 'a..b'], { env: FIXED_ENV })).toMatchObject({ code: 2, stderr: `ctx: bad branch name 'a..b': contains ".."\n` });
    expectNothingWritten(store);
    expect(ctx(store, ['import', 'claude-code', dirname(CLAUDE), '-b', 'x'], { env: FIXED_ENV })).toMatchObject({ code: 2, stderr: 'ctx: -b names one branch: give a file, not a directory\n' });
    expectNothingWritten(store);
  }, SLOW);

  it('a mistyped branch exits 4 naming the nearest', () => {
    const store = newStore();
    expect(ctx(store, ['import', 'claude-code', CLAUDE, '-b', 'alice/auth'], { env: FIXED_ENV }).code).toBe(0);
    expect(ctx(store, ['log', 'alice/auht'], { env: FIXED_ENV })).toMatchObject({ code: 4, stdout: '', stderr: 'ctx: unknown commit or branch alice/auht: did you mean alice/auth?\n' });
    expect(ctx(store, ['show', 'alice/auht~1'], { env: FIXED_ENV })).toMatchObject({ code: 4, stderr: 'ctx: unknown commit or branch alice/auht: did you mean alice/auth?\n' });
    expect(ctx(store, ['log', 'zebra'], { env: FIXED_ENV })).toMatchObject({ code: 4, stderr: 'ctx: unknown commit or branch: zebra\n' });
  }, SLOW);

  it('a mistyped command or option is one line, exit 2', () => {
    expect(ctx(noStore(), ['lgo'])).toMatchObject({ code: 2, stderr: "ctx: unknown command 'lgo': did you mean log?\n" });
    expect(ctx(noStore(), ['log', '--jsn'])).toMatchObject({ code: 2, stderr: "ctx: unknown option '--jsn': did you mean --json?\n" });
  }, SLOW);

  it('a mistyped action exits 2 naming the nearest, and makes no store', () => {
    const store = noStore();
    expect(ctx(store, ['hooks', 'show', 'claude-code'])).toMatchObject({ code: 2, stderr: 'ctx: unknown action show: did you mean status?\n' });
    expect(ctx(store, ['hooks', 'instal', 'claude-code'])).toMatchObject({ code: 2, stderr: 'ctx: unknown action instal: did you mean install?\n' });
    expect(ctx(store, ['remote', 'lst'])).toMatchObject({ code: 2, stderr: 'ctx: unknown action lst: did you mean list?\n' });
    expect(ctx(store, ['branch', 'dlete', 'x'])).toMatchObject({ code: 2, stderr: 'ctx: unknown action dlete: did you mean delete?\n' });
    expect(ctx(store, ['state', 'gte', 'b'])).toMatchObject({ code: 2, stderr: 'ctx: unknown action gte: did you mean get?\n' });
    expectNothingWritten(store);
  }, SLOW);
});

describe('a dead hook’s empty lock', () => {
  const ENV = { CTX_PRINCIPAL: 'hook', CTX_MACHINE: 'ci', CTX_NOW: '2026-01-02T03:04:05.678Z' };
  const lines = readFileSync(CLAUDE, 'utf8').split(/(?<=\n)/);
  const input = (transcript: string) => JSON.stringify({ session_id: 's1', transcript_path: transcript, hook_event_name: 'Stop', cwd: dirname(transcript) });

  /** A store that captured the transcript's first half; then the second half is written. */
  function captured(): { store: string; transcript: string } {
    const store = newStore();
    const transcript = join(tempDir(), 's1.jsonl');
    writeFileSync(transcript, lines.slice(0, 3).join(''));
    expect(ctx(store, ['hook', 'claude-code'], { input: input(transcript), env: ENV })).toMatchObject({ code: 0, stderr: '' });
    writeFileSync(transcript, lines.join(''));
    return { store, transcript };
  }

  /** The tip the hook writes with no lock in its way. */
  function unhindered(): string {
    const { store, transcript } = captured();
    expect(ctx(store, ['hook', 'claude-code'], { input: input(transcript), env: ENV }).code).toBe(0);
    return git(store, ['rev-parse', 'claude/s1']).trim();
  }

  /** An empty lock file, as a writer killed between creating and writing it leaves one, 5 s old. */
  function emptyLock(path: string): void {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, '');
    const t = Date.now() / 1000 - 5;
    utimesSync(path, t, t);
  }

  it.each([
    ['the branch’s ref lock', (store: string) => join(store, 'refs', 'heads', 'claude', 's1.lock')],
    ['the session’s capture lock', (store: string) => join(store, 'ctx', 'hooks', 's1.lock')],
  ])('%s is taken over: the capture lands, exit 0, nothing logged', (_, lockOf) => {
    const expected = unhindered();
    const { store, transcript } = captured();
    const before = git(store, ['rev-parse', 'claude/s1']).trim();
    emptyLock(lockOf(store));
    const r = ctx(store, ['hook', 'claude-code'], { input: input(transcript), env: ENV });
    expect([r.code, r.stdout, r.stderr]).toEqual([0, '', '']);
    expect(git(store, ['rev-parse', 'claude/s1']).trim()).toBe(expected);
    expect(expected).not.toBe(before);
    expect(existsSync(join(store, 'ctx', 'hook.log')) ? readFileSync(join(store, 'ctx', 'hook.log'), 'utf8') : '').toBe('');
    expect(existsSync(lockOf(store))).toBe(false);
  }, SLOW);

  it('a fresh empty lock (its writer may be alive) is respected: the next call catches up', () => {
    const expected = unhindered();
    const { store, transcript } = captured();
    const before = git(store, ['rev-parse', 'claude/s1']).trim();
    const lock = join(store, 'ctx', 'hooks', 's1.lock');
    writeFileSync(lock, '');
    expect(ctx(store, ['hook', 'claude-code'], { input: input(transcript), env: ENV }).code).toBe(0);
    expect(git(store, ['rev-parse', 'claude/s1']).trim()).toBe(before);
    const t = Date.now() / 1000 - 5;
    utimesSync(lock, t, t);
    expect(ctx(store, ['hook', 'claude-code'], { input: input(transcript), env: ENV }).code).toBe(0);
    expect(git(store, ['rev-parse', 'claude/s1']).trim()).toBe(expected);
  }, SLOW);
});
