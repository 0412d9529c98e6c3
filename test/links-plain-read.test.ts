// The commit hook's in-process reads of a code repository (src/store/code/plain.ts, plain-staged.ts):
// for the plain case each answer equals git's, read with no git on PATH; every case git could judge
// differently gives null, and the hook's functions then give git's answer.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { plainCommitChanges, plainConfig, plainDirs, plainHead } from '../src/store/code/plain.js';
import { plainStaged, type StagedChange } from '../src/store/code/plain-staged.js';
import { codeConfig, commitInfo, commitSite, stagedChanges } from '../src/store/code/repo.js';
import { ROOT, tempDir } from './helpers.js';

const BASE: NodeJS.ProcessEnv = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_AUTHOR_NAME: 'a', GIT_AUTHOR_EMAIL: 'a@b', GIT_COMMITTER_NAME: 'a', GIT_COMMITTER_EMAIL: 'a@b' };
delete BASE.GIT_EXEC_PATH;
/** No git to run: an answer under it was read in-process. */
const NO_GIT = { PATH: '/nonexistent' };
/** What git sets for its hooks, and which tells plainConfig where the system config is. */
const HOOK = { GIT_EXEC_PATH: '/usr/lib/git-core' };

function repo(): { top: string; env: NodeJS.ProcessEnv; git: (...args: string[]) => string } {
  const top = tempDir();
  const env = { ...BASE, GIT_CONFIG_GLOBAL: join(top, '..', `${top.split('/').pop()}.gitconfig`) };
  writeFileSync(env.GIT_CONFIG_GLOBAL, '');
  const git = (...args: string[]) => execFileSync('git', args, { cwd: top, env, encoding: 'utf8' });
  git('init', '-q', '-b', 'main');
  return { top, env, git };
}

/** git's own `diff --cached` answer, as the hook read it before (stagedChanges without the in-process path), by path. */
const byPath = (changes: StagedChange[]) => [...changes].sort((a, b) => (a.path < b.path ? -1 : 1));

describe('the commit site and config, in-process', () => {
  it('gives git\'s directories, HEAD and parents in the main worktree and a linked one, for a packed branch and a detached HEAD; an unborn HEAD too', () => {
    const { top, env, git } = repo();
    const unborn = commitSite(top, { ...env, ...NO_GIT });
    expect(unborn).toEqual({ top, common: join(top, '.git'), pending: join(top, '.git', 'ctx-pending.json'), queue: join(top, '.git', 'ctx-queue'), rebasing: false, head: null, plain: { gitdir: join(top, '.git'), common: join(top, '.git') } });
    writeFileSync(join(top, 'a'), '1\n');
    git('add', 'a');
    git('commit', '-qm', 'one');
    writeFileSync(join(top, 'a'), '2\n');
    git('commit', '-qam', 'two');
    const want = (cwd: string, e: NodeJS.ProcessEnv) => {
      const [common, pending, queue, sha, ...parents] = execFileSync('git', ['rev-parse', '--path-format=absolute', '--git-common-dir', '--git-path', 'ctx-pending.json', '--git-path', 'ctx-queue', 'HEAD', 'HEAD^@'], { cwd, env: e, encoding: 'utf8' }).trim().split('\n');
      return { common, pending, queue, head: { sha, parents } };
    };
    expect(commitSite(top, { ...env, ...NO_GIT })).toMatchObject({ ...want(top, env), rebasing: false });
    git('pack-refs', '--all');
    expect(readdirSync(join(top, '.git', 'refs', 'heads'))).toEqual([]);
    expect(commitSite(top, { ...env, ...NO_GIT })).toMatchObject(want(top, env));
    const wt = join(tempDir(), 'wt');
    git('worktree', 'add', '-q', '--detach', wt);
    // git sets GIT_DIR for the hooks of a linked worktree
    const wtEnv = { ...env, GIT_DIR: join(top, '.git', 'worktrees', 'wt') };
    const site = commitSite(wt, { ...wtEnv, ...NO_GIT });
    expect(site).toMatchObject({ ...want(wt, env), top: wt });
    expect(site!.pending).toBe(join(top, '.git', 'worktrees', 'wt', 'ctx-pending.json'));
    // another GIT_DIR than the worktree's: git is asked
    expect(plainDirs(wt, { ...env, GIT_DIR: join(top, '.git') })).toBeNull();
  });

  it('asks git when HEAD is not a loose commit, or grafts, replace refs or an environment that moves the repository are there', () => {
    const { top, env, git } = repo();
    writeFileSync(join(top, 'a'), '1\n');
    git('add', 'a');
    git('commit', '-qm', 'one');
    git('commit', '-qm', 'two', '--allow-empty');
    const dirs = plainDirs(top, env)!;
    expect(plainHead(dirs)).toMatchObject({ parents: [git('rev-parse', 'HEAD^').trim()] });
    for (const k of ['GIT_WORK_TREE', 'GIT_COMMON_DIR', 'GIT_OBJECT_DIRECTORY', 'GIT_CEILING_DIRECTORIES']) expect(plainDirs(top, { ...env, [k]: top })).toBeNull();
    git('replace', '--graft', 'HEAD');
    expect(plainDirs(top, env)).toBeNull();
    git('replace', '-d', git('rev-parse', 'HEAD').trim());
    writeFileSync(join(top, '.git', 'shallow'), '');
    expect(plainDirs(top, env)).toBeNull();
    rmSync(join(top, '.git', 'shallow'));
    git('gc', '-q');
    expect(plainHead(plainDirs(top, env)!)).toBeNull();
    // the hook's site then comes from git, as before
    const sha = git('rev-parse', 'HEAD').trim();
    expect(commitSite(top, env)!.head).toEqual({ sha, parents: [git('rev-parse', 'HEAD^').trim()] });
    expect(commitSite(top, env)!.plain).toBeUndefined();
  });

  it('reads ctx.links, origin and the trailer rules as git config does, and leaves quotes, includes, -c of a watched key and an unknown system file to git', () => {
    const { top, env, git } = repo();
    const config = join(top, '.git', 'config');
    void git;
    const cases: [string, boolean][] = [
      ['[ctx]\n\tlinks = Off ; off\n[remote "origin"]\n\turl = https://user:pw@example.com/a/b.git  # the url\n', true],
      ['[ctx]\n\tlinks\n[remote "origin"]\n\turl = git@example.com:a/b.git\n[core]\n\tcommentChar = %\n', true],
      ['[CTX]\n  LINKS = no\n[trailer "sign"]\n\tkey = Signed-off-by\n[remote "Origin"]\n\turl = other\n', true],
      ['[ctx]\n\tlinks = maybe\n[remote "origin"]\n\turl = a\n\turl = b\n[diff]\n\talgorithm = patience\n', true],
      ['[ctx]\n\tlinks = "false"\n', false],
      ['[remote "origin"]\n\turl = a\\\n\tb\n', false],
      ['[include]\n\tpath = other\n', false],
      ['[remote.origin]\n\turl = old-style\n', false],
    ];
    const original = execFileSync('cat', [config], { encoding: 'utf8' });
    for (const [text, plain] of cases) {
      writeFileSync(config, original + text);
      const dirs = plainDirs(top, env);
      const read = dirs && plainConfig(dirs, { ...env, ...HOOK });
      expect(read !== null, text).toBe(plain);
      // with the system file read (no GIT_CONFIG_NOSYSTEM), and no GIT_EXEC_PATH to say where it is: git is asked
      const { GIT_CONFIG_NOSYSTEM: _, ...withSystem } = env;
      expect(plainConfig(dirs ?? { gitdir: '', common: join(top, '.git') }, withSystem)).toBeNull();
      // git's answer: codeConfig without the site's directories
      const want = codeConfig(top, env);
      if (plain) expect(codeConfig(top, { ...env, ...HOOK, ...NO_GIT }, dirs!), text).toEqual({ ...want, plainDiff: !text.includes('[diff]') });
    }
    writeFileSync(config, `${original}[ctx]\n\tlinks = false\n`);
    expect(plainConfig(plainDirs(top, env)!, { ...env, ...HOOK, GIT_CONFIG_PARAMETERS: "'user.name'='x'" })).toEqual({ links: 'false', trailerRules: false, diffRules: false });
    expect(plainConfig(plainDirs(top, env)!, { ...env, ...HOOK, GIT_CONFIG_PARAMETERS: "'ctx.links'='true'" })).toBeNull();
    expect(plainConfig(plainDirs(top, env)!, { ...env, ...HOOK, GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'Remote.origin.url', GIT_CONFIG_VALUE_0: 'x' })).toBeNull();
  });
});

describe('the staged change, in-process', () => {
  /** A repository with a first commit of `files`, then `stage` run; the in-process answer (no git on PATH) against git's. */
  function staged(files: Record<string, string | Buffer>, stage: (top: string, git: (...args: string[]) => string) => void, opts: { commit?: boolean } = {}) {
    const { top, env, git } = repo();
    for (const [f, data] of Object.entries(files)) {
      mkdirSync(join(top, f, '..'), { recursive: true });
      writeFileSync(join(top, f), data);
    }
    if (opts.commit !== false) {
      git('add', '-A');
      git('commit', '-qm', 'one');
    }
    stage(top, git);
    const dirs = plainDirs(top, env)!;
    const head = plainHead(dirs);
    // HEAD packed: its id from git (plainStaged then finds its commit not loose)
    const sha = head === 'unborn' ? null : head === null ? git('rev-parse', 'HEAD').trim() : head.sha;
    return { got: plainStaged(dirs, top, sha, { ...env, ...NO_GIT }), want: stagedChanges(top, env), top, env, dirs, sha };
  }

  it.each<[string, Record<string, string | Buffer>, (top: string, git: (...args: string[]) => string) => void]>([
    ['a changed line, a new file, a deleted one', { 'a.txt': 'one\ntwo\nthree\n', 'gone.txt': 'x\ny\n' }, (top, git) => {
      writeFileSync(join(top, 'a.txt'), 'one\nTWO\nthree\n');
      writeFileSync(join(top, 'new.txt'), 'hello\nworld');
      git('add', '-A');
    }],
    ['files deep in directories, a whole directory deleted, one untouched', { 'src/x/a.ts': 'a\n', 'src/y/b.ts': 'b\n', 'lib/c.ts': 'c\n1\n2\n', 'keep/k': 'k\n' }, (top, git) => {
      writeFileSync(join(top, 'src/x/a.ts'), 'a\nadded\n');
      rmSync(join(top, 'lib'), { recursive: true });
      writeFileSync(join(top, 'src/y/new.ts'), 'new\n');
      git('add', '-A');
    }],
    ['a binary side, an empty file added and one deleted, a mode alone, an empty file filled', { 'bin': Buffer.from([1, 0, 2]), 'e1': '', 'm.sh': 'echo\n', 'e2': '' }, (top, git) => {
      writeFileSync(join(top, 'bin'), Buffer.from([1, 0, 3]));
      writeFileSync(join(top, 'e3'), '');
      rmSync(join(top, 'e1'));
      chmodSync(join(top, 'm.sh'), 0o755);
      writeFileSync(join(top, 'e2'), 'now\n');
      git('add', '-A');
    }],
    ['a last line without its line break, carriage returns, UTF-8 and bytes that are not', { 't.txt': 'a\nb', 'crlf.txt': 'x\r\ny\r\n', 'u.txt': 'é\n' }, (top, git) => {
      writeFileSync(join(top, 't.txt'), 'a\nb\nc\n');
      writeFileSync(join(top, 'crlf.txt'), 'x\r\nz\r\n');
      writeFileSync(join(top, 'u.txt'), Buffer.concat([Buffer.from('ü\n'), Buffer.from([0xff, 0xfe, 10])]));
      git('add', '-A');
    }],
    ['only part of the work tree staged', { 'a': '1\n', 'b': '1\n' }, (top, git) => {
      writeFileSync(join(top, 'a'), '2\n');
      writeFileSync(join(top, 'b'), '2\n');
      git('add', 'a');
    }],
    ['nothing staged', { 'a': '1\n' }, (top) => writeFileSync(join(top, 'a'), '2\n')],
  ])('%s: as git diff --cached gives it', (_, files, stage) => {
    const { got, want } = staged(files, stage);
    expect(got).not.toBeNull();
    expect(byPath(got!)).toEqual(byPath(want));
  });

  it('an unborn HEAD, and the temporary index of `git commit -a` (GIT_INDEX_FILE)', () => {
    const first = staged({ 'a/b.txt': 'x\n', 'c': 'y\n' }, (_, git) => git('add', '-A'), { commit: false });
    expect(first.sha).toBeNull();
    expect(byPath(first.got!)).toEqual(byPath(first.want));
    expect(first.want.map((c) => c.path).sort()).toEqual(['a/b.txt', 'c']);
    const { top, env, dirs, sha } = staged({ 'a': '1\n', 'b': '1\n' }, (top) => {
      writeFileSync(join(top, 'a'), '2\n');
    });
    const index = join(top, '.git', 'other-index');
    cpSync(join(top, '.git', 'index'), index);
    execFileSync('git', ['add', '-u'], { cwd: top, env: { ...env, GIT_INDEX_FILE: index } });
    const e = { ...env, GIT_INDEX_FILE: index };
    expect(stagedChanges(top, e)).toEqual([{ path: 'a', added: ['2'], removed: ['1'] }]);
    expect(plainStaged(dirs, top, sha, { ...e, ...NO_GIT })).toEqual([{ path: 'a', added: ['2'], removed: ['1'] }]);
    expect(plainStaged(dirs, top, sha, { ...env, ...NO_GIT })).toEqual([]);
  });

  it.each<[string, Record<string, string | Buffer>, (top: string, git: (...args: string[]) => string) => void]>([
    ['removed and added lines that share one (git\'s algorithm pairs them)', { 'a': 'x\n}\ny\n' }, (top, git) => {
      writeFileSync(join(top, 'a'), 'z\n}\nw\n}\n');
      git('add', 'a');
    }],
    ['a .gitattributes in the work tree', { 'a': '1\n', 'd/.gitattributes': '* -diff\n', 'd/f': '1\n' }, (top, git) => {
      writeFileSync(join(top, 'd/f'), '2\n');
      git('add', '-A');
    }],
    ['a symbolic link', { 'a': '1\n' }, (top, git) => {
      symlinkSync('a', join(top, 'l'));
      git('add', '-A');
    }],
    ['a file that became a directory', { 'a': '1\n' }, (top, git) => {
      git('rm', '-q', '--cached', 'a');
      rmSync(join(top, 'a'));
      mkdirSync(join(top, 'a'));
      writeFileSync(join(top, 'a', 'b'), '1\n');
      git('add', '-A');
    }],
    ['an intent-to-add entry', { 'a': '1\n' }, (top, git) => {
      writeFileSync(join(top, 'n'), '1\n');
      git('add', '-N', 'n');
    }],
    ['a conflict', { 'a': '1\n' }, (top, git) => {
      git('checkout', '-qb', 'other');
      writeFileSync(join(top, 'a'), '2\n');
      git('commit', '-qam', 'two');
      git('checkout', '-q', 'main');
      writeFileSync(join(top, 'a'), '3\n');
      git('commit', '-qam', 'three');
      spawnSync('git', ['merge', '-q', 'other'], { cwd: top, env: { ...BASE, GIT_CONFIG_GLOBAL: '/dev/null' } });
    }],
    ['HEAD\'s trees packed by gc', { 'a': '1\n' }, (top, git) => {
      git('gc', '-q');
      writeFileSync(join(top, 'a'), '2\n');
      git('add', 'a');
    }],
    ['index version 4', { 'a': '1\n' }, (top, git) => {
      git('update-index', '--index-version', '4');
      writeFileSync(join(top, 'a'), '2\n');
      git('add', 'a');
    }],
  ])('leaves %s to git', (_, files, stage) => {
    const { got, want, top, env } = staged(files, stage);
    expect(got).toBeNull();
    // what the hook then reads comes from git
    expect(stagedChanges(top, env)).toEqual(want);
  });
});

describe('a queued commit, in-process', () => {
  it('lists which of the given files it changed against its first parent, with its parents and message, as git log does; a root commit is git\'s', () => {
    const { top, env, git } = repo();
    mkdirSync(join(top, 'd'));
    for (const f of ['a', 'd/b', 'd/c', 'm']) writeFileSync(join(top, f), '1\n');
    git('add', '-A');
    git('commit', '-qm', 'one');
    const root = git('rev-parse', 'HEAD').trim();
    expect(plainCommitChanges(join(top, '.git'), root, ['a'])).toBeNull();
    writeFileSync(join(top, 'd/b'), '2\n');
    rmSync(join(top, 'a'));
    chmodSync(join(top, 'm'), 0o755);
    writeFileSync(join(top, 'new'), 'n\n');
    git('add', '-A');
    git('commit', '-qm', 'two\n\nbody\n\nCtx-Context: ctx-' + 'a'.repeat(40));
    const sha = git('rev-parse', 'HEAD').trim();
    const info = commitInfo(top, sha, env)!;
    const paths = ['a', 'd/b', 'd/c', 'm', 'new', 'nope', 'd'];
    const got = plainCommitChanges(join(top, '.git'), sha, paths)!;
    expect(got).toEqual({ sha: info.sha, parents: info.parents, message: info.message, changed: paths.filter((p) => info.files.includes(p)) });
    expect(got.changed).toEqual(['a', 'd/b', 'm', 'new']);
    // a merge: against its first parent
    git('checkout', '-qb', 'side', root);
    writeFileSync(join(top, 'd/c'), '3\n');
    git('commit', '-qam', 'side');
    git('checkout', '-q', 'main');
    git('merge', '-q', '--no-ff', '-m', 'merge', 'side');
    const merge = git('rev-parse', 'HEAD').trim();
    const m = commitInfo(top, merge, env)!;
    expect(plainCommitChanges(join(top, '.git'), merge, paths)).toEqual({ sha: merge, parents: m.parents, message: m.message, changed: paths.filter((p) => m.files.includes(p)) });
  });
});

describe('dist/hook.git.cache', () => {
  it('is accepted by V8 for dist/hook.cjs, as bundle-load.ts compiles it', () => {
    const code = `const { Script } = require('node:vm'); const fs = require('node:fs'); const f = ${JSON.stringify(join(ROOT, 'dist', 'hook.cjs'))};
      const s = new Script('(function (exports, require, module, __filename, __dirname) {' + fs.readFileSync(f, 'utf8') + '\\n})', { filename: f, cachedData: fs.readFileSync(${JSON.stringify(join(ROOT, 'dist', 'hook.git.cache'))}) });
      process.stdout.write(String(s.cachedDataRejected));`;
    expect(execFileSync(process.execPath, ['-e', code], { encoding: 'utf8' })).toBe('false');
  });
});
