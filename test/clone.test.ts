// ctx clone, ctx branch -r/-a, and push/pull's one-line summary, against `git http-backend` on 127.0.0.1.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXED_ENV, ctx, fsck, git, newStore, tempDir, type Run } from './helpers.js';
import { gitServerFixture } from './git-http-server.js';

const served = gitServerFixture({ beforeAll, afterAll }, 'clone');
let n = 0;

function ok(r: Run): Run {
  if (r.code !== 0) throw new Error(`exit ${r.code}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`);
  return r;
}

function commit(store: string, branch: string, text: string): string {
  const input = `${JSON.stringify({ type: 'user', message: { role: 'user', content: text } })}\n`;
  return JSON.parse(ok(ctx(store, ['checkpoint', '-b', branch, '--format', 'claude-code-v1', '--json', '-'], { input, env: FIXED_ENV })).stdout).id.slice(4);
}

/** A store of two sessions (one annotated) pushed to a new served repo, which allows partial clones. */
function published(): { store: string; url: string; dir: string; tips: string[] } {
  const store = newStore();
  const { dir, url } = served.repo(`c${++n}.git`, { allowFilter: true });
  const a = commit(store, 'claude/a', 'alpha');
  const b = commit(store, 'codex/b', 'beta '.repeat(50));
  ok(ctx(store, ['annotate', a, '--summary', 'the start'], { env: FIXED_ENV }));
  ok(ctx(store, ['remote', 'add', 'origin', url]));
  ok(ctx(store, ['push']));
  return { store, url, dir, tips: [a, b] };
}

const id = (oid: string) => `ctx-${oid.slice(0, 12)}`;

describe.each([
  ['git binary', {}],
  ['isomorphic-git (no git on PATH)', 'nogit'],
] as const)('ctx clone over HTTP with the %s', (_, which) => {
  it('makes ./.ctx with origin, every branch and the annotations; log, branch -r and fsck --strict work there', () => {
    const env = which === 'nogit' ? { PATH: served.noGitPath } : {};
    const { url, tips } = published();
    const cwd = tempDir();
    const store = join(cwd, '.ctx');
    const r = ok(ctx(store, ['clone', url], { cwd, env: { ...env, CTX_STORE: '' } }));
    expect(r.stdout).toBe(`Cloned ${url} into ${store}: 2 branches, 0 tags, annotations\n`);
    expect(r.stderr).toBe('');
    expect(ok(ctx(store, ['remote'], { cwd })).stdout).toBe(`origin\t${url}\n`);
    expect(ok(ctx(store, ['branch'], { cwd })).stdout).toBe(`claude/a\t${id(tips[0])}\ncodex/b\t${id(tips[1])}\n`);
    expect(ok(ctx(store, ['branch', '-r'], { cwd })).stdout).toBe(`origin/claude/a\t${id(tips[0])}\norigin/codex/b\t${id(tips[1])}\n`);
    expect(ok(ctx(store, ['branch', '-a'], { cwd })).stdout).toBe(
      `claude/a\t${id(tips[0])}\ncodex/b\t${id(tips[1])}\nremotes/origin/claude/a\t${id(tips[0])}\nremotes/origin/codex/b\t${id(tips[1])}\n`,
    );
    expect(ok(ctx(store, ['log', 'claude/a'], { cwd })).stdout).toContain('the start');
    // a pull right after is a no-op, in one line
    expect(ok(ctx(store, ['pull'], { cwd, env })).stdout).toBe(`From ${url}: 2 branches up to date; 2 origin/* up to date; annotations up to date\n`);
    expect(fsck(store)).toEqual({ code: 0, output: '' });
  });
});

describe('ctx clone refuses', () => {
  it('a target that exists and is not empty: exit 3, one line, nothing written', () => {
    const { url } = published();
    const dir = join(tempDir(), 'team.ctx');
    mkdirSync(dir);
    writeFileSync(join(dir, 'keep'), 'x');
    const r = ctx(dir, ['clone', url, dir]);
    expect(r).toMatchObject({ code: 3, stdout: '', stderr: `ctx: ${dir} exists and is not empty: clone into a new or empty directory\n` });
    expect(readdirSync(dir)).toEqual(['keep']);
  });

  it('a remote that is not there: exit 1, and no directory left behind', () => {
    const cwd = tempDir();
    const r = ctx(join(cwd, 'x.ctx'), ['clone', join(cwd, 'missing.git'), 'x.ctx'], { cwd });
    expect(r.code).toBe(1);
    expect(r.stderr.split('\n')[0]).toMatch(/^ctx: listing origin \(.*missing\.git\) failed: /);
    expect(readdirSync(cwd)).toEqual([]);
  });

  it('a filter other than blob:none or blob:limit=N: exit 2', () => {
    const cwd = tempDir();
    expect(ctx(join(cwd, '.ctx'), ['clone', '--filter=tree:0', 'http://127.0.0.1:1/x.git', 'x'], { cwd })).toMatchObject({
      code: 2,
      stderr: "ctx: unsupported --filter 'tree:0' (blob:none or blob:limit=N)\n",
    });
    expect(readdirSync(cwd)).toEqual([]);
  });
});

describe('ctx clone --filter=blob:none', () => {
  it("is git's partial clone: artifacts stay on the server, log and branch work, fsck --strict passes", () => {
    const { url, tips } = published();
    const cwd = tempDir();
    const store = join(cwd, 'team.ctx');
    const r = ok(ctx(store, ['clone', '--filter=blob:none', url, 'team.ctx'], { cwd }));
    expect(r.stdout).toBe(`Cloned ${url} into ${store} (--filter=blob:none): 2 branches, 0 tags, annotations\n`);
    expect(git(store, ['config', 'remote.origin.promisor']).trim()).toBe('true');
    expect(git(store, ['config', 'remote.origin.partialclonefilter']).trim()).toBe('blob:none');
    expect(ok(ctx(store, ['branch'])).stdout).toBe(`claude/a\t${id(tips[0])}\ncodex/b\t${id(tips[1])}\n`);
    expect(ok(ctx(store, ['log', '--all'])).stdout).toContain(id(tips[1]));
    // blobs nobody read yet are still only on the server
    const missing = git(store, ['rev-list', '--objects', '--all', '--missing=print']).split('\n').filter((l) => l.startsWith('?'));
    expect(missing.length).toBeGreaterThan(0);
    expect(fsck(store).code).toBe(0);
  });
});

describe('push and pull print one line unless -v', () => {
  it('push: counts by kind of ref and status; -v the per-ref lines; pull the same', () => {
    const store = newStore();
    const { url } = served.repo(`p${++n}.git`);
    const a = commit(store, 'claude/a', 'one');
    commit(store, 'claude/b', 'two');
    ok(ctx(store, ['annotate', a, '--summary', 's'], { env: FIXED_ENV }));
    ok(ctx(store, ['remote', 'add', 'origin', url]));
    expect(ok(ctx(store, ['push']))).toMatchObject({ stdout: `To ${url}: 2 branches new; annotations new\n`, stderr: '' });
    const a2 = commit(store, 'claude/a', 'three');
    const v = ok(ctx(store, ['push', '-v']));
    const cols = v.stdout.split('\n').filter(Boolean).map((l) => l.split('\t'));
    expect(cols.map((c) => c.slice(0, 3))).toEqual([
      ['fast-forward', 'refs/heads/claude/a', 'refs/heads/claude/a'],
      ['up to date', 'refs/heads/claude/b', 'refs/heads/claude/b'],
      ['up to date', 'refs/notes/ctx', 'refs/notes/ctx'],
    ]);
    expect(cols[0].slice(3)).toEqual([id(a), id(a2)]);
    expect(v.stderr).toBe('origin (git transport): 1 fast-forward, 2 up to date\n');
    expect(ok(ctx(store, ['push']))).toMatchObject({ stdout: `To ${url}: 2 branches up to date; annotations up to date\n`, stderr: '' });
    expect(ok(ctx(store, ['pull']))).toMatchObject({ stdout: `From ${url}: 2 branches up to date; 2 origin/* up to date; annotations up to date\n`, stderr: '' });
    // -v: today's detail, the fetch's refs (2 tracking branches, the fetched and the merged annotations) then the 2 branches
    expect(ok(ctx(store, ['pull', '-v'])).stdout.split('\n').length - 1).toBe(6);
  });
});

describe('push sends sessions and saves, not scratch forks, unless --all', () => {
  it('a fork/<hex> branch (ctx fork without a name) stays local and the line says so; --all sends it; a named fork goes by default', () => {
    const store = newStore();
    const { dir, url } = served.repo(`f${++n}.git`);
    const a = commit(store, 'claude/a', 'one');
    const scratch = JSON.parse(ok(ctx(store, ['fork', 'claude/a', '--json'])).stdout).branch;
    expect(scratch).toBe(`fork/${a.slice(0, 12)}`);
    ok(ctx(store, ['fork', 'claude/a', 'review/kept']));
    ok(ctx(store, ['remote', 'add', 'origin', url]));
    expect(ok(ctx(store, ['push']))).toMatchObject({ stdout: `To ${url}: 2 branches new; 1 fork/* not sent (ctx push --all sends it)\n`, stderr: '' });
    expect(git(dir, ['for-each-ref', '--format=%(refname)'])).toBe('refs/heads/claude/a\nrefs/heads/review/kept\n');
    expect(ok(ctx(store, ['push', '--all']))).toMatchObject({ stdout: `To ${url}: 2 branches up to date, 1 new\n`, stderr: '' });
    expect(git(dir, ['for-each-ref', '--format=%(refname)'])).toBe(`refs/heads/claude/a\nrefs/heads/${scratch}\nrefs/heads/review/kept\n`);
  });

  // from 64 updates the git transport sends a namespace with one glob (git matches explicit refspecs quadratically)
  it('70 new branches, a save and a scratch fork: the glob push sends exactly what ref by ref would; a refused branch sends the rest ref by ref', () => {
    const store = newStore();
    const a = commit(store, 'claude/a', 'one');
    const b = commit(store, 'codex/b', 'two');
    const many = Array.from({ length: 69 }, (_, i) => `s/${String(i).padStart(2, '0')}`);
    execFileSync('git', ['--git-dir', store, 'update-ref', '--stdin'], { input: many.map((m) => `create refs/heads/${m} ${a}\n`).join('') });
    const scratch = JSON.parse(ok(ctx(store, ['fork', 'claude/a', '--json'])).stdout).branch;
    ok(ctx(store, ['save', 'codex/b', '-m', 'a keeper', '--name', 'keep'], { env: FIXED_ENV }));
    const heads = ['claude/a', 'codex/b', ...many].map((h) => `refs/heads/${h}`).sort();
    const listing = (dir: string) => git(dir, ['for-each-ref', '--format=%(refname) %(objectname)']).split('\n').filter(Boolean);

    const one = served.repo(`g${++n}.git`);
    ok(ctx(store, ['remote', 'add', 'one', one.url]));
    expect(ok(ctx(store, ['push', 'one']))).toMatchObject({ stdout: `To ${one.url}: 71 branches new; 1 tag new; 1 fork/* not sent (ctx push --all sends it)\n`, stderr: '' });
    const sent = listing(one.dir);
    expect(sent).toEqual(listing(store).filter((l) => /^refs\/(heads|tags)\//.test(l) && !l.startsWith(`refs/heads/${scratch} `)));
    expect(sent.filter((l) => l.startsWith('refs/heads/')).map((l) => l.split(' ')[0])).toEqual(heads);
    // git push wrote the remote-tracking refs: one per branch sent, none for the fork
    expect(git(store, ['for-each-ref', '--format=%(refname)', 'refs/remotes/one/']).split('\n').filter(Boolean)).toEqual(heads.map((h) => h.replace('refs/heads/', 'refs/remotes/one/')));

    // the remote holds s/00 at another commit: that branch is refused, the other 70 still go (ref by ref)
    const two = served.repo(`g${++n}.git`);
    ok(ctx(store, ['remote', 'add', 'two', two.url]));
    git(store, ['push', '-q', two.url, `${b}:refs/heads/s/00`]);
    const r = ctx(store, ['push', 'two']);
    expect([r.code, r.stdout]).toEqual([1, `To ${two.url}: 70 branches new, 1 rejected: diverged; 1 tag new; 1 fork/* not sent (ctx push --all sends it)\n`]);
    expect(listing(two.dir)).toEqual(sent.map((l) => (l === `refs/heads/s/00 ${a}` ? `refs/heads/s/00 ${b}` : l)));
  });
});
