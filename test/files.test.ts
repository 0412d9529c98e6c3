// ctx files: the tool calls of each runtime that read, edited, wrote or ran a command on a path,
// newest first, matched by a suffix of path components either way.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CORPUS, FIXED_ENV, ctx, describeCorpus } from './helpers.js';
import { FIND_ENV, findStore } from './find-store.js';
import { samePath } from '../src/api/search/touched.js';
import { runtime } from '../src/runtimes/registry.js';
import { openStore } from '../src/index.js';

const CLAUDE = 'ctx-9fc7b5d26e76fb6e436cb31b951d0b4a4e650f65';
const CODEX = 'ctx-98f50cbea7aa342b0360f04f33591ddd04b8d57a';
const GEMINI = 'ctx-df9f268860aa85a287f40e698f43155956283836';
const S = { claude: '7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f', codex: '0b1c2d3e-4f5a-7b6c-8d9e-0f1a2b3c4d5e', gemini: 'cccc9999-2222-4333-8444-555566667777' };
const ABS = '/home/alice/app/src/auth.ts';

describe('ctx files', () => {
  let dir: string;
  let store: string;
  const files = (args: string[]) => ctx(store, ['files', ...args], { env: FIND_ENV });
  const records = (args: string[]) => files([...args, '--json']).stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'ctx-files-'));
    store = findStore(dir);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("lists every runtime's reads, edits, writes and commands on a path, newest first, a shared commit once", () => {
    const r = files(['src/auth.ts', '--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const rec = (path: string, action: string, tool: string, commit: string, branch: string, session: string, entry: number, at: string) => ({ v: 1, path, action, tool, commit, branch, session, entry, at });
    expect(r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l))).toEqual([
      rec('src/auth.ts', 'run', 'run_shell_command', GEMINI, 'bob/log', S.gemini, 7, '2026-11-20T11:00:05.000Z'),
      rec(ABS, 'edit', 'replace', GEMINI, 'bob/log', S.gemini, 3, '2026-11-20T11:00:03.000Z'),
      rec(ABS, 'read', 'read_file', GEMINI, 'bob/log', S.gemini, 1, '2026-11-20T11:00:02.000Z'),
      rec('src/auth.ts', 'run', 'exec_command', CODEX, 'alice/rename', S.codex, 6, '2026-11-20T10:00:04.000Z'),
      rec('src/auth.ts', 'edit', 'apply_patch', CODEX, 'alice/rename', S.codex, 4, '2026-11-20T10:00:03.000Z'),
      rec('src/auth.ts', 'run', 'shell', CODEX, 'alice/rename', S.codex, 2, '2026-11-20T10:00:02.000Z'),
      rec('src/auth.ts', 'run', 'Bash', CLAUDE, 'alice/auth', S.claude, 11, '2026-11-20T09:01:12.000Z'),
      rec('src/auth.ts', 'edit', 'MultiEdit', CLAUDE, 'alice/auth', S.claude, 7, '2026-11-20T09:01:08.000Z'),
      rec(ABS, 'edit', 'Edit', CLAUDE, 'alice/auth', S.claude, 3, '2026-11-20T09:01:04.000Z'),
      rec(ABS, 'read', 'Read', CLAUDE, 'alice/auth', S.claude, 1, '2026-11-20T09:01:01.000Z'),
    ]);
    // the absolute path finds the relative ones, and the other way round
    expect(files([ABS]).stdout).toBe(files(['src/auth.ts']).stdout);
    expect(files(['./app/src/auth.ts']).stdout).toBe(files(['src/auth.ts']).stdout);
    // a path elsewhere matches only what was named relative to somewhere unknown
    expect(records(['/srv/other/src/auth.ts']).map((t) => t.tool)).toEqual(['run_shell_command', 'exec_command', 'apply_patch', 'shell', 'Bash', 'MultiEdit']);
    expect(files(['src/auth.ts']).stdout.split('\n')[0]).toBe(`2026-11-20T11:00:05.000Z\trun\trun_shell_command\tctx-df9f268860aa\tbob/log\t${S.gemini}\t7\tsrc/auth.ts`);
  });

  it('names files written and notebooks edited by each runtime', () => {
    const one = (path: string) => records([path]).map((t) => [t.action, t.tool, t.commit, t.entry, t.path]);
    expect(one('retry.ts')).toEqual([['write', 'Write', CLAUDE, 5, '/home/alice/app/src/retry.ts']]);
    expect(one('notes/auth.ipynb')).toEqual([['edit', 'NotebookEdit', CLAUDE, 9, '/home/alice/app/notes/auth.ipynb']]);
    expect(one('src/renew.test.ts')).toEqual([['write', 'apply_patch', CODEX, 4, 'src/renew.test.ts']]);
    expect(one('docs/retry.md')).toEqual([['write', 'write_file', GEMINI, 5, '/home/alice/app/docs/retry.md']]);
    expect(one('test/auth.test.ts')).toEqual([['run', 'Bash', CLAUDE, 11, 'test/auth.test.ts']]);
  });

  it('reads only the branches given, and exits 1 when no tool call touched the path', () => {
    expect(records(['src/auth.ts', 'alice/rename']).map((t) => t.tool)).toEqual(['exec_command', 'apply_patch', 'shell']);
    expect(files(['src/nothing.ts'])).toMatchObject({ code: 1, stdout: '', stderr: 'ctx: no tool call touched that path\n' });
    expect(files(['/'])).toMatchObject({ code: 2, stdout: '', stderr: "ctx: files: not a path: '/'\n" });
  });

  it('is the library filesTouched', async () => {
    const s = await openStore(store, { env: FIND_ENV });
    try {
      const t = await s.filesTouched('auth.ipynb');
      expect(t).toEqual([{ path: '/home/alice/app/notes/auth.ipynb', commit: CLAUDE, branch: 'alice/auth', session: S.claude, entry: 9, tool: 'NotebookEdit', action: 'edit', at: '2026-11-20T09:01:10.000Z' }]);
    } finally {
      await s.close();
    }
  });
});

describe('tool call shapes', () => {
  it("asks each runtime what its tool calls did: the file, how, and the lines written and taken out", async () => {
    const claude = (await runtime('claude-code')).tools!;
    const codex = (await runtime('codex')).tools!;
    const gemini = (await runtime('gemini-cli')).tools!;
    expect(claude.effects({ name: 'Read', input: { file_path: '/a/b.ts' } })).toEqual([{ path: '/a/b.ts', action: 'read' }]);
    expect(claude.effects({ name: 'Write', input: { file_path: '/a/n.ts', content: 'one\r\ntwo\n' } })).toEqual([{ path: '/a/n.ts', action: 'write', added: ['one', 'two'] }]);
    expect(claude.effects({ name: 'Edit', input: { file_path: 'a.ts', old_string: 'x = 1', new_string: 'x = 2\ny = 3' } })).toEqual([{ path: 'a.ts', action: 'edit', added: ['x = 2', 'y = 3'], removed: ['x = 1'] }]);
    expect(claude.effects({ name: 'MultiEdit', input: { file_path: 'a.ts', edits: [{ old_string: 'a', new_string: 'b' }, { old_string: 'c', new_string: 'd' }] } })).toEqual([{ path: 'a.ts', action: 'edit', added: ['b', 'd'], removed: ['a', 'c'] }]);
    expect(claude.effects({ name: 'TodoWrite', input: { todos: [] } })).toEqual([]);
    // a tool of another runtime is not Claude Code's to read
    expect(claude.effects({ name: 'write_file', input: { file_path: 'x.md', content: 'x' } })).toEqual([]);
    expect(gemini.effects({ name: 'read_many_files', input: { paths: ['a.ts', 'b/c.ts'] } })).toEqual([
      { path: 'a.ts', action: 'read' },
      { path: 'b/c.ts', action: 'read' },
    ]);
    expect(gemini.effects({ name: 'write_file', input: { file_path: 'x.md', content: 'x' } })).toEqual([{ path: 'x.md', action: 'write', added: ['x'] }]);
    expect(gemini.effects({ name: 'replace', input: { file_path: 'x.md', old_string: 'a', new_string: 'b' } })).toEqual([{ path: 'x.md', action: 'edit', added: ['b'], removed: ['a'] }]);
    // Codex: argv of a shell, a local shell action, and apply_patch through a shell heredoc
    expect(codex.effects({ name: 'shell', input: { command: ['bash', '-lc', "sed -n '1,20p' src/a.ts > out.txt"] } })).toEqual([
      { path: 'bash', action: 'run' },
      { path: 'sed', action: 'run' },
      { path: '1,20p', action: 'run' },
      { path: 'src/a.ts', action: 'run' },
      { path: 'out.txt', action: 'run' },
    ]);
    expect(codex.effects({ name: 'local_shell', input: { type: 'exec', command: ['cat', 'README.md'] } })).toEqual([
      { path: 'cat', action: 'run' },
      { path: 'README.md', action: 'run' },
    ]);
    expect(codex.effects({ name: 'shell', input: { command: ['bash', '-lc', "apply_patch <<'PATCH'\n*** Begin Patch\n*** Delete File: old.ts\n*** Update File: a.ts\n@@\n-let a = 1;\n+let a = 2;\n context\n*** Move to: b.ts\n*** End Patch\nPATCH"] } })).toEqual([
      { path: 'old.ts', action: 'edit' },
      { path: 'a.ts', action: 'edit', added: ['let a = 2;'], removed: ['let a = 1;'] },
      { path: 'b.ts', action: 'write' },
    ]);
    expect(codex.effects({ name: 'apply_patch', input: { input: '*** Begin Patch\n*** Add File: n.ts\n+x\n*** End Patch' } })).toEqual([{ path: 'n.ts', action: 'write', added: ['x'] }]);
    expect(codex.effects({ name: 'apply_patch', input: '*** Begin Patch\n*** Add File: m.ts\n+y\n*** End Patch' })).toEqual([{ path: 'm.ts', action: 'write', added: ['y'] }]);
  });

  it('matches paths by a suffix of components', () => {
    const q = ['src', 'auth.ts'];
    expect(samePath(q, '/home/a/src/auth.ts')).toBe(true);
    expect(samePath(q, './src/auth.ts')).toBe(true);
    expect(samePath(q, 'auth.ts')).toBe(true);
    expect(samePath(q, 'lib/auth.ts')).toBe(false);
    expect(samePath(q, 'src/auth.tsx')).toBe(false);
    expect(samePath(q, 'xsrc/auth.ts')).toBe(false);
    expect(samePath(q, '/')).toBe(false);
  });
});

describeCorpus('ctx files on a corpus session', () => {
  it('finds the Codex shell commands and patches on a file of a real rollout', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ctx-files-corpus-'));
    try {
      const store = join(dir, '.ctx');
      ctx(store, ['init', store], { env: FIXED_ENV });
      const file = join(CORPUS, 'codex', 'AcidicSoil__codex-session-view__rollout-2025-11-17T15-30-28-019a93b9-f380-7600-98ff-940e6b99603c.jsonl');
      expect(ctx(store, ['import', 'codex', file, '-b', 'c'], { env: FIXED_ENV }).code).toBe(0);
      const r = ctx(store, ['files', 'chat-helpers/index.ts'], { env: FIXED_ENV });
      expect(r.code).toBe(0);
      expect(r.stdout.trimEnd().split('\n').map((l) => l.split('\t').filter((_, i) => [1, 2, 6, 7].includes(i)).join(' '))).toEqual([
        'edit shell 78 components/chat/chat-helpers/index.ts',
        'edit shell 76 components/chat/chat-helpers/index.ts',
        'run shell 10 components/chat/chat-helpers/index.ts',
        'run shell 8 components/chat/chat-helpers/index.ts',
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
