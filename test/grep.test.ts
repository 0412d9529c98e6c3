// ctx grep: hits across the sessions of every runtime, each commit searched once (forks share
// history), filtered by role and time, grep's exit codes; the library's grep gives the same.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CORPUS, FIXED_ENV, FIXTURES, ctx, describeCorpus } from './helpers.js';
import { FIND_ENV, findStore } from './find-store.js';
import { openStore } from '../src/index.js';
import { grepPattern, requiredLiteral, snippet } from '../src/core/grep-match.js';

const CLAUDE = 'ctx-9fc7b5d26e76fb6e436cb31b951d0b4a4e650f65';
const FORK = 'ctx-b2775b8ea7c7cb33098862534e617b0618e2224e';
const CODEX = 'ctx-98f50cbea7aa342b0360f04f33591ddd04b8d57a';
const GEMINI = 'ctx-df9f268860aa85a287f40e698f43155956283836';

const lines = (s: string) => s.trimEnd().split('\n').map((l) => JSON.parse(l));

describe('ctx grep', () => {
  let dir: string;
  let store: string;
  const grep = (args: string[], env: Record<string, string> = FIND_ENV) => ctx(store, ['grep', ...args], { env });
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'ctx-grep-'));
    store = findStore(dir);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('finds a phrase in every runtime, each commit once although a fork shares it', () => {
    const r = grep(['-i', 'token refresh', '--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(lines(r.stdout)).toEqual([
      { v: 1, commit: CLAUDE, branch: 'alice/auth', entry: 0, role: 'user', at: '2026-11-20T09:01:00.000Z', snippet: 'Fix the token refresh in src/auth.ts: it never retries. It fa…' },
      { v: 1, commit: CLAUDE, branch: 'alice/auth', entry: 13, role: 'assistant', at: '2026-11-20T09:01:14.000Z', snippet: 'Token refresh now retries once after a 401.' },
      { v: 1, commit: FORK, branch: 'alice/auth-fork', entry: 0, role: 'user', at: null, snippet: 'Also make the token refresh jitter its retries' },
      { v: 1, commit: CODEX, branch: 'alice/rename', entry: 1, role: 'user', at: '2026-11-20T10:00:01.001Z', snippet: 'Rename the token refresh helper to renewToken.' },
      { v: 1, commit: GEMINI, branch: 'bob/log', entry: 0, role: 'user', at: '2026-11-20T11:00:01.000Z', snippet: 'Make the token refresh log each retry' },
      { v: 1, commit: GEMINI, branch: 'bob/log', entry: 9, role: 'assistant', at: '2026-11-20T11:00:06.000Z', snippet: 'Each token refresh retry is now logged.' },
    ]);
    // case matters without -i; a fork named alone shows the shared history as its own
    expect(grep(['Token refresh']).stdout).toBe(`${CLAUDE.slice(0, 16)}\talice/auth\t13\tassistant\t2026-11-20T09:01:14.000Z\tToken refresh now retries once after a 401.\n`);
    expect(grep(['-i', 'token refresh', 'alice/auth-fork']).stdout.split('\n').map((l) => l.split('\t').slice(0, 3).join(' '))).toEqual([
      `${FORK.slice(0, 16)} alice/auth-fork 0`,
      `${CLAUDE.slice(0, 16)} alice/auth-fork 0`,
      `${CLAUDE.slice(0, 16)} alice/auth-fork 13`,
      '',
    ]);
  });

  it('searches tool calls and their results as role tool, and only them with --role tool', () => {
    const r = grep(['retryOnce', '--role', 'tool', '--json']);
    expect(r.code).toBe(0);
    expect(lines(r.stdout)).toEqual([
      { v: 1, commit: CLAUDE, branch: 'alice/auth', entry: 3, role: 'tool', at: '2026-11-20T09:01:04.000Z', snippet: '…src/auth.ts return fetchToken(); return retryOnce(fetchToken);' },
      { v: 1, commit: CLAUDE, branch: 'alice/auth', entry: 5, role: 'tool', at: '2026-11-20T09:01:06.000Z', snippet: '…ome/alice/app/src/retry.ts export const retryOnce = (f) => f().catch(() => f());' },
      { v: 1, commit: CODEX, branch: 'alice/rename', entry: 7, role: 'tool', at: '2026-11-20T10:00:04.100Z', snippet: '…async function renewToken() { return retryOnce(fetchToken); }' },
    ]);
    // Codex's apply_patch input and its JSON-wrapped shell output are searched as text
    expect(lines(grep(['renewToken', '--role', 'tool', '--json']).stdout).map((h) => [h.commit, h.entry])).toEqual([
      [CODEX, 4],
      [CODEX, 7],
      [GEMINI, 2],
    ]);
    // a JSON-wrapped result ({"output": …, "metadata": …}) is read as its values, not its keys
    expect(lines(grep(['export async function refreshToken', '--role', 'tool', '--json']).stdout).map((h) => [h.commit, h.entry, h.snippet])).toEqual([
      [CLAUDE, 2, 'export async function refreshToken() { return fetchToken(); }'],
      [CODEX, 3, 'src/auth.ts:1:export async function refreshToken() { 0 0.1'],
      [CODEX, 4, '…Patch *** Update File: src/auth.ts @@ -export async function refreshToken() { +export async function renewToken()…'],
    ]);
    expect(grep(['exit_code', '--role', 'tool'])).toMatchObject({ code: 1, stdout: '' });
    expect(grep(['never retries', '--role', 'assistant'])).toMatchObject({ code: 1, stdout: '', stderr: 'ctx: no match in role assistant\n' });
  });

  it('keeps entries since --since, by their own time, else by their commit time', () => {
    const since = grep(['retr', '--since', '2026-11-20T10:30:00Z']);
    // the fork's untimed entry goes by its commit's created_at (CTX_NOW)
    expect(since.stdout.split('\n').map((l) => l.split('\t').slice(1, 3).join(' '))).toEqual(['alice/auth-fork 0', 'bob/log 0', 'bob/log 3', 'bob/log 5', 'bob/log 9', '']);
    expect(grep(['jitter', '--since', '1h']).stdout).toContain(FORK.slice(0, 16));
    expect(grep(['jitter', '--since', '2026-11-21T00:00:01Z']).code).toBe(1);
  });

  it('exits 1 when nothing matches, 2 on a bad pattern or role, with one line on stderr', () => {
    expect(grep(['no such words anywhere'])).toMatchObject({ code: 1, stdout: '', stderr: 'ctx: no match\n' });
    expect(grep(['(unclosed'])).toMatchObject({ code: 2, stdout: '', stderr: 'ctx: grep: bad regular expression: missing closing ): `(unclosed`\n' });
    expect(grep(['x', '--role', 'robot'])).toMatchObject({ code: 2, stdout: '' });
    expect(grep(['x', '--role', 'robot']).stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(grep(['x', '--since', 'yesterday'])).toMatchObject({ code: 2, stderr: "ctx: --since: not a duration or a time: 'yesterday' (e.g. 24h, 7d, 2026-11-20T14:03:00Z, all)\n" });
    expect(grep(['x', 'no/such-branch'])).toMatchObject({ code: 4, stderr: 'ctx: unknown commit or branch: no/such-branch\n' });
    expect(grep(['x', '--all', 'bob/log'])).toMatchObject({ code: 2, stdout: '', stderr: 'ctx: --all searches every branch: name no branches with it\n' });
  });

  it('takes -F for plain strings and finds text stored escaped (quotes, newlines)', () => {
    expect(grep(['-F', 'f().catch(() => f())', '--json']).stdout).toContain('"entry":5');
    expect(grep(['f().catch(() => f())']).code).toBe(1);
    // "Hello" is stored as \"Hello\" in JSON: the prefilter looks for the letters only
    expect(lines(grep(['{ console.log\\(.retry.\\); }', '--json']).stdout).map((h) => [h.branch, h.entry])).toEqual([['bob/log', 3]]);
    expect(lines(grep(['retries\\.\\nIt fails', '--json']).stdout).map((h) => [h.commit, h.entry])).toEqual([[CLAUDE, 0]]);
  });

  it('reads remote-tracking branches with --all only', () => {
    const o = findStore(mkdtempSync(join(dir, 'other-')));
    expect(ctx(o, ['checkpoint', '-b', 'carol/x', '--format', 'claude-code-v1', '-'], { input: '{"type":"user","message":{"role":"user","content":"a wombat tangent"}}\n', env: FIND_ENV }).code).toBe(0);
    const tip = ctx(o, ['log', 'carol/x', '-n', '1', '--format', '%H'], { env: FIND_ENV }).stdout.trim();
    // the commit as a fetch leaves it: objects here, only a remote-tracking ref names it
    execFileSync('git', ['--git-dir', store, 'fetch', '-q', o, `refs/heads/carol/x:refs/remotes/origin/carol/x`]);
    expect(grep(['wombat'])).toMatchObject({ code: 1, stdout: '' });
    expect(lines(grep(['wombat', '--all', '--json']).stdout)).toEqual([{ v: 1, commit: tip, branch: 'origin/carol/x', entry: 0, role: 'user', at: null, snippet: 'a wombat tangent' }]);
    execFileSync('git', ['--git-dir', store, 'update-ref', '-d', 'refs/remotes/origin/carol/x']);
  });

  it('reads the same hits with isomorphic-git, without a git binary', () => {
    const want = grep(['-i', 'retr', '--json']).stdout;
    expect(want.split('\n').length).toBeGreaterThan(10);
    expect(grep(['-i', 'retr', '--json'], { ...FIND_ENV, CTX_ENGINE: 'isogit', PATH: '/nonexistent' }).stdout).toBe(want);
  });

  it('highlights the match in colour and prints -n hits at most', () => {
    const r = grep(['-n', '2', 'retr']);
    expect(r.stdout.trimEnd().split('\n')).toHaveLength(2);
    expect(grep(['-n', '1', 'retr', '--color', 'always']).stdout).toBe(
      `\x1b[33m${CLAUDE.slice(0, 16)}\x1b[39m\talice/auth\t0\tuser\t2026-11-20T09:01:00.000Z\t…token refresh in src/auth.ts: it never \x1b[1m\x1b[31mretr\x1b[39m\x1b[22mies. It fails on the first 401.\n`,
    );
    expect(grep(['-n', 'x', 'retr'])).toMatchObject({ code: 2, stderr: "ctx: -n takes a whole number, not 'x'\n" });
  });

  it('is the library grep, an async iterable of the same hits', async () => {
    const s = await openStore(store, { env: FIND_ENV });
    try {
      const hits = [];
      for await (const h of s.grep({ pattern: 'token refresh', ignoreCase: true, branches: ['bob/log'], limit: 1 })) hits.push(h);
      expect(hits).toEqual([{ commit: GEMINI, branch: 'bob/log', entry: 0, role: 'user', snippet: 'Make the token refresh log each retry', at: '2026-11-20T11:00:01.000Z' }]);
      // the entry numbers the commit's own messages
      const messages = (await s.commitMessages(CLAUDE))!;
      expect(messages[13]).toEqual({ role: 'assistant', content: [{ type: 'text', text: 'Token refresh now retries once after a 401.' }], timestamp: '2026-11-20T09:01:14.000Z', ids: { uuid: '00000000-0000-4000-8000-000000000018', message_id: 'msg_a7' } });
      expect(messages[3].content[0]).toMatchObject({ type: 'tool_call', name: 'Edit' });
    } finally {
      await s.close();
    }
  });
});

describe('ctx grep over whole-context commits', () => {
  it('reports a message of a chat saved whole at each save once, and skips ctx snapshot copies', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ctx-grep-whole-'));
    try {
      const store = join(dir, '.ctx');
      const run = (args: string[]) => ctx(store, args, { env: FIND_ENV });
      run(['init', store]);
      // an older Gemini CLI chat file, imported at two saves: each commit holds the whole chat
      const chat = join(dir, 'session-2026-11-20T12-00-dddd4444.json');
      for (const save of ['gemini-chat-save1.json', 'gemini-chat-save2.json']) {
        copyFileSync(join(FIXTURES, 'find', save), chat);
        expect(run(['import', 'gemini-cli', chat, '-b', 'g']).code).toBe(0);
      }
      const ids = run(['log', 'g', '--format', '%H %(type) %(messages)']).stdout.trimEnd().split('\n');
      expect(ids.map((l) => l.split(' ').slice(1).join(' '))).toEqual(['snapshot 4', 'snapshot 2']);
      const hits = () => lines(run(['grep', '-i', 'token refresh', 'g', '--json']).stdout).map((h) => [h.commit, h.entry, h.snippet]);
      const want = [
        [ids[0].split(' ')[0], 2, 'Make the token refresh retry'],
        [ids[1].split(' ')[0], 0, 'Where is the token refresh done?'],
      ];
      expect(hits()).toEqual(want);
      // a snapshot commit (a copy of the chain's context) adds no hit
      expect(run(['import', 'codex', join(FIXTURES, 'find', 'rollout-2026-11-20T10-00-00-0b1c2d3e-4f5a-7b6c-8d9e-0f1a2b3c4d5e.jsonl'), '-b', 'c']).code).toBe(0);
      const before = lines(run(['grep', 'renewToken', '--json']).stdout);
      expect(run(['snapshot', 'c']).code).toBe(0);
      expect(run(['log', 'c', '-n', '1', '--format', '%(type)']).stdout).toBe('snapshot\n');
      expect(lines(run(['grep', 'renewToken', '--json']).stdout)).toEqual(before);
      expect(hits()).toEqual(want);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('grep internals', () => {
  it('requires a literal only where every match holds it as stored', () => {
    expect(requiredLiteral('token refresh')).toBe('token refresh');
    expect(requiredLiteral('src/auth\\.ts')).toBe('src/auth.ts');
    expect(requiredLiteral('refresh.*token')).toBe('refresh');
    expect(requiredLiteral('tokens? refresh')).toBe(' refresh');
    expect(requiredLiteral('ab{2}cde')).toBe('cde');
    expect(requiredLiteral('retr[iy]es')).toBe('retr');
    expect(requiredLiteral('a+bcd')).toBe('bcd');
    expect(requiredLiteral('token|refresh')).toBe(null);
    expect(requiredLiteral('(token) refresh')).toBe(null);
    expect(requiredLiteral('\\x41BCDEF')).toBe(null);
    expect(requiredLiteral('say "Hello"', true)).toBe('Hello');
    expect(requiredLiteral('a\nbc', true)).toBe(null);
  });

  it('cuts a snippet around the match on one line', () => {
    const text = `${'a'.repeat(50)}\nneedle\n${'b'.repeat(50)}`;
    expect(snippet(text, 51, 57)).toBe(`…${'a'.repeat(39)} needle ${'b'.repeat(39)}…`);
    expect(snippet('short needle', 6, 12)).toBe('short needle');
    expect(snippet('red \x1b[31mneedle\x1b[0m\x9b2J', 4, 14)).toBe('red \ufffd[31mneedle\ufffd[0m\ufffd2J');
    expect(() => grepPattern({ pattern: '' })).toThrow('grep: the pattern is empty');
  });
});

describeCorpus('ctx grep on a corpus session', () => {
  it('finds a Gemini CLI chat by its words, in every role', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ctx-grep-corpus-'));
    try {
      const store = join(dir, '.ctx');
      ctx(store, ['init', store], { env: FIXED_ENV });
      expect(ctx(store, ['import', 'gemini-cli', join(CORPUS, 'gemini-cli', 'jnarowski__agentcmd__session-2025-10-29T10-36-453aa339.json'), '-b', 'g'], { env: FIXED_ENV }).code).toBe(0);
      const r = ctx(store, ['grep', 'Goodbye', '--json'], { env: FIXED_ENV });
      expect(r.code).toBe(0);
      expect(lines(r.stdout).map((h) => [h.commit.slice(0, 16), h.entry, h.role, h.snippet])).toEqual([
        ['ctx-60838fcd3ea9', 0, 'user', "Change 'Hello' to 'Goodbye' in /tmp/gemini-test/created.txt"],
        ['ctx-60838fcd3ea9', 1, 'assistant', "…he `replace` tool to swap 'Hello' with 'Goodbye', effectively completing the file modif…"],
        ['ctx-60838fcd3ea9', 3, 'assistant', '…place` tool, substituting "Hello" with "Goodbye" as the instructions dictate. I am conf…'],
        ['ctx-60838fcd3ea9', 5, 'assistant', '…e I just finished swapping "Hello" for "Goodbye" in that test file. Time to confirm the…'],
        ['ctx-60838fcd3ea9', 6, 'tool', 'Goodbye from Gemini CLI'],
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
