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
  // the fixture is small enough to walk: the index is asked for (CTX_INDEX_ALWAYS=1), as in a store of more commits
  const run = (args: string[], env: Record<string, string> = {}) => ctx(store, args, { env: { ...FIND_ENV, CTX_INDEX_ALWAYS: '1', ...env } });
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
    // a store this small is walked: no index is made unless asked for
    const walked = ctx(store, ['grep', '-i', 'token refresh', '--json'], { env: FIND_ENV });
    expect(existsSync(index)).toBe(false);
    const first = same(['grep', '-i', 'token refresh', '--json']);
    expect(walked).toEqual(first);
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
    // the hint beside the index lost: a new branch over unchanged packed-refs is read from the loose refs alone (no hint written);
    // packed-refs rewritten, the refs are read whole and the index's copy of them written again whole
    const tips = join(store, 'ctx', 'search', 'tips');
    rmSync(tips);
    checkpoint('eve/again', 'a lychee again');
    expect(same(['grep', 'lychee', '--all']).stdout).toMatch(/^ctx-[0-9a-f]{12}\teve\/again\t0\tuser\t-\ta lychee again\n$/);
    expect(existsSync(tips)).toBe(false);
    git('pack-refs', '--all', '--prune');
    expect(same(['grep', 'lychee', '--all']).stdout).toMatch(/^ctx-[0-9a-f]{12}\teve\/again\t0\tuser\t-\ta lychee again\n$/);
    expect(readFileSync(tips, 'utf8')).toContain(` refs/heads/eve/again\n`);
    same(['files', 'src/auth.ts']);
  });

  it('reads only the loose refs while packed-refs is unchanged, and still sees every change', () => {
    const git = (...args: string[]) => execFileSync('git', ['--git-dir', store, ...args], { encoding: 'utf8' });
    const tips = join(store, 'ctx', 'search', 'tips');
    git('pack-refs', '--all', '--prune');
    same(['grep', '-i', 'token refresh', '--all']);
    const hint = readFileSync(tips, 'utf8');
    const before = tipOf('bob/log');
    // a new commit over a packed branch, a new branch: read from the loose refs (the hint is not rewritten)
    checkpoint('bob/log', 'a quince today');
    expect(same(['grep', 'quince', '--all']).stdout).toMatch(/^ctx-[0-9a-f]{12}\tbob\/log\t0\tuser\t-\ta quince today\n$/);
    checkpoint('zz/new', 'a quince too');
    expect(same(['grep', 'quince', '--all']).stdout.split('\n')).toHaveLength(3);
    expect(same(['files', 'src/auth.ts', '--json']).stdout).not.toBe('');
    expect(readFileSync(tips, 'utf8')).toBe(hint);
    // moved back by rewriting its loose file, forward again
    git('update-ref', 'refs/heads/bob/log', before);
    expect(same(['grep', 'quince', '--all']).stdout).toMatch(/^ctx-[0-9a-f]{12}\tzz\/new\t0\tuser\t-\ta quince too\n$/);
    checkpoint('bob/log', 'a quince again');
    expect(same(['grep', 'quince again', '--all']).stdout).toMatch(/\tbob\/log\t/);
    // a loose-only branch deleted: packed-refs unchanged, the refs are read whole
    git('update-ref', '-d', 'refs/heads/zz/new');
    expect(same(['grep', 'quince', '--all']).stdout).toMatch(/^ctx-[0-9a-f]{12}\tbob\/log\t0\tuser\t-\ta quince again\n$/);
    // moved on, back to where the hint has it, then packed: the refs read whole are compared with the hint under the loose refs read since
    const again = tipOf('bob/log');
    checkpoint('bob/log', 'a quince at last');
    expect(same(['grep', 'quince at last']).stdout).toMatch(/\tbob\/log\t/);
    git('update-ref', 'refs/heads/bob/log', again);
    git('pack-refs', '--all', '--prune');
    expect(same(['grep', 'quince at last', '--all'])).toMatchObject({ code: 1, stdout: '' });
    expect(same(['grep', 'quince', '--all']).stdout).toMatch(/^ctx-[0-9a-f]{12}\tbob\/log\t0\tuser\t-\ta quince again\n$/);
    git('update-ref', 'refs/heads/bob/log', before);
    expect(same(['grep', 'quince', '--all'])).toMatchObject({ code: 1, stdout: '' });
    // a damaged loose ref over unchanged packed-refs fails the search as the walk does
    writeFileSync(join(store, 'refs', 'heads', 'zz-broken'), 'not a commit id\n');
    expect(same(['grep', '-i', 'token refresh', '--all']).code).toBe(5);
    rmSync(join(store, 'refs', 'heads', 'zz-broken'));
    same(['grep', '-i', 'token refresh', '--all']);
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
    const line = (state: string, commits: number, refCount: number) => new RegExp(`^${state}\\t${commits} commits\\t${refCount} refs\\t[\\d.]+ (KiB|MiB)\\t${index.replace(/[.]/g, '\\.')}\\n$`);
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

  it('ctx gc drops the rows of the commits no branch reaches, as a rebuild would', () => {
    const git = (...args: string[]) => execFileSync('git', ['--git-dir', store, ...args], { encoding: 'utf8' }).trim();
    const commits = () => JSON.parse(run(['index', '--json']).stdout).commits as number;
    const rows = (table: string) => Number(execFileSync(process.execPath, ['-e', `const { Database } = require('node-sqlite3-wasm'); const db = new Database(process.argv[1]); process.stdout.write(String(db.get(process.argv[2]).n)); db.close();`, index, `SELECT count(*) AS n FROM ${table}`], { encoding: 'utf8' }));
    checkpoint('zz/gone', 'a mangosteen, then src/gone.ts');
    const session = { type: 'assistant', message: { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'Read', input: { file_path: '/app/src/gone.ts' } }] } };
    expect(ctx(store, ['checkpoint', '-b', 'zz/gone', '--format', 'claude-code-v1', '-'], { env: FIND_ENV, input: `${JSON.stringify(session)}\n` }).code).toBe(0);
    expect(same(['grep', 'mangosteen', '--all']).stdout).toMatch(/\tzz\/gone\t/);
    expect(same(['files', 'src/gone.ts']).stdout).toMatch(/\tzz\/gone\t/);
    const before = { commits: commits(), texts: rows('texts'), touches: rows('touches') };
    git('update-ref', '-d', 'refs/heads/zz/gone');
    expect(run(['gc', '--prune', 'now'])).toMatchObject({ code: 0, stderr: '' });
    expect({ commits: commits(), texts: rows('texts'), touches: rows('touches') }).toEqual({ commits: before.commits - 2, texts: before.texts - 2, touches: before.touches - 1 });
    expect(run(['index']).stdout).toMatch(/^current\t/);
    expect(same(['grep', 'mangosteen', '--all'])).toMatchObject({ code: 1, stdout: '' });
    expect(same(['files', 'src/gone.ts'])).toMatchObject({ code: 1, stdout: '' });
    same(['grep', '-i', 'token refresh', '--all']);
    // what a rebuild from every ref holds
    const pruned = commits();
    expect(JSON.parse(run(['index', 'rebuild', '--json']).stdout).commits).toBe(pruned);
  });

  it('is asked once the store holds more than 256 objects, loose or packed', () => {
    const git = (args: string[], input?: string) => execFileSync('git', ['--git-dir', store, ...args], { encoding: 'utf8', input });
    const plain = (args: string[]) => ctx(store, args, { env: FIND_ENV });
    const want = run(['grep', '-i', 'token refresh', '--json'], { CTX_NO_INDEX: '1' });
    rmSync(index);
    expect(plain(['grep', '-i', 'token refresh', '--json'])).toEqual(want);
    expect(existsSync(index)).toBe(false);
    const objects = Number(/^count: (\d+)$/m.exec(git(['count-objects', '-v']))![1]) + Number(/^in-pack: (\d+)$/m.exec(git(['count-objects', '-v']))![1]);
    expect(objects).toBeLessThanOrEqual(256);
    // loose blobs (and their tree) past 256 objects: the index is built and answers
    const blobs = Array.from({ length: 257 - objects }, (_, i) => join(dir, `blob-${i}`));
    blobs.forEach((f, i) => writeFileSync(f, `blob ${i}\n`));
    const oids = git(['hash-object', '-w', '--stdin-paths'], blobs.join('\n')).trim().split('\n');
    // kept by a ref outside the branches (a repack keeps them; a search does not look there)
    const tree = git(['mktree'], oids.map((o, i) => `100644 blob ${o}\tblob-${i}\n`).join('')).trim();
    git(['update-ref', 'refs/keep/blobs', tree]);
    expect(plain(['grep', '-i', 'token refresh', '--json'])).toEqual(want);
    expect(existsSync(index)).toBe(true);
    // the same objects packed: counted from the pack's index
    rmSync(index);
    git(['repack', '-a', '-d', '-q']);
    expect(git(['count-objects', '-v'])).toMatch(/^count: 0$/m);
    expect(plain(['files', 'src/auth.ts'])).toEqual(run(['files', 'src/auth.ts'], { CTX_NO_INDEX: '1' }));
    expect(existsSync(index)).toBe(true);
  });

  it('files takes a commit with no later commit from its touch rows, and reads below one that gained a commit; an index of an older schema is rebuilt', () => {
    const git = (...args: string[]) => execFileSync('git', ['--git-dir', store, ...args], { encoding: 'utf8' }).trim();
    const sql = (query: string) => execFileSync(process.execPath, ['-e', `const { Database } = require('node-sqlite3-wasm'); const db = new Database(process.argv[1]); const r = db.all(process.argv[2]); process.stdout.write(JSON.stringify(r)); db.close();`, index, query], { encoding: 'utf8' });
    // a branch's tip that read src/auth.ts, named again by a branch before it: the leaf goes to the first name, as the walk gives it
    const rows = same(['files', 'src/auth.ts', '--json']).stdout.trim().split('\n').map((l) => JSON.parse(l) as { commit: string; branch: string });
    const leaf = rows.find((r) => r.commit === `ctx-${tipOf(r.branch)}`)!;
    expect(leaf).toBeDefined();
    git('update-ref', 'refs/heads/aa/first', leaf.commit.slice(4));
    expect(JSON.parse(sql(`SELECT count(*) AS n FROM commits WHERE parent = (SELECT id FROM commits WHERE oid = '${leaf.commit.slice(4)}')`))).toEqual([{ n: 0 }]);
    const named = same(['files', 'src/auth.ts', '--json']).stdout;
    expect(named).toContain(`"commit":"${leaf.commit}","branch":"aa/first"`);
    // a commit after it on aa/first only: read below it, it stays with aa/first (its child carries on its session)
    checkpoint('aa/first', 'one more on the first');
    expect(same(['files', 'src/auth.ts', '--json']).stdout).toBe(named);
    checkpoint(leaf.branch, 'one more on its own branch');
    same(['files', 'src/auth.ts', '--json']);
    same(['files', 'auth.ts', leaf.branch, 'aa/first']);
    // written by the schema before (no plain runs): started afresh, silently
    sql("UPDATE meta SET v = '6' WHERE k = 'schema'");
    expect(same(['files', 'src/auth.ts'])).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(sql("SELECT v FROM meta WHERE k = 'schema'"))).toEqual([{ v: '7' }]);
    git('update-ref', '-d', 'refs/heads/aa/first');
  });

  it("loads node's own modules a search uses before SQLite's V8 flag, warm and after a new commit", () => {
    // after any V8 flag node compiles its built-in modules without their code cache: what loads after it is listed on stderr
    const probe = join(dir, 'after-flag.cjs');
    writeFileSync(
      probe,
      `const v8 = require('v8'); const set = v8.setFlagsFromString; let at = -1;
v8.setFlagsFromString = (f) => { if (at < 0) at = process.moduleLoadList.length; return set(f); };
process.on('exit', () => { if (at >= 0) process.stderr.write('after the flag: ' + JSON.stringify(process.moduleLoadList.slice(at).filter((m) => m.startsWith('NativeModule '))) + '\\n'); });\n`,
    );
    const probed = (args: string[]) => run(args, { NODE_OPTIONS: `--require ${probe}` });
    checkpoint('alice/auth', 'a persimmon');
    for (const args of [['grep', 'persimmon', '--all'], ['files', 'src/auth.ts']]) {
      probed(args);
      const warm = probed(args);
      expect([warm.code, warm.stderr]).toEqual([0, 'after the flag: []\n']);
      checkpoint('alice/auth', `another persimmon, for ${args[0]}`);
      const after = probed(args);
      expect([after.code, after.stderr]).toEqual([0, 'after the flag: []\n']);
    }
  });
});

describe('the SQLite package', () => {
  it('is loaded from node_modules by the one chunk that opens the index and by the grep and files bundle: never by --version, a hook or blame', () => {
    const dist = join(ROOT, 'dist');
    const holding = [...['cli.cjs', 'main.js', 'fast.cjs', 'hook.cjs', 'search.cjs', 'index.js'], ...readdirSync(join(dist, 'chunks')).filter((f) => f.endsWith('.js')).map((f) => `chunks/${f}`)].filter((f) => readFileSync(join(dist, f), 'utf8').includes("'node-sqlite3-wasm'") || readFileSync(join(dist, f), 'utf8').includes('"node-sqlite3-wasm"'));
    expect(holding).toHaveLength(2);
    expect(holding[0]).toBe('search.cjs');
    expect(holding[1]).toMatch(/^chunks\/search-index-[0-9A-Z]+\.js$/);
  });
});

describe('files over many calls', { timeout: 600_000 }, () => {
  let dir: string;
  let store: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'ctx-files-many-'));
    store = join(dir, 'store.git');
    execFileSync('git', ['init', '--bare', '-q', store]);
    // sessions written by one fast-import stream in ctx's format: chains of 2 to 8 commits, one of 150
    // that touches files in its first 12 only (deeper than the walk up from them reads level by level), forks from inside chains on the same session and
    // on new ones, a branch at a commit inside a chain, and two names for one tip; Reads of
    // src/auth.ts (and lib/auth.ts, another file of the same name) in most commits
    let stream = '';
    let mark = 0;
    const session = (s: number) => `00000000-0000-4000-8000-${String(s).padStart(12, '0')}`;
    const commit = (ref: string, s: number, n: number, parent: number, touch: boolean): number => {
      const at = new Date(Date.parse('2026-11-01T00:00:00Z') + n * 1000).toISOString();
      const calls = !touch ? [] : [
        ...(n % 3 !== 2 ? [{ type: 'tool_use', id: `r${n}`, name: 'Read', input: { file_path: `/repo/${n % 7 === 0 ? 'lib' : 'src'}/auth.ts` } }] : []),
        ...(n % 5 === 0 ? [{ type: 'tool_use', id: `e${n}`, name: 'Edit', input: { file_path: '/repo/src/auth.ts', old_string: 'a', new_string: 'b' } }] : []),
        ...(n === 160 ? [{ type: 'tool_use', id: 'once', name: 'Read', input: { file_path: '/repo/once.ts' } }] : []),
      ];
      const lines =
        `${JSON.stringify({ type: 'user', sessionId: session(s), timestamp: at, message: { role: 'user', content: `turn ${n}` } })}\n` +
        `${JSON.stringify({ type: 'assistant', sessionId: session(s), timestamp: n % 4 === 0 ? '2026-11-01T00:00:00.000Z' : at, message: { id: `m${n}`, role: 'assistant', content: [{ type: 'text', text: `done ${n}` }, ...calls] } })}\n`;
      const meta = `${JSON.stringify({ artifact: `blake3:${'0'.repeat(64)}`, artifact_size: Buffer.byteLength(lines), checkpoint: 'import', created_at: at, format: 'claude-code-v1', machine: 'box', message_count: 2, principal: 'test', session_id: session(s), summary: '', template: 'claude-code', token_count: 1, type: 'delta', v: 1 })}\n`;
      const who = `test <test@box> ${Math.floor(Date.parse(at) / 1000)} +0000`;
      const msg = `delta: 2 messages\n\nCtx-Type: delta\nCtx-Format: claude-code-v1\nCtx-Session: ${session(s)}\nCtx-Template: claude-code\n`;
      stream +=
        `commit ${ref}\nmark :${++mark}\nauthor ${who}\ncommitter ${who}\ndata ${Buffer.byteLength(msg)}\n${msg}` +
        (parent ? `from :${parent}\n` : '') +
        `M 100644 inline delta.jsonl\ndata ${Buffer.byteLength(lines)}\n${lines}\nM 100644 inline meta.json\ndata ${Buffer.byteLength(meta)}\n${meta}\n`;
      return mark;
    };
    let n = 0;
    // `touching`: the first commits that touch files (the rest after them are read walking up to the tips)
    const chain = (ref: string, s: number, length: number, parent = 0, touching = length): number[] => {
      const marks: number[] = [];
      stream += `reset refs/heads/${ref}\n`;
      for (let i = 0; i < length; i++) marks.push((parent = commit(`refs/heads/${ref}`, s, n++, parent, i < touching)));
      return marks;
    };
    const long = chain('main/long', 0, 150, 0, 12);
    const chains = Array.from({ length: 24 }, (_, s) => chain(`s/${String(s + 1).padStart(2, '0')}`, s + 1, 2 + (s % 7)));
    chain('fork/a-same', 0, 5, long[10]);
    chain('fork/b-new', 100, 3, long[10]);
    chain('aa/fork-same', 1, 2, chains[0][0]);
    chain('zz/fork-new', 101, 4, chains[3][1]);
    stream += `reset refs/heads/old/long\nfrom :${long[100]}\n\nreset refs/heads/a0/inside\nfrom :${chains[5][1]}\n\nreset refs/heads/copy/s05\nfrom :${chains[4].at(-1)}\n\n`;
    execFileSync('git', ['--git-dir', store, 'fast-import', '--quiet'], { input: stream });
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const run = (args: string[], env: Record<string, string> = {}) => ctx(store, args, { env: { ...FIND_ENV, ...env } });
  /** The command's output with the index, checked equal to its output reading every commit. */
  const same = (args: string[]) => {
    const plain = run(args, { CTX_NO_INDEX: '1' });
    const indexed = run(args);
    expect({ args, ...indexed }).toEqual({ args, ...plain });
    return indexed;
  };

  it('answers every row exactly as reading every commit does, whatever the forks and branches inside chains', () => {
    const first = same(['files', 'src/auth.ts']);
    expect(existsSync(join(store, 'ctx', 'search', 'index.sqlite'))).toBe(true);
    const rows = first.stdout.split('\n').slice(0, -1).map((l) => l.split('\t'));
    expect(rows).toHaveLength(109);
    // the branches rows went to: each chain's, the forks' own commits, the first name of a tip with two; none to
    // a branch inside a chain (the chain carries on its session), nor to main/long, whose reads before its fork
    // point go with fork/a-same, the first branch to carry on their session
    expect(new Set(rows.map((r) => r[4]))).toEqual(new Set(['aa/fork-same', 'fork/a-same', 'fork/b-new', ...Array.from({ length: 24 }, (_, s) => `s/${String(s + 1).padStart(2, '0')}`).filter((b) => b !== 's/05'), 'copy/s05', 'zz/fork-new']));
    for (const args of [
      ['files', 'src/auth.ts', '--json'],
      ['files', 'auth.ts'],
      ['files', 'src/auth.ts', 'old/long', 'fork/a-same'],
      ['files', 'src/auth.ts', 'fork/b-new', 'main/long', 'fork/b-new'],
      ['files', 'auth.ts', 's/06', 'a0/inside', '--json'],
    ])
      same(args);
    // one call
    expect(same(['files', 'once.ts']).stdout).toMatch(/^[^\n]*\tread\tRead\tctx-[0-9a-f]{12}\ts\/04\t[^\n]*\t\/repo\/once\.ts\n$/);
  });

  it("keeps each commit's run as forks come in after it was built, as a rebuild makes them, and answers as the walk does", () => {
    const git = (...args: string[]) => execFileSync('git', ['--git-dir', store, ...args], { encoding: 'utf8' }).trim();
    const index = join(store, 'ctx', 'search', 'index.sqlite');
    const sql = (query: string) => execFileSync(process.execPath, ['-e', `const { Database } = require('node-sqlite3-wasm'); const db = new Database(process.argv[1]); process.stdout.write(JSON.stringify(db.all(process.argv[2]))); db.close();`, index, query], { encoding: 'utf8' });
    // the runs by commit ids: each run's first commit, the commit before it, its last and the refs at its last if plain; the run of each commit, ref and touch row
    const oid = (col: string) => `(SELECT x.oid FROM commits x WHERE x.id = ${col})`;
    const runs = () => [
      sql(`SELECT ${oid('r.id')} AS first, ${oid('r.up')} AS up, ${oid('r.last')} AS last, r.plain FROM runs r ORDER BY first`),
      sql(`SELECT c.oid, ${oid('c.run')} AS run FROM commits c ORDER BY c.oid`),
      sql(`SELECT f.name, ${oid('f.run')} AS run FROM refs f ORDER BY f.name`),
      sql(`SELECT t.oid, t.entry, t.path, ${oid('t.run')} AS run FROM touches t ORDER BY t.oid, t.entry, t.path`),
    ];
    // a commit after `parent` on `ref`, a copy of `like` (its tree and message: it reads src/auth.ts)
    const fork = (ref: string, parent: string, like = 'refs/heads/s/01') => {
      const id = git('commit-tree', `${like}^{tree}`, '-p', parent, '-m', git('log', '-1', '--format=%B', like));
      git('update-ref', `refs/heads/${ref}`, id);
      return id;
    };
    same(['files', 'src/auth.ts']);
    const long = git('rev-list', '--first-parent', 'refs/heads/main/long').split('\n').reverse();
    // inside a run (split there), after a tip inside a chain, on a commit that already has two children, on a tip (the run carries on), a fork of a fork
    const a = fork('zz/split', long[60]);
    fork('zz/after-old', long[101]);
    fork('zz/third', long[10]);
    fork('zz/on-tip', 'refs/heads/s/03');
    fork('zz/on-split', a);
    fork('zz/below-split', long[40]);
    // a fork on each of 70 commits in a row: a tree of runs deeper than the walk reads level by level
    for (let i = 70; i < 140; i++) fork(`deep/${i}`, long[i]);
    for (const args of [['files', 'src/auth.ts'], ['files', 'auth.ts', '--json'], ['files', 'src/auth.ts', 'main/long', 'zz/split', 's/03'], ['files', 'src/auth.ts', 'old/long', 'zz/after-old']]) same(args);
    // as a rebuild makes them: kept by the writes since (the runs a write changes are settled again)
    // each run plain as defined: no run after its last, no ref in it but at its last; then the refs at its last
    const settled = () => {
      const plain = `CASE WHEN EXISTS (SELECT 1 FROM runs k WHERE k.up = r.last) OR EXISTS (SELECT 1 FROM refs f WHERE f.run = r.id AND f.commit_id <> r.last) THEN NULL ELSE (SELECT json_group_array(f.name) FROM refs f WHERE f.run = r.id) END`;
      expect(sql(`SELECT r.id, r.plain, ${plain} AS settled FROM runs r WHERE r.plain IS NOT ${plain}`)).toBe('[]');
    };
    const rebuilt = () => {
      settled();
      const kept = runs();
      expect(JSON.parse(run(['index', 'rebuild', '--json']).stdout).commits).toBeGreaterThan(0);
      expect(runs()).toEqual(kept);
      return kept;
    };
    const kept = rebuilt();
    expect(JSON.parse(kept[0]).length).toBeGreaterThan(30);
    // plain runs (the refs at their last) and others
    const plain = (JSON.parse(kept[0]) as { plain: string | null }[]).map((r) => r.plain);
    expect(plain).toContain(null);
    expect(plain).toContain('["refs/heads/s/04"]');
    // a commit inside a run dropped by gc: its run ends before it, and later commits carry it on again
    git('update-ref', '-d', 'refs/heads/zz/on-tip');
    git('update-ref', 'refs/heads/zz/on-split', a);
    expect(run(['gc', '--prune', 'now'])).toMatchObject({ code: 0, stderr: '' });
    same(['files', 'src/auth.ts']);
    rebuilt();
    fork('zz/on-tip', 'refs/heads/s/03');
    fork('zz/on-split', a);
    same(['files', 'src/auth.ts', '--json']);
    rebuilt();
    // a branch moved off a plain run's last, and back: the run is settled again each time
    const s03 = git('rev-parse', 'refs/heads/s/03');
    git('update-ref', 'refs/heads/s/03', `${s03}~1`);
    same(['files', 'src/auth.ts']);
    rebuilt();
    git('update-ref', 'refs/heads/s/03', s03);
    same(['files', 'src/auth.ts']);
    rebuilt();
    // a branch moved from one plain run's last to another's: both settled again
    git('update-ref', 'refs/heads/copy/s05', 'refs/heads/s/06');
    same(['files', 'src/auth.ts']);
    rebuilt();
    // the runs after a plain run's last dropped by gc (a fork there, then another: the run split at it)
    const s04 = git('rev-parse', 'refs/heads/s/04');
    fork('zz/t1', s04);
    fork('zz/t2', s04, 'refs/heads/s/02');
    same(['files', 'src/auth.ts']);
    git('update-ref', '-d', 'refs/heads/zz/t1');
    git('update-ref', '-d', 'refs/heads/zz/t2');
    expect(run(['gc', '--prune', 'now'])).toMatchObject({ code: 0, stderr: '' });
    settled();
    same(['files', 'src/auth.ts']);
    rebuilt();
    // a remote-tracking ref at a plain run's last, first there by name: files reads the local branches
    git('update-ref', 'refs/remotes/a/first', 'refs/heads/s/07');
    expect(same(['files', 'src/auth.ts']).stdout).toContain('\ts/07\t');
    rebuilt();
  });
});
