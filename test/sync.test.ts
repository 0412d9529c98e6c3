// ctx remote / push / fetch / pull against a real git server: `git http-backend` behind a CGI bridge
// on 127.0.0.1, local bare repos, and an ssh URL; with the git binary and without it (isomorphic-git).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXED_ENV, ctx, fsck, git, newStore, refSnapshot, tempDir, type Run } from './helpers.js';
import { createServedRepo, startGitServer, type GitServer } from './git-http-server.js';

let server: GitServer;
let authServer: GitServer;
let root: string;
let n = 0;
/** The environment of a ctx without git: PATH holds node and nothing else (set in beforeAll, read by the tests). */
const noGit: { PATH?: string } = {};

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'ctx-served-'));
  mkdirSync(join(root, 'open'));
  mkdirSync(join(root, 'auth'));
  server = await startGitServer(join(root, 'open'));
  authServer = await startGitServer(join(root, 'auth'), { auth: { user: 'bob', password: 'hunter2-secret' } });
  noGit.PATH = join(root, 'nogit-bin');
  mkdirSync(noGit.PATH);
  symlinkSync(process.execPath, join(noGit.PATH, 'node'));
});

afterAll(async () => {
  await server?.close();
  await authServer?.close();
  rmSync(root, { recursive: true, force: true });
});

/** A new empty repo on the server; returns its URL and its path on disk. */
function served(s = server): { url: string; dir: string } {
  const name = `r${++n}.git`;
  return { url: `${s.url}/${name}`, dir: createServedRepo(s.root, name) };
}

/** One checkpoint with distinct content; returns the full commit id. */
function commit(store: string, branch: string, text: string, env: Record<string, string> = {}): string {
  const r = ctx(store, ['checkpoint', '-b', branch, '--format', 'claude-code-v1', '--json', '-'], {
    input: `${JSON.stringify({ type: 'user', message: { role: 'user', content: text } })}\n`,
    env: { ...FIXED_ENV, ...env },
  });
  expect(r.stderr).toBe('');
  return JSON.parse(r.stdout).id.slice(4);
}

function ok(r: Run): Run {
  if (r.code !== 0) throw new Error(`exit ${r.code}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`);
  return r;
}

const lsRemote = (url: string) =>
  new Map(
    execFileSync('git', ['ls-remote', url], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((l) => l.split('\t').reverse() as [string, string]),
  );

/** The status column of the TAB-separated report, by ref. */
const statuses = (r: Run) => new Map(r.stdout.trim().split('\n').filter(Boolean).map((l) => [l.split('\t')[1], l.split('\t')[0]]));

const noteLines = (store: string, oid: string) => git(store, ['notes', '--ref', 'ctx', 'show', oid]).trim().split('\n').sort();

describe.each([
  ['git binary', {}],
  ['isomorphic-git (no git on PATH)', noGit],
] as const)('over HTTP with the %s', (_, env) => {
  it('scans the new commits as one text and still names each leaky one: a secret across two chunks, one in a summary after 4 MB of clean commits', () => {
    const store = newStore();
    const { url } = served();
    git(store, ['config', 'ctx.secrets', 'warn']); // stored as they are, so only the push-time scan stands in the way
    const token = 'ghp_' + 'q7Rk2mZp9XwL4vB8nT1cY6dF3hJ0sGaE5uQi'.slice(0, 36);
    const line = (text: string) => `${JSON.stringify({ type: 'user', message: { role: 'user', content: text } })}\n`;
    const big = (seed: string) => Array.from({ length: 90_000 }, (_, i) => `${seed}${i}`).join(' ').slice(0, 4_500_000);
    const checkpoint = (input: string, args: string[] = []) =>
      JSON.parse(ok(ctx(store, ['checkpoint', '-b', 'main', '--format', 'claude-code-v1', '--json', ...args, '-'], { input, env: FIXED_ENV })).stdout).id.slice(4) as string;
    const c1 = checkpoint(line(big('alpha')));
    // chunks of 1 KiB, the token starting 10 bytes before the first chunk ends
    git(store, ['config', 'ctx.maxBlobSize', '1024']);
    const head = line('').indexOf('""') + 1;
    const c2 = checkpoint(line(`${'x'.repeat(1024 - head - 11)} ${token} `.padEnd(3000, 'z')));
    git(store, ['config', '--unset', 'ctx.maxBlobSize']);
    const chunks = git(store, ['ls-tree', '-r', '--format=%(objectname)', c2]).trim().split('\n').map((oid) => git(store, ['cat-file', 'blob', oid]));
    expect(chunks.length).toBeGreaterThan(3);
    expect(chunks.some((c) => c.includes(token))).toBe(false);
    expect(chunks.join('')).toContain(token);
    const c3 = checkpoint(line(big('beta')));
    const c4 = checkpoint(line('a clean prompt'), ['--summary', `deploy with ${token}`]);
    ok(ctx(store, ['remote', 'add', 'origin', url], { env }));
    const blocked = ctx(store, ['push'], { env });
    expect([blocked.code, blocked.stderr]).toEqual([1, `ctx: push blocked: 2 commits new to the remote hold secrets: ctx-${c4.slice(0, 12)} (github-token), ctx-${c2.slice(0, 12)} (github-token)\n`]);
    expect(lsRemote(url).size).toBe(0);
    const [file] = readdirSync(join(store, 'ctx', 'scan'));
    expect(readFileSync(join(store, 'ctx', 'scan', file), 'utf8')).toBe(`${c3}\n${c1}\n`);
    ok(ctx(store, ['push', '--allow-secrets'], { env }));
    expect(lsRemote(url).get('refs/heads/main')).toBe(c4);
  });

  it('pushes branches and notes that native git clones, and reports up to date after', () => {
    const store = newStore();
    const { url } = served();
    const a1 = commit(store, 'claude/s-1', 'first');
    const a2 = commit(store, 'claude/s-1', 'second');
    ok(ctx(store, ['annotate', a1, '--summary', 'the start'], { env: FIXED_ENV }));
    ok(ctx(store, ['remote', 'add', 'origin', url], { env }));
    expect(ok(ctx(store, ['remote'], { env })).stdout).toBe(`origin\t${url}\n`);

    const push = ok(ctx(store, ['push', '-v'], { env }));
    expect(statuses(push)).toEqual(new Map([['refs/heads/claude/s-1', 'new'], ['refs/notes/ctx', 'new']]));
    const remote = lsRemote(url);
    expect(remote.get('refs/heads/claude/s-1')).toBe(a2);
    expect(remote.get('refs/notes/ctx')).toBe(git(store, ['rev-parse', 'refs/notes/ctx']).trim());
    // the push moved the remote-tracking refs, as git does
    expect(git(store, ['rev-parse', 'refs/remotes/origin/claude/s-1']).trim()).toBe(a2);

    const again = ok(ctx(store, ['push', '-v', 'origin', '--json'], { env }));
    const records = again.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(records.map((r) => [r.ref, r.status, r.ok])).toEqual([
      ['refs/heads/claude/s-1', 'up to date', true],
      ['refs/notes/ctx', 'up to date', true],
    ]);
    expect(Object.keys(records[0])).toEqual(['v', 'remote', 'ref', 'local', 'old', 'new', 'status', 'ok', 'diverged']);

    // a clone made by native git is a working context store
    const clone = join(tempDir(), 'other.ctx');
    execFileSync('git', ['clone', '-q', '--bare', url, clone]);
    execFileSync('git', ['--git-dir', clone, 'fetch', '-q', 'origin', 'refs/notes/ctx:refs/notes/ctx']);
    const log = ok(ctx(clone, ['--store', clone, 'log', '--all']));
    expect(log.stdout).toContain(`ctx-${a2.slice(0, 12)}`);
    expect(log.stdout).toContain('the start');
    ok(ctx(clone, ['verify', '--all']));
    expect(fsck(clone).code).toBe(0);
  });

  it('fetches a commit added on the server with native git; pull fast-forwards; log reads origin/BRANCH', () => {
    const store = newStore();
    const { url } = served();
    const a1 = commit(store, 'main', 'one');
    ok(ctx(store, ['remote', 'add', 'origin', url], { env }));
    ok(ctx(store, ['push', '-v'], { env }));

    // someone else adds a commit with native git (same tree, new message)
    const work = join(tempDir(), 'native.git');
    execFileSync('git', ['clone', '-q', '--bare', url, work]);
    const tree = git(work, ['rev-parse', 'main^{tree}']).trim();
    const native = execFileSync('git', ['--git-dir', work, 'commit-tree', tree, '-p', a1, '-m', 'added natively'], {
      encoding: 'utf8',
      env: { ...process.env, GIT_AUTHOR_NAME: 'n', GIT_AUTHOR_EMAIL: 'n@x', GIT_COMMITTER_NAME: 'n', GIT_COMMITTER_EMAIL: 'n@x' },
    }).trim();
    git(work, ['update-ref', 'refs/heads/main', native]);
    git(work, ['push', '-q', url, 'main']);

    const fetch = ok(ctx(store, ['fetch'], { env }));
    expect(fetch.stdout).toBe(`fast-forward\trefs/heads/main\trefs/remotes/origin/main\tctx-${a1.slice(0, 12)}\tctx-${native.slice(0, 12)}\n`);
    // fetch never moves a local branch
    expect(git(store, ['rev-parse', 'refs/heads/main']).trim()).toBe(a1);
    const log = ok(ctx(store, ['log', 'origin/main']));
    expect(log.stdout.split('\n')[0]).toMatch(new RegExp(`^ctx-${native.slice(0, 12)}\t`));

    const pull = ok(ctx(store, ['pull', '-v'], { env }));
    expect(statuses(pull).get('refs/heads/main')).toBe('fast-forward');
    expect(git(store, ['rev-parse', 'refs/heads/main']).trim()).toBe(native);
    expect(fsck(store).code).toBe(0);
  });

  it('two stores on one remote end with every commit and every annotation line', () => {
    const { url } = served();
    const [A, B] = [newStore(), newStore()];
    for (const s of [A, B]) ok(ctx(s, ['remote', 'add', 'origin', url], { env }));
    const a1 = commit(A, 'alice/a', 'a one', { CTX_PRINCIPAL: 'alice' });
    ok(ctx(A, ['annotate', a1, '--summary', 'alice says'], { env: { ...FIXED_ENV, CTX_PRINCIPAL: 'alice' } }));
    ok(ctx(A, ['push', '-v'], { env }));

    // a pull makes local only the branches named (the others stay origin/NAME)
    ok(ctx(B, ['pull', '-v', 'origin', 'alice/a'], { env }));
    const b1 = commit(B, 'bob/b', 'b one', { CTX_PRINCIPAL: 'bob' });
    ok(ctx(B, ['annotate', a1, '--summary', 'bob on alice'], { env: { ...FIXED_ENV, CTX_PRINCIPAL: 'bob' } }));
    ok(ctx(B, ['annotate', b1, '--summary', 'bob says'], { env: { ...FIXED_ENV, CTX_PRINCIPAL: 'bob' } }));
    // meanwhile alice annotates again and pushes first
    ok(ctx(A, ['annotate', a1, '--label', 'reviewed'], { env: { ...FIXED_ENV, CTX_PRINCIPAL: 'alice' } }));
    ok(ctx(A, ['push', '-v'], { env }));

    const rejected = ctx(B, ['push', '-v'], { env });
    expect(rejected.code).toBe(1);
    expect(statuses(rejected)).toEqual(new Map([['refs/heads/alice/a', 'up to date'], ['refs/heads/bob/b', 'new'], ['refs/notes/ctx', 'rejected: diverged']]));
    expect(rejected.stderr).toContain('hint: refs/notes/ctx: ctx fetch origin merges');
    expect(statuses(ok(ctx(B, ['fetch'], { env }))).get('refs/notes/ctx')).toBe('merged');
    expect(statuses(ok(ctx(B, ['push', '-v'], { env }))).get('refs/notes/ctx')).toBe('fast-forward');
    ok(ctx(A, ['pull', '-v', 'origin', 'bob/b'], { env }));

    for (const s of [A, B]) {
      expect(git(s, ['rev-parse', 'refs/heads/alice/a', 'refs/heads/bob/b']).trim().split('\n')).toEqual([a1, b1]);
      expect(noteLines(s, a1).map((l) => JSON.parse(l).summary ?? JSON.parse(l).labels[0]).sort()).toEqual(['alice says', 'bob on alice', 'reviewed']);
      expect(noteLines(s, b1).map((l) => JSON.parse(l).summary)).toEqual(['bob says']);
      expect(fsck(s).code).toBe(0);
    }
    expect(git(A, ['rev-parse', 'refs/notes/ctx'])).toBe(git(B, ['rev-parse', 'refs/notes/ctx']));
  });

  it('divergence: the second push is rejected, the server is unchanged, fetch keeps both tips, pull keeps both', () => {
    const { url, dir } = served();
    const [A, B] = [newStore(), newStore()];
    for (const s of [A, B]) ok(ctx(s, ['remote', 'add', 'origin', url], { env }));
    const base = commit(A, 'main', 'base');
    ok(ctx(A, ['push', '-v'], { env }));
    ok(ctx(B, ['pull', '-v', 'origin', 'main'], { env }));
    const a2 = commit(A, 'main', 'alice next');
    const b2 = commit(B, 'main', 'bob next');
    ok(ctx(A, ['push', '-v'], { env }));
    const before = refSnapshot(dir);

    const push = ctx(B, ['push', '-v'], { env });
    expect(push.code).toBe(1);
    expect(push.stdout).toBe(`rejected: diverged\trefs/heads/main\trefs/heads/main\tctx-${a2.slice(0, 12)}\tctx-${b2.slice(0, 12)}\n`);
    expect(push.stderr).toContain('hint: main: ctx fetch origin: both tips are kept');
    expect(push.stderr).toMatch(/^ctx: push origin: 1 of 1 refs failed$/m);
    expect(refSnapshot(dir)).toBe(before);

    const fetch = ok(ctx(B, ['fetch', '--json'], { env }));
    const rec = JSON.parse(fetch.stdout.trim().split('\n')[0]);
    expect(rec).toMatchObject({ ref: 'refs/heads/main', local: 'refs/remotes/origin/main', old: base, new: a2, status: 'fast-forward', diverged: true });
    expect(git(B, ['rev-parse', 'refs/heads/main', 'refs/remotes/origin/main']).trim().split('\n')).toEqual([b2, a2]);

    const pull = ctx(B, ['pull', '-v'], { env });
    expect(pull.code).toBe(1);
    expect(statuses(pull).get('refs/heads/main')).toBe('rejected: diverged');
    expect(git(B, ['rev-parse', 'refs/heads/main']).trim()).toBe(b2);
    expect(ok(ctx(B, ['log', 'origin/main'])).stdout).toContain(`ctx-${base.slice(0, 12)}`);
    expect(git(B, ['merge-base', '--is-ancestor', base, b2]) === '').toBe(true);
  });
});

describe('through the git binary only', () => {
  it('pushes to and fetches from a local bare repository path', () => {
    const store = newStore();
    const bare = join(tempDir(), 'shared.git');
    execFileSync('git', ['init', '-q', '--bare', bare]);
    const c = commit(store, 'main', 'local path');
    ok(ctx(store, ['remote', 'add', 'shared', bare]));
    expect(statuses(ok(ctx(store, ['push', '-v', 'shared']))).get('refs/heads/main')).toBe('new');
    expect(lsRemote(bare).get('refs/heads/main')).toBe(c);
    expect(ok(ctx(store, ['fetch', 'shared'])).stdout).toContain('up to date\trefs/heads/main\trefs/remotes/shared/main');
  });

  it('blocks a push of commits that hold secrets unless --allow-secrets', () => {
    const store = newStore();
    const bare = join(tempDir(), 'shared.git');
    execFileSync('git', ['init', '-q', '--bare', bare]);
    ok(ctx(store, ['remote', 'add', 'origin', bare]));
    const clean = commit(store, 'main', 'nothing to hide');
    ok(ctx(store, ['push', '-v']));
    git(store, ['config', 'ctx.secrets', 'warn']); // stored as it is, so only the push-time scan stands in the way
    const token = 'ghp_' + 'q7Rk2mZp9XwL4vB8nT1cY6dF3hJ0sGaE5uQi'.slice(0, 36);
    const leaky = JSON.parse(ctx(store, ['checkpoint', '-b', 'main', '--format', 'claude-code-v1', '--json', '-'], { input: `${JSON.stringify({ type: 'user', message: { role: 'user', content: `my token is ${token}` } })}\n`, env: FIXED_ENV }).stdout).id.slice(4);
    const blocked = ctx(store, ['push', '-v']);
    expect(blocked.code).toBe(1);
    expect(blocked.stderr).toBe(`ctx: push blocked: 1 commit new to the remote hold secrets: ctx-${leaky.slice(0, 12)} (github-token)\n`);
    expect(blocked.stderr).not.toContain(token);
    expect(lsRemote(bare).get('refs/heads/main')).toBe(clean);
    ok(ctx(store, ['push', '-v', '--allow-secrets']));
    expect(lsRemote(bare).get('refs/heads/main')).toBe(leaky);
  });

  it('keeps the ids of commits it scanned clean (ctx/scan/clean-<rules>), never of one with a finding, and believes no file of other rules', () => {
    const store = newStore();
    const [a, b] = ['a.git', 'b.git'].map((n) => join(tempDir(), n));
    for (const [name, dir] of [['a', a], ['b', b]]) {
      execFileSync('git', ['init', '-q', '--bare', dir]);
      ok(ctx(store, ['remote', 'add', name, dir]));
    }
    const clean = commit(store, 'main', 'nothing to hide');
    ok(ctx(store, ['push', 'a']));
    const scan = join(store, 'ctx', 'scan');
    const [file] = readdirSync(scan);
    expect(readdirSync(scan)).toEqual([expect.stringMatching(/^clean-[0-9a-f]{16}$/)]);
    expect(readFileSync(join(scan, file), 'utf8')).toBe(`${clean}\n`);
    git(store, ['config', 'ctx.secrets', 'warn']);
    const token = 'ghp_' + 'q7Rk2mZp9XwL4vB8nT1cY6dF3hJ0sGaE5uQi'.slice(0, 36);
    const leaky = JSON.parse(ctx(store, ['checkpoint', '-b', 'main', '--format', 'claude-code-v1', '--json', '-'], { input: `${JSON.stringify({ type: 'user', message: { role: 'user', content: `my token is ${token}` } })}\n`, env: FIXED_ENV }).stdout).id.slice(4);
    const refusal = `ctx: push blocked: 1 commit new to the remote hold secrets: ctx-${leaky.slice(0, 12)} (github-token)\n`;
    // refused to each remote and again: the clean commit is not read twice, the leaky one every time
    for (const remote of ['a', 'b', 'b']) {
      const r = ctx(store, ['push', remote]);
      expect([remote, r.code, r.stderr]).toEqual([remote, 1, refusal]);
    }
    expect(readFileSync(join(scan, file), 'utf8')).toBe(`${clean}\n`);
    // a file of other rules (or planted) says nothing: removed, and the push still refused
    writeFileSync(join(scan, 'clean-0000000000000000'), `${leaky}\n`);
    const again = ctx(store, ['push', 'b']);
    expect([again.code, again.stderr]).toEqual([1, refusal]);
    expect(readdirSync(scan)).toEqual([file]);
    expect(lsRemote(b).has('refs/heads/main')).toBe(false);
    expect(lsRemote(a).get('refs/heads/main')).toBe(clean);
  });

  it('runs ssh for ssh:// and scp-like URLs and prints no credential', () => {
    const store = newStore();
    commit(store, 'main', 'ssh');
    const dir = tempDir();
    const log = join(dir, 'ssh-args');
    const fake = join(dir, 'fake-ssh');
    writeFileSync(fake, `#!/bin/sh\necho "$@" >> ${log}\necho "ssh: connect to host: Connection refused" >&2\nexit 255\n`);
    chmodSync(fake, 0o755);
    ok(ctx(store, ['remote', 'add', 'origin', 'ssh://carol:pa55word@git.example.invalid:2222/team/ctx.git']));
    ok(ctx(store, ['remote', 'add', 'scp', 'git@git.example.invalid:team/ctx.git']));
    for (const name of ['origin', 'scp']) {
      const r = ctx(store, ['push', '-v', name], { env: { GIT_SSH_COMMAND: fake } });
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/^ctx: listing \w+ \(.*\) failed: .*Could not read from remote repository|^ctx: listing .* failed/m);
      expect(r.stderr + r.stdout).not.toContain('pa55word');
      expect(r.stderr.split('\n').filter(Boolean)).toHaveLength(1);
    }
    const args = readFileSync(log, 'utf8');
    expect(args).toContain('git.example.invalid');
    expect(args).toContain('git-upload-pack');
    expect(ok(ctx(store, ['remote'])).stdout).toContain('ssh://carol:***@git.example.invalid:2222/team/ctx.git');
  });

  it('uses credentials from the URL through git and never prints them', () => {
    const store = newStore();
    const { url } = served(authServer);
    const c = commit(store, 'main', 'auth');
    const withCreds = url.replace('http://', 'http://bob:hunter2-secret@');
    ok(ctx(store, ['remote', 'add', 'origin', withCreds]));
    const r = ok(ctx(store, ['push', '-v']));
    expect(r.stdout + r.stderr).not.toContain('hunter2');
    expect(lsRemote(withCreds).get('refs/heads/main')).toBe(c);
    ok(ctx(store, ['remote', 'add', 'wrong', url.replace('http://', 'http://bob:wrong-secret@')]));
    const bad = ctx(store, ['push', '-v', 'wrong']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('bob:***@');
    expect(bad.stderr).not.toContain('wrong-secret');
  });
});

describe('without git on PATH', () => {
  it('gives one clear error for local paths and ssh URLs', () => {
    const store = newStore();
    commit(store, 'main', 'x');
    ok(ctx(store, ['remote', 'add', 'here', '/srv/ctx.git'], { env: noGit }));
    ok(ctx(store, ['remote', 'add', 'far', 'ssh://u:topsecret@h/x.git'], { env: noGit }));
    const local = ctx(store, ['push', '-v', 'here'], { env: noGit });
    expect(local.code).toBe(1);
    expect(local.stderr).toBe('ctx: remote here is a local path URL (/srv/ctx.git): without the git binary on PATH only http(s) remotes work\n');
    const ssh = ctx(store, ['fetch', 'far'], { env: noGit });
    expect(ssh.code).toBe(1);
    expect(ssh.stderr).toBe('ctx: remote far is a ssh URL (ssh://u:***@h/x.git): without the git binary on PATH only http(s) remotes work\n');
    // the config the writer of our own made is what native git reads
    expect(git(store, ['config', '--get-all', 'remote.far.fetch']).trim().split('\n')).toEqual(['+refs/heads/*:refs/remotes/far/*', '+refs/notes/ctx*:refs/notes/remotes/far/ctx*']);
    ok(ctx(store, ['remote', 'remove', 'far'], { env: noGit }));
    expect(ok(ctx(store, ['remote'], { env: noGit })).stdout).toBe('here\t/srv/ctx.git\n');
  });

  it('authenticates with CTX_TOKEN and never prints it', () => {
    const store = newStore();
    const { url } = served(authServer);
    const c = commit(store, 'main', 'token');
    ok(ctx(store, ['remote', 'add', 'origin', url.replace('http://', 'http://bob@')], { env: noGit }));
    const denied = ctx(store, ['push', '-v'], { env: noGit });
    expect(denied.code).toBe(1);
    expect(denied.stderr).toMatch(/HTTP 401/);
    const r = ok(ctx(store, ['push', '-v'], { env: { ...noGit, CTX_TOKEN: 'hunter2-secret' } }));
    expect(r.stdout + r.stderr).not.toContain('hunter2');
    expect(lsRemote(url.replace('http://', 'http://bob:hunter2-secret@')).get('refs/heads/main')).toBe(c);
  });
});

/** Every file under a directory and its bytes, for "nothing written" checks. */
function treeSnapshot(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out.set(p, readFileSync(p).toString('base64'));
    }
  };
  walk(dir);
  return out;
}

/** One served repo with a pushed branch, made once: each case below only rewrites its crafted-refs. */
let crafted: { url: string; dir: string } | undefined;
function craftedRemote(): { url: string; dir: string } {
  if (!crafted) {
    const source = newStore();
    crafted = served();
    commit(source, 'main', 'served');
    ok(ctx(source, ['remote', 'add', 'origin', crafted.url]));
    ok(ctx(source, ['push', '-v']));
  }
  return crafted;
}

const badNames = [
  ['refs/heads/../../../../x', 'a branch that climbs out of the store'],
  ['refs/heads/../../../config', "a branch onto the store's config"],
  ['refs/tags/../../config', "a tag onto the store's config"],
  ['refs/tags/../../../x', 'a tag that climbs out of the store'],
  ['refs/heads/a..b', 'a name with ".."'],
] as const;

// Both transports refuse through the one checkAdvertisedRef (src/store/sync/transport-interface.ts):
// every name on the git binary, one on isomorphic-git to prove its listing reaches the check too.
describe.each([
  ['git binary', {}, badNames],
  ['isomorphic-git (no git on PATH)', noGit, badNames.slice(1, 2)],
] as const)('a remote that advertises ref names git refuses, with the %s', (_, env, names) => {
  it.each(names)('fetch, pull and push refuse %s (%s) before writing anything', (bad) => {
    const { url, dir } = craftedRemote();
    writeFileSync(join(dir, 'crafted-refs'), `${bad} refs/heads/main\n`);

    const store = newStore();
    const home = join(store, '..');
    writeFileSync(join(home, 'x'), 'keep\n');
    ok(ctx(store, ['remote', 'add', 'origin', url], { env }));
    const before = treeSnapshot(home);
    for (const cmd of ['fetch', 'pull', 'push']) {
      const r = ctx(store, [cmd], { env });
      expect([cmd, r.code, r.stdout, r.stderr]).toEqual([cmd, 1, '', `ctx: remote origin (${url}) advertises a bad ref name '${bad}'; nothing written\n`]);
      expect(treeSnapshot(home)).toEqual(before);
    }
  });
});

describe('remote URLs and names refused up front', () => {
  it("refuses git's fd:: and ext:: transports on add and, when native git configured them, on push, fetch and pull", () => {
    const store = newStore();
    commit(store, 'main', 'x');
    const fd = "ctx: unsupported remote URL fd::3: git's fd:: transport is not supported (git would wait forever on file descriptors ctx never passes)\n";
    const ext = "ctx: unsupported remote URL ext::sh -c true: git's ext:: transport is not supported (it runs a command named in the URL)\n";
    const config = readFileSync(join(store, 'config'), 'utf8');
    for (const [url, message] of [['fd::3', fd], ['ext::sh -c true', ext]]) {
      const r = ctx(store, ['remote', 'add', 'o', url]);
      expect([r.code, r.stdout, r.stderr]).toEqual([2, '', message]);
      expect(readFileSync(join(store, 'config'), 'utf8')).toBe(config);
    }
    git(store, ['config', 'remote.q.url', 'fd::3']);
    git(store, ['config', 'remote.q.fetch', '+refs/heads/*:refs/remotes/q/*']);
    const refsBefore = refSnapshot(store);
    for (const env of [{}, noGit])
      for (const cmd of ['push', 'fetch', 'pull']) {
        const r = ctx(store, [cmd, 'q'], { env });
        expect([cmd, r.code, r.stdout, r.stderr]).toEqual([cmd, 2, '', fd]);
      }
    expect(refSnapshot(store)).toBe(refsBefore);
  });

  it('refuses a remote name over 255 bytes, given or configured, naming the limit', () => {
    const store = newStore();
    const { url } = served();
    commit(store, 'main', 'x');
    const name = 'r'.repeat(256);
    const message = `ctx: bad remote name '${'r'.repeat(40)}…': longer than 255 bytes (256)\n`;
    const add = ctx(store, ['remote', 'add', name, url]);
    expect([add.code, add.stdout, add.stderr]).toEqual([2, '', message]);
    git(store, ['config', `remote.${name}.url`, url]);
    const refsBefore = refSnapshot(store);
    for (const cmd of ['push', 'fetch', 'pull']) {
      const r = ctx(store, [cmd, name]);
      expect([cmd, r.code, r.stdout, r.stderr]).toEqual([cmd, 2, '', message]);
    }
    expect(refSnapshot(store)).toBe(refsBefore);
    // 255 bytes is a name git and ctx both take
    ok(ctx(store, ['remote', 'add', 'r'.repeat(255), url]));
    ok(ctx(store, ['push', '-v', 'r'.repeat(255)]));
  });
});
