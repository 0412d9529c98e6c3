// `ctx serve` between code and contexts over HTTP: a code commit with its diff and the contexts that
// made it, the code commits a context led to, a file's blame, the code repository it reads (where
// it starts, or --code), and every parameter checked before git or the store sees it.
import { existsSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ctx, tempDir } from './helpers.js';
import { FIXED, raw, startServe, type Served } from './serve-kit.js';
import { codeGit, commitFiles, newCodeRepo } from './why-kit.js';
import { AUTH, BY_HAND, PROMPT, SESSION, THINKING, linkedWorld } from './serve-links-kit.js';

const running: Served[] = [];
afterEach(async () => {
  while (running.length) await running.pop()!.stop();
});
async function serve(store: string, args: string[] = [], cwd?: string): Promise<Served> {
  const s = await startServe(store, args, FIXED, cwd);
  running.push(s);
  return s;
}
const get = async (url: string) => {
  const res = await fetch(url);
  return { status: res.status, type: res.headers.get('content-type'), body: await res.text() };
};
const records = (body: string) => body.trim().split('\n').map((l) => JSON.parse(l));

describe('ctx serve: code commits and contexts', () => {
  it('/api/code: the commit, its diff in files and hunks, and the context that made it', async () => {
    const w = await linkedWorld();
    const s = await serve(w.store, ['--code', w.code]);
    const r = await get(`${s.url}api/code?sha=${w.agentCommit.slice(0, 10).toUpperCase()}`);
    expect([r.status, r.type]).toEqual([200, 'application/x-ndjson; charset=utf-8']);
    const [commit, ...contexts] = records(r.body);
    expect(commit).toEqual({
      v: 1,
      sha: w.agentCommit,
      parents: [commit.parents[0]],
      author: 'Alice',
      author_email: 'alice@example.com',
      authored_at: '2026-01-03T10:00:00+00:00',
      committer: 'Alice',
      committer_email: 'alice@example.com',
      committed_at: '2026-01-03T10:00:00+00:00',
      message: `Retry the token refresh once\n\nCtx-Context: ctx-${w.context}`,
      files: [
        {
          path: 'src/auth.ts',
          old_path: null,
          status: 'added',
          binary: false,
          hunks: [
            {
              header: '@@ -0,0 +1,3 @@',
              lines: AUTH.trimEnd().split('\n').map((text, i) => ({ op: '+', old: null, new: i + 1, text })),
            },
          ],
          cut: false,
        },
      ],
    });
    expect(commit.parents[0]).toMatch(/^[0-9a-f]{40}$/);
    const at = (s: number) => `2026-01-02T09:00:0${s}.000Z`;
    expect(contexts).toEqual([
      {
        v: 1,
        code: w.agentCommit,
        context: `ctx-${w.context}`,
        known: 'recorded',
        in_store: true,
        via: w.agentCommit,
        record: { how: 'recorded', at: FIXED.CTX_NOW, by: 'alice' },
        session: SESSION,
        branch: 'alice/auth',
        runtime: 'claude-code',
        model: 'claude-opus-4-5',
        principal: 'alice',
        author: null,
        files: ['src/auth.ts'],
        lines: 0,
        since: null,
        total: 4,
        entries: [
          { commit: `ctx-${w.context}`, entry: 0, kind: 'prompt', text: PROMPT, at: at(1) },
          { commit: `ctx-${w.context}`, entry: 1, kind: 'reasoning', text: THINKING, at: at(2) },
          { commit: `ctx-${w.context}`, entry: 1, kind: 'text', text: 'Done.', at: at(2) },
          { commit: `ctx-${w.context}`, entry: 1, kind: 'tool', text: join(w.code, 'src/auth.ts'), tool: 'Write', paths: ['src/auth.ts'], at: at(2) },
        ],
      },
    ]);
    // the contexts are ctx why's records, byte for byte
    const cli = ctx(w.store, ['why', w.agentCommit, '--json'], { env: FIXED, cwd: w.code });
    expect(cli.code, cli.stderr).toBe(0);
    expect(r.body.slice(r.body.indexOf('\n') + 1)).toBe(cli.stdout);

    // the person's commit: one line added to the file, no context
    const human = records((await get(`${s.url}api/code?sha=${w.humanCommit.slice(0, 4)}`)).body);
    expect(human.length).toBe(1);
    expect(human[0].files).toEqual([
      {
        path: 'src/auth.ts',
        old_path: null,
        status: 'modified',
        binary: false,
        hunks: [
          {
            header: '@@ -1,3 +1,4 @@',
            lines: [
              ...AUTH.trimEnd().split('\n').map((text, i) => ({ op: ' ', old: i + 1, new: i + 1, text })),
              { op: '+', old: null, new: 4, text: BY_HAND.trimEnd() },
            ],
          },
        ],
        cut: false,
      },
    ]);
  });

  it("the code commits a context led to are its show record's links; its page and the code pages are there, an unknown code commit is a 404", async () => {
    const w = await linkedWorld();
    const s = await serve(w.store, ['--code', w.code]);
    const [shown] = records((await get(`${s.url}api/show?id=alice/auth`)).body);
    expect(shown.links).toEqual([{ code: w.agentCommit, how: 'recorded', files: ['src/auth.ts'], at: FIXED.CTX_NOW, by: 'alice' }]);
    for (const path of [`/code/${w.agentCommit}`, `/code/${w.humanCommit.slice(0, 7)}`, '/blame?file=src/auth.ts']) {
      const page = await raw(s.url, path);
      expect([path, page.status, page.headers['content-type']]).toEqual([path, 200, 'text/html; charset=utf-8']);
    }
    expect((await raw(s.url, `/code/${'ab'.repeat(20)}`)).status).toBe(404);
    expect((await raw(s.url, '/code/xyz1')).status).toBe(404);
  });

  it("/api/blame: each line with its code commit and the context that wrote it, or human; ctx blame's records", async () => {
    const w = await linkedWorld();
    const s = await serve(w.store, ['--code', w.code]);
    const r = await get(`${s.url}api/blame?file=src/auth.ts`);
    expect([r.status, r.type]).toEqual([200, 'application/x-ndjson; charset=utf-8']);
    const base = { v: 1, path: 'src/auth.ts', author: 'Alice', author_mail: '<alice@example.com>', author_time: '2026-01-03T10:00:00.000Z' };
    const agent = { how: 'linked', entry: 1, tool: 'Write', tool_path: join(w.code, 'src/auth.ts'), branch: 'alice/auth', session: SESSION, prompt: PROMPT };
    expect(records(r.body)).toEqual([
      ...AUTH.trimEnd().split('\n').map((text, i) => ({ ...base, line: i + 1, code: w.agentCommit, original_line: i + 1, context: `ctx-${w.context}`, ...agent, text })),
      { ...base, line: 4, code: w.humanCommit, original_line: 4, context: null, how: 'human', entry: null, tool: null, tool_path: null, branch: null, session: null, prompt: null, text: BY_HAND.trimEnd() },
    ]);
    const cli = ctx(w.store, ['blame', 'src/auth.ts', '--json'], { env: FIXED, cwd: w.code });
    expect([cli.code, cli.stderr]).toEqual([0, '']);
    expect(r.body).toBe(cli.stdout);
    // a range of lines, as ctx blame FILE:LINE,END
    const some = await get(`${s.url}api/blame?file=src/auth.ts&lines=2,4`);
    const cliSome = ctx(w.store, ['blame', 'src/auth.ts:2,4', '--json'], { env: FIXED, cwd: w.code });
    expect(records(some.body).map((l) => l.line)).toEqual([2, 3, 4]);
    expect(some.body).toBe(cliSome.stdout);
    const missing = await get(`${s.url}api/blame?file=src/nope.ts`);
    expect([missing.status, JSON.parse(missing.body)]).toEqual([404, { v: 1, error: 'NotFoundError', message: 'blame: src/nope.ts is not tracked at HEAD', exit: 4 }]);
  });

  it('blames no file through a symbolic link: one to another repository is refused before git runs', async () => {
    const w = await linkedWorld();
    const other = newCodeRepo(join(tempDir(), 'other'));
    symlinkSync(other, join(w.code, 'elsewhere'));
    const s = await serve(w.store, ['--code', w.code]);
    const r = await raw(s.url, '/api/blame?file=elsewhere/README.md');
    expect([r.status, JSON.parse(r.body)]).toEqual([400, { v: 1, error: 'UsageError', message: 'file takes a path inside the work tree, and elsewhere is a symbolic link: give the path it leads to', exit: 2 }]);
  });

  it("a diff as git stores it whatever the code repository's config says: renames, quoted names, binary files, blank lines; its programs never run", async () => {
    const w = await linkedWorld();
    const marker = join(tempDir(), 'ran');
    const program = join(tempDir(), 'prog.sh');
    writeFileSync(program, `#!/bin/sh\ntouch ${marker}\nexit 1\n`, { mode: 0o755 });
    commitFiles(w.code, { 'd ir/sp ace.txt': 'x\n', 'blank.txt': 'a\n\nb\n' }, 'Odd names\n');
    for (const [k, v] of [['diff.noprefix', 'true'], ['diff.mnemonicPrefix', 'true'], ['diff.suppressBlankEmpty', 'true'], ['core.quotePath', 'false'], ['diff.external', program], ['log.showSignature', 'true'], ['gpg.program', program], ['diff.relative', 'true'], ['color.ui', 'always']]) codeGit(w.code, ['config', k, v]);
    codeGit(w.code, ['mv', 'd ir/sp ace.txt', 'd ir/\u00e9 "q".txt']);
    writeFileSync(join(w.code, 'blank.txt'), 'a\n\nB\n');
    writeFileSync(join(w.code, 'b.bin'), Buffer.from([0, 1, 2, 0]));
    const sha = commitFiles(w.code, {}, 'Rename, binary, blank\n');
    const s = await serve(w.store, ['--code', join(w.code, 'src')]);
    const [commit] = records((await get(`${s.url}api/code?sha=${sha}`)).body);
    const file = (path: string, status: string, rest: object = {}) => ({ path, old_path: null, status, binary: false, hunks: [], cut: false, ...rest });
    expect(commit.files).toEqual([
      file('b.bin', 'added', { binary: true }),
      file('blank.txt', 'modified', {
        hunks: [
          {
            header: '@@ -1,3 +1,3 @@',
            lines: [
              { op: ' ', old: 1, new: 1, text: 'a' },
              { op: ' ', old: 2, new: 2, text: '' },
              { op: '-', old: 3, new: null, text: 'b' },
              { op: '+', old: null, new: 3, text: 'B' },
            ],
          },
        ],
      }),
      file('d ir/\u00e9 "q".txt', 'renamed', { old_path: 'd ir/sp ace.txt' }),
    ]);
    expect(commit.message).toBe('Rename, binary, blank');
    expect(existsSync(marker)).toBe(false);
  });

  it('refuses a bad sha or file with a 400 and sends nothing else', async () => {
    const w = await linkedWorld();
    const s = await serve(w.store, ['--code', w.code]);
    const usage = (message: string) => ({ status: 400, body: { v: 1, error: 'UsageError', message, exit: 2 } });
    const bad: [string, string][] = [
      ['/api/code', 'sha is missing'],
      ['/api/code?sha=', 'sha is missing'],
      ['/api/code?sha=abc', "sha takes 4 to 64 hex digits of a code commit, not 'abc'"],
      ['/api/code?sha=HEAD', "sha takes 4 to 64 hex digits of a code commit, not 'HEAD'"],
      ['/api/code?sha=--output%3D%2Ftmp%2Fx', "sha takes 4 to 64 hex digits of a code commit, not '--output=/tmp/x'"],
      [`/api/code?sha=${'a'.repeat(65)}`, `sha takes 4 to 64 hex digits of a code commit, not '${'a'.repeat(65)}'`],
      [`/api/code?sha=${w.agentCommit}&sha=${w.humanCommit}`, 'sha is given more than once'],
      ['/api/blame', 'file is missing'],
      ['/api/blame?file=../outside', "file takes a path inside the work tree (no . or .. segment, no empty one), not '../outside'"],
      ['/api/blame?file=src/../../outside', "file takes a path inside the work tree (no . or .. segment, no empty one), not 'src/../../outside'"],
      ['/api/blame?file=/etc/passwd', "file takes a path inside the work tree (relative to its top, not absolute), not '/etc/passwd'"],
      ['/api/blame?file=./src/auth.ts', "file takes a path inside the work tree (no . or .. segment, no empty one), not './src/auth.ts'"],
      ['/api/blame?file=src/', "file takes a path inside the work tree (no . or .. segment, no empty one), not 'src/'"],
      ['/api/blame?file=.git/config', "file takes a path inside the work tree (nothing under .git), not '.git/config'"],
      ['/api/blame?file=src%5Cauth.ts', "file takes a path inside the work tree (no NUL, backslash or line break), not 'src\\auth.ts'"],
      ['/api/blame?file=src%00auth.ts', "file takes a path inside the work tree (no NUL, backslash or line break), not 'src\0auth.ts'"],
      ['/api/blame?file=C:/x', "file takes a path inside the work tree (relative to its top, not absolute), not 'C:/x'"],
      ['/api/blame?file=src/auth.ts&lines=0', "lines takes LINE or LINE,END (from 1, END at least LINE), not '0'"],
      ['/api/blame?file=src/auth.ts&lines=3,2', "lines takes LINE or LINE,END (from 1, END at least LINE), not '3,2'"],
      ['/api/blame?file=src/auth.ts&lines=1-3', "lines takes LINE or LINE,END (from 1, END at least LINE), not '1-3'"],
      ['/api/blame?file=src/auth.ts&lines=1&lines=2', 'lines is given more than once'],
    ];
    for (const [path, message] of bad) {
      const r = await raw(s.url, path);
      expect([path, { status: r.status, body: JSON.parse(r.body) }]).toEqual([path, usage(message)]);
      expect(r.body.split('\n')).toHaveLength(2);
    }
    // an ambiguous prefix names its commits and is a 400 too; no commit is a 404
    const none = await get(`${s.url}api/code?sha=${'0'.repeat(12)}`);
    expect([none.status, JSON.parse(none.body)]).toEqual([404, { v: 1, error: 'NotFoundError', message: `no commit ${'0'.repeat(12)} in the code repository ${w.code}`, exit: 4 }]);
  });

  it('reads the work tree it starts in; --code PATH that is no work tree is refused with one line; without one the code routes say so', async () => {
    const w = await linkedWorld();
    const here = await serve(w.store, [], join(w.code, 'src'));
    expect(records((await get(`${here.url}api/code?sha=${w.humanCommit}`)).body)[0].sha).toBe(w.humanCommit);

    const plain = tempDir();
    const r = ctx(w.store, ['serve', '--port', '0', '--code', plain], { env: FIXED });
    expect([r.code, r.stdout, r.stderr]).toEqual([2, '', `ctx: --code takes a git work tree, and ${plain} is in none\n`]);
    const gone = ctx(w.store, ['serve', '--port', '0', '--code', join(plain, 'nope')], { env: FIXED });
    expect([gone.code, gone.stderr]).toEqual([2, `ctx: --code takes a git work tree, and ${join(plain, 'nope')} is in none\n`]);

    const outside = await serve(w.store, [], plain);
    const none = await get(`${outside.url}api/code?sha=${w.humanCommit}`);
    expect([none.status, JSON.parse(none.body)]).toEqual([404, { v: 1, error: 'NotFoundError', message: 'no code repository: start ctx serve in a git work tree, or give --code PATH', exit: 4 }]);
    expect((await raw(outside.url, `/code/${w.humanCommit}`)).status).toBe(404);
    // the context pages are there all the same
    expect(records((await get(`${outside.url}api/show?id=alice/auth`)).body)[0].links).toHaveLength(1);
  });
});
