// The search index (src/api/search/search-index.ts): grep and files answer from it exactly what they
// answer reading every commit (CTX_NO_INDEX=1), it follows every write, import, fetch, deleted and
// forced ref, and a damaged, lying or linked index never shows text that is not in the store.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ctx, FIXTURES, ROOT } from './helpers.js';
import { FIND_ENV, findStore } from './find-store.js';

const CLAUDE = 'ctx-9fc7b5d26e76fb6e436cb31b951d0b4a4e650f65';

describe('the search index', { timeout: 600_000 }, () => {
  let dir: string;
  let store: string;
  let index: string;
  const run = (args: string[], env: Record<string, string> = {}) => ctx(store, args, { env: { ...FIND_ENV, ...env } });
  /** The command with the index and without it: the same bytes, exit code and (empty) stderr. */
  const same = (args: string[]) => {
    const plain = run(args, { CTX_NO_INDEX: '1' });
    const indexed = run(args);
    expect({ args, ...indexed }).toEqual({ args, ...plain });
    return indexed;
  };
  const checkpoint = (branch: string, text: string) =>
    expect(ctx(store, ['checkpoint', '-b', branch, '--format', 'claude-code-v1', '-'], { env: FIND_ENV, input: `${JSON.stringify({ type: 'user', message: { role: 'user', content: text } })}\n` }).code).toBe(0);
  const tipOf = (branch: string) => execFileSync('git', ['--git-dir', store, 'rev-parse', `refs/heads/${branch}`], { encoding: 'utf8' }).trim();

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'ctx-search-index-'));
    store = findStore(dir);
    index = join(store, 'ctx', 'search', 'index.sqlite');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('answers grep and files exactly as reading every commit does, on every runtime, fork and option', () => {
    expect(existsSync(index)).toBe(false);
    const first = same(['grep', '-i', 'token refresh', '--json']);
    expect(existsSync(index)).toBe(true);
    expect(first.stdout.split('\n')).toHaveLength(7);
    for (const args of [
      ['grep', 'Token refresh'],
      ['grep', 'retryOnce', '--role', 'tool', '--json'],
      ['grep', '-i', 'refresh.*token'],
      ['grep', 'ret[a-z]+Once', '--all'],
      ['grep', '-F', 'a.b(c)'],
      ['grep', '-i', 'token refresh', 'alice/auth-fork'],
      ['grep', '-i', 'token refresh', 'bob/log', 'alice/auth'],
      ['grep', '-n', '2', 'retr'],
      ['grep', 'retr', '--since', '2026-11-20T10:00:00Z', '--json'],
      ['grep', '^Fix'],
      ['grep', 'no such words anywhere'],
      ['files', 'src/auth.ts', '--json'],
      ['files', '/home/alice/app/src/retry.ts'],
      ['files', 'auth.ts', 'alice/auth-fork'],
      ['files', 'nowhere.ts'],
    ])
      same(args);
    expect(run(['grep', 'no such words anywhere'])).toMatchObject({ code: 1, stdout: '' });
    // --no-index reads every commit too
    expect(run(['grep', '-i', 'token refresh', '--json', '--no-index']).stdout).toBe(first.stdout);
  });

  it('reads each new commit on the next search: a checkpoint, an import, a fetch', () => {
    same(['grep', 'kumquat']);
    checkpoint('alice/auth', 'a kumquat arrives');
    const hit = same(['grep', 'kumquat', '--json']);
    expect(JSON.parse(hit.stdout)).toEqual({ v: 1, commit: `ctx-${tipOf('alice/auth')}`, branch: 'alice/auth', entry: 0, role: 'user', at: null, snippet: 'a kumquat arrives' });
    expect(run(['import', 'claude-code', join(FIXTURES, 'find', 'claude-tools.jsonl'), '-b', 'carol/again']).code).toBe(0);
    expect(same(['grep', 'retryOnce', '--role', 'tool', '--json']).stdout.split('\n').length).toBeGreaterThan(3);
    same(['files', 'src/auth.ts']);
    const other = findStore(mkdtempSync(join(dir, 'other-')));
    expect(ctx(other, ['checkpoint', '-b', 'dave/x', '--format', 'claude-code-v1', '-'], { env: FIND_ENV, input: '{"type":"user","message":{"role":"user","content":"a wombat tangent"}}\n' }).code).toBe(0);
    execFileSync('git', ['--git-dir', store, 'fetch', '-q', other, 'refs/heads/dave/x:refs/remotes/origin/dave/x']);
    expect(same(['grep', 'wombat', '--all']).stdout).toMatch(/^ctx-[0-9a-f]{12}\torigin\/dave\/x\t0\tuser\t-\ta wombat tangent\n$/);
    expect(same(['grep', 'wombat'])).toMatchObject({ code: 1, stdout: '' });
  });

  it('forgets what a deleted or forced-back branch held', () => {
    checkpoint('bob/log', 'a quince on the side');
    expect(same(['grep', 'quince']).stdout).toContain('bob/log');
    execFileSync('git', ['--git-dir', store, 'update-ref', 'refs/heads/bob/log', `${tipOf('bob/log')}~1`]);
    expect(same(['grep', 'quince'])).toMatchObject({ code: 1, stdout: '' });
    execFileSync('git', ['--git-dir', store, 'update-ref', '-d', 'refs/heads/carol/again']);
    expect(same(['grep', 'retryOnce', '--role', 'tool']).stdout).not.toContain('carol/again');
  });

  it('answers from its copy of the refs while the ref files are unchanged, and sees every change to them', () => {
    const git = (...args: string[]) => execFileSync('git', ['--git-dir', store, ...args], { encoding: 'utf8' });
    const loose = (branch: string) => join(store, 'refs', 'heads', ...branch.split('/'));
    checkpoint('eve/tmp', 'a lychee in passing');
    expect(same(['grep', 'lychee', '--all']).stdout).toMatch(/^ctx-[0-9a-f]{12}\teve\/tmp\t0\tuser\t-\ta lychee in passing\n$/);
    // every ref packed: other files, the same refs
    git('pack-refs', '--all', '--prune');
    expect(existsSync(loose('eve/tmp'))).toBe(false);
    same(['grep', '-i', 'token refresh', '--all']);
    // a packed branch deleted, one moved by a new commit (a loose ref over the packed one)
    git('update-ref', '-d', 'refs/heads/eve/tmp');
    expect(same(['grep', 'lychee', '--all'])).toMatchObject({ code: 1, stdout: '' });
    const before = tipOf('alice/rename');
    checkpoint('alice/rename', 'a persimmon, then');
    expect(same(['grep', 'persimmon']).stdout).toMatch(/^ctx-[0-9a-f]{12}\talice\/rename\t0\tuser\t-\ta persimmon, then\n$/);
    // the loose ref written in place (same file, same size): seen by its times
    writeFileSync(loose('alice/rename'), `${before}\n`);
    expect(same(['grep', 'persimmon'])).toMatchObject({ code: 1, stdout: '' });
    // a local branch named as a remote-tracking one: --all searches the remote one under that name, as the walk does
    git('update-ref', 'refs/remotes/origin/zz/x', tipOf('bob/log'));
    checkpoint('origin/zz/x', 'a tamarind here');
    expect(same(['grep', 'tamarind']).stdout).toMatch(/^ctx-[0-9a-f]{12}\torigin\/zz\/x\t0\tuser\t-\ta tamarind here\n$/);
    expect(same(['grep', 'tamarind', '--all'])).toMatchObject({ code: 1, stdout: '' });
    expect(same(['grep', 'each retry', '--all']).stdout).toContain('\tbob/log\t');
    git('update-ref', '-d', 'refs/heads/origin/zz/x');
    git('update-ref', '-d', 'refs/remotes/origin/zz/x');
    // a damaged ref fails the search as it does without the index, and once repaired all is found again
    writeFileSync(join(store, 'refs', 'heads', 'zz-broken'), 'not a commit id\n');
    expect(same(['grep', '-i', 'token refresh', '--all'])).toMatchObject({ code: 5, stdout: '' });
    expect(same(['grep', '-i', 'token refresh']).code).toBe(5);
    rmSync(join(store, 'refs', 'heads', 'zz-broken'));
    expect(same(['grep', '-i', 'token refresh']).stdout).toContain('\talice/auth\t');
    // the hint beside the index lost: the index's copy of the refs is written again whole
    rmSync(join(store, 'ctx', 'search', 'tips'));
    checkpoint('eve/again', 'a lychee again');
    expect(same(['grep', 'lychee', '--all']).stdout).toMatch(/^ctx-[0-9a-f]{12}\teve\/again\t0\tuser\t-\ta lychee again\n$/);
    expect(readFileSync(join(store, 'ctx', 'search', 'tips'), 'utf8')).toContain(` refs/heads/eve/again\n`);
    same(['files', 'src/auth.ts']);
  });

  it('rebuilds a file that is not an index, with one line on stderr, and still answers', () => {
    const want = run(['grep', '-i', 'token refresh'], { CTX_NO_INDEX: '1' });
    writeFileSync(index, 'not a database, just some bytes someone left here '.repeat(200));
    expect(run(['grep', '-i', 'token refresh'])).toEqual({ ...want, stderr: 'ctx: warning: the search index could not be read (file is not a database): rebuilt\n' });
    expect(run(['grep', '-i', 'token refresh'])).toEqual(want);
  });

  it('never shows text the store does not hold, whatever the index says', () => {
    const sql = (statement: string) => execFileSync(process.execPath, ['-e', `const { Database } = require('node-sqlite3-wasm'); const db = new Database(process.argv[1]); db.exec(process.argv[2]); db.close();`, index, statement], { cwd: process.cwd() });
    run(['grep', 'kumquat']);
    // every commit claims a word none holds: each is read, and none matches
    sql("UPDATE texts SET body = body || ' zebrafish'");
    expect(run(['grep', 'zebrafish'])).toMatchObject({ code: 1, stdout: '', stderr: 'ctx: no match\n' });
    // a commit listed with a parent it does not have: the index is dropped, the search reads every commit
    const want = run(['grep', '-i', 'token refresh'], { CTX_NO_INDEX: '1' });
    sql(`UPDATE commits SET parent = NULL WHERE oid = '${CLAUDE.slice(4)}'`);
    sql(`UPDATE texts SET body = 'token refresh' WHERE rowid = (SELECT id FROM commits WHERE oid = '${CLAUDE.slice(4)}')`);
    const r = run(['grep', '-i', 'token refresh']);
    expect(r.stdout).toBe(want.stdout);
    expect(r.stderr).toBe(`ctx: warning: the search index was damaged (it lists ${CLAUDE.slice(4, 16)} with a parent the store does not give): searching without it, rebuilt next time\n`);
    expect(run(['grep', '-i', 'token refresh'])).toEqual(want);
  });

  it('refuses an index that is a symbolic link', () => {
    rmSync(index);
    symlinkSync(join(dir, 'elsewhere.sqlite'), index);
    expect(run(['grep', 'kumquat'])).toEqual({ code: 1, stdout: '', stderr: `ctx: ${index} is a symbolic link: ctx keeps no search index through it (remove it, or search with --no-index)\n`, bytes: expect.anything() });
    expect(existsSync(join(dir, 'elsewhere.sqlite'))).toBe(false);
    expect(run(['grep', 'kumquat', '--no-index']).code).toBe(0);
    rmSync(index);
  });

  it('ctx index shows the index without building it, and rebuilds it from every ref', () => {
    const git = (...args: string[]) => execFileSync('git', ['--git-dir', store, ...args], { encoding: 'utf8' }).trim();
    expect(run(['index'])).toMatchObject({ code: 0, stdout: `no search index at ${index} (the next grep or files builds it)\n`, stderr: '' });
    expect(existsSync(index)).toBe(false);
    expect(run(['index', 'bogus'])).toMatchObject({ code: 2, stdout: '', stderr: "ctx: unknown index action 'bogus' (status, rebuild)\n" });
    // built by a search, then a branch moved back: its commits stay in the file until a rebuild
    checkpoint('bob/log', 'a fig to forget');
    run(['grep', 'fig']);
    git('update-ref', 'refs/heads/bob/log', `${tipOf('bob/log')}~1`);
    const held = Number(git('rev-list', '--count', '--branches', '--remotes'));
    const refCount = git('for-each-ref', '--format=%(refname)', 'refs/heads', 'refs/remotes').split('\n').length;
    const line = (state: string, commits: number, refCount: number) => new RegExp(`^${state}\\t${commits} commits\\t${refCount} refs\\t\\d+ KiB\\t${index.replace(/[.]/g, '\\.')}\\n$`);
    run(['grep', 'fig']);
    expect(run(['index']).stdout).toMatch(line('current', held + 1, refCount));
    // a new branch at a commit it holds: behind the refs until the next search
    git('update-ref', 'refs/heads/zz/alias', tipOf('alice/auth'));
    expect(run(['index']).stdout).toMatch(line('behind the refs', held + 1, refCount));
    const rebuilt = run(['index', 'rebuild', '--json']);
    expect(rebuilt).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(rebuilt.stdout)).toEqual({ v: 1, path: index, exists: true, current: true, commits: held, refs: refCount + 1, bytes: expect.any(Number) });
    expect(same(['grep', '-i', 'token refresh']).stdout).toContain('\talice/auth\t');
    // another process holds the index: refused, nothing changed
    writeFileSync(join(store, 'ctx', 'search', 'index.lock'), String(process.pid));
    expect(run(['index', 'rebuild'])).toMatchObject({ code: 3, stdout: '', stderr: 'ctx: the search index is in use by another ctx process: try again when it is done\n' });
    rmSync(join(store, 'ctx', 'search', 'index.lock'));
    expect(run(['index']).stdout).toMatch(line('current', held, refCount + 1));
  });
});

describe('the SQLite package', () => {
  it('is loaded from node_modules by the one chunk that opens the index: never by --version, a hook or blame', () => {
    const dist = join(ROOT, 'dist');
    const holding = [...['cli.cjs', 'main.js', 'fast.js', 'hook.cjs', 'index.js'], ...readdirSync(join(dist, 'chunks')).filter((f) => f.endsWith('.js')).map((f) => `chunks/${f}`)].filter((f) => readFileSync(join(dist, f), 'utf8').includes("'node-sqlite3-wasm'") || readFileSync(join(dist, f), 'utf8').includes('"node-sqlite3-wasm"'));
    expect(holding).toHaveLength(1);
    expect(holding[0]).toMatch(/^chunks\/search-index-[0-9A-Z]+\.js$/);
  });
});
