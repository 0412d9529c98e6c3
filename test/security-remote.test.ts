// A hostile remote (issue 20, item 9): a branch that is another tool's commit is skipped with one
// warning, not an exit 5 for the whole store; 5,000 remote branches become no local ones unless
// named, and listing stays bounded; a forged save record is skipped, naming its tag.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXED_ENV, ctx, git, newStore, tempDir, type Run } from './helpers.js';

function ok(r: Run): Run {
  if (r.code !== 0) throw new Error(`exit ${r.code}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`);
  return r;
}

/** One checkpoint with distinct content; returns the full commit id. */
function commit(store: string, branch: string, text: string): string {
  const r = ctx(store, ['checkpoint', '-b', branch, '--format', 'claude-code-v1', '--json', '-'], {
    input: `${JSON.stringify({ type: 'user', message: { role: 'user', content: text } })}\n`,
    env: FIXED_ENV,
  });
  expect(r.stderr).toBe('');
  return JSON.parse(r.stdout).id.slice(4);
}

function bareRepo(): string {
  const bare = join(tempDir(), 'remote.git');
  execFileSync('git', ['init', '-q', '--bare', bare]);
  return bare;
}

/** A commit made as anyone makes one: `git commit` in a work tree, no meta.json, no trailers. */
function plainCommit(): { dir: string; oid: string } {
  const dir = join(tempDir(), 'plain');
  mkdirSync(dir);
  const g = (args: string[]) => execFileSync('git', ['-C', dir, '-c', 'user.name=p', '-c', 'user.email=p@x', ...args], { encoding: 'utf8' });
  g(['init', '-q']);
  writeFileSync(join(dir, 'README'), 'not context\n');
  g(['add', 'README']);
  g(['commit', '-q', '-m', 'an ordinary commit']);
  return { dir, oid: g(['rev-parse', 'HEAD']).trim() };
}

const localBranches = (store: string) => git(store, ['for-each-ref', '--format=%(refname)', 'refs/heads/']).trim().split('\n').filter(Boolean);

describe('a remote branch that is a plain git commit', () => {
  it('log --all, branch and verify --all skip it with one warning line each and exit 0; pull never makes it a branch', () => {
    const store = newStore();
    const c = commit(store, 'main', 'one');
    const bare = bareRepo();
    ok(ctx(store, ['remote', 'add', 'origin', bare]));
    ok(ctx(store, ['push', '-v']));
    const plain = plainCommit();
    execFileSync('git', ['-C', plain.dir, 'push', '-q', bare, 'HEAD:refs/heads/x']);
    ok(ctx(store, ['fetch']));

    const warn = (name: string) => `ctx: warning: skipping ${name}: not a context commit (no meta.json)\n`;
    const log = ctx(store, ['log', '--all']);
    expect([log.code, log.stderr]).toEqual([0, warn('origin/x')]);
    expect(log.stdout).toMatch(new RegExp(`^ctx-${c.slice(0, 12)}\t`));
    expect(log.stdout.trim().split('\n')).toHaveLength(1);

    // it tracks nothing here: a pull leaves it remote-tracking only
    ok(ctx(store, ['pull', '-v']));
    expect(localBranches(store)).toEqual(['refs/heads/main']);
    // named, it is refused: a branch of ctx's is a context chain
    const named = ctx(store, ['pull', '-v', 'origin', 'x']);
    expect(named.code).toBe(1);
    expect(named.stdout).toContain(`rejected: not a context commit\trefs/heads/x\trefs/heads/x\t-\t-\n`);
    expect(named.stderr).toContain(`hint: x: origin/x (ctx-${plain.oid.slice(0, 12)}) has no meta.json: another tool's commit, left on origin/x\n`);
    expect(localBranches(store)).toEqual(['refs/heads/main']);

    // a local branch an older ctx pull (or native git) made of it
    git(store, ['update-ref', 'refs/heads/x', plain.oid]);
    const branch = ctx(store, ['branch']);
    expect([branch.code, branch.stdout, branch.stderr]).toEqual([0, `main\tctx-${c.slice(0, 12)}\n`, warn('x')]);
    const json = ctx(store, ['branch', '--json']);
    expect([json.code, json.stdout.trim().split('\n').map((l) => JSON.parse(l).name), json.stderr]).toEqual([0, ['main'], warn('x')]);
    const all = ctx(store, ['log', '--all']);
    expect([all.code, all.stdout.trim().split('\n').length, all.stderr]).toEqual([0, 1, warn('x') + warn('origin/x')]);
    const verify = ctx(store, ['verify', '--all']);
    expect([verify.code, verify.stdout, verify.stderr]).toEqual([0, 'ok 1 commits\n', warn('x')]);
  });

  it("a context chain whose tip lost its meta.json is still damage (exit 5), not another tool's branch", () => {
    const store = newStore();
    commit(store, 'main', 'one');
    const tip = git(store, ['rev-parse', 'main']).trim();
    // the same commit message (Ctx- trailers) over a tree without meta.json
    const tree = git(store, ['mktree']).trim();
    const msg = git(store, ['log', '-1', '--format=%B', tip]);
    const forged = execFileSync('git', ['--git-dir', store, 'commit-tree', tree, '-m', msg], {
      encoding: 'utf8',
      env: { ...process.env, GIT_AUTHOR_NAME: 'a', GIT_AUTHOR_EMAIL: 'a@x', GIT_COMMITTER_NAME: 'a', GIT_COMMITTER_EMAIL: 'a@x' },
    }).trim();
    git(store, ['update-ref', 'refs/heads/lost', forged]);
    const verify = ctx(store, ['verify', '--all']);
    expect(verify.code).toBe(5);
    expect(verify.stderr).toContain(`ctx-${forged.slice(0, 12)}: not a context commit (no meta.json)`);
    // listings go around it as around any broken ref (git's "ignoring broken ref"); verify fails on it
    expect(ctx(store, ['branch'])).toMatchObject({ code: 0, stderr: `ctx: warning: ignoring broken ref refs/heads/lost: its tip ctx-${forged.slice(0, 12)}: not a context commit (no meta.json)\n` });
  });
});

describe('a remote with 5,000 branches', () => {
  it('pull fast-forwards the branches that track and makes only the ones named; log --all -n 5 prints 5', () => {
    const store = newStore();
    for (let i = 0; i < 6; i++) commit(store, 'main', `turn ${i}`);
    const tip = git(store, ['rev-parse', 'main']).trim();
    const bare = bareRepo();
    ok(ctx(store, ['remote', 'add', 'origin', bare]));
    ok(ctx(store, ['push', '-v']));
    // built in one process: one ref transaction, packed
    const lines = Array.from({ length: 5_000 }, (_, i) => `create refs/heads/b/${String(i).padStart(5, '0')} ${tip}\n`).join('');
    execFileSync('git', ['--git-dir', bare, 'update-ref', '--stdin'], { input: lines });
    execFileSync('git', ['--git-dir', bare, 'pack-refs', '--all']);

    const pull = ok(ctx(store, ['pull', '-v']));
    expect(localBranches(store)).toEqual(['refs/heads/main']);
    // one record per remote-tracking ref fetched, then one for the branch that tracks
    expect(pull.stdout.split('\n').filter((l) => l.includes('\trefs/heads/main\trefs/heads/main\t'))).toEqual([`up to date\trefs/heads/main\trefs/heads/main\tctx-${tip.slice(0, 12)}\tctx-${tip.slice(0, 12)}`]);
    expect(git(store, ['rev-parse', 'refs/remotes/origin/b/01234']).trim()).toBe(tip);

    const named = ctx(store, ['pull', '-v', 'origin', 'b/00007', 'b/04999', 'nope']);
    expect(named.code).toBe(1);
    expect(named.stdout).toContain(`new\trefs/heads/b/00007\trefs/heads/b/00007\t-\tctx-${tip.slice(0, 12)}\n`);
    expect(named.stdout).toContain('rejected: no such branch on origin\trefs/heads/nope\trefs/heads/nope\t-\t-\n');
    expect(localBranches(store)).toEqual(['refs/heads/b/00007', 'refs/heads/b/04999', 'refs/heads/main']);
    expect(ctx(store, ['pull', '-v', 'origin', 'bad..name']).code).toBe(2);

    const log = ok(ctx(store, ['log', '--all', '-n', '5']));
    expect(log.stdout.trim().split('\n')).toHaveLength(5);
    expect(log.stderr).toBe('');
  }, 300_000);
});

/** A save tag forged with git: `record` is the Ctx-Save trailer's JSON as written. */
function forgeSave(store: string, name: string, record: string, description = 'forged'): void {
  const tip = git(store, ['rev-parse', 'agent']).trim();
  const body = `object ${tip}\ntype commit\ntag ${name}\ntagger mallory <m@x> 1767323045 +0000\n\n${description}\n\nCtx-Save: ${record}\n`;
  const oid = execFileSync('git', ['--git-dir', store, 'hash-object', '-t', 'tag', '-w', '--stdin'], { input: body, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }).trim();
  git(store, ['update-ref', `refs/tags/${name}`, oid]);
}

describe('save records', () => {
  const good = (fields: Record<string, unknown> = {}) =>
    JSON.stringify({ v: 1, branch: 'agent', saved_at: '2026-01-02T03:04:05.678Z', summary: 's', message_count: 1, token_count: 3, format: 'claude-code-v1', window: { since: null, stop: 'compaction', from: null, commits: 1 }, ...fields });

  it('a huge or non-integer count, a saved_at that is no time, a bad branch or a 2 MiB message are skipped with a warning naming the tag', () => {
    const store = newStore();
    commit(store, 'agent', 'one');
    forgeSave(store, 'fine', good());
    forgeSave(store, 'huge', good({ message_count: 1e308 }));
    forgeSave(store, 'half', good({ token_count: 1.5 }));
    forgeSave(store, 'when', good({ saved_at: 'yesterday' }));
    forgeSave(store, 'where', good({ branch: '../../x' }));
    forgeSave(store, 'big', good(), 'x'.repeat(2 * 1024 * 1024));
    const list = ctx(store, ['sessions']);
    expect(list.code).toBe(0);
    expect(list.stdout).toBe(`fine\tctx-${git(store, ['rev-parse', 'agent']).slice(0, 12)}\t2026-01-02T03:04:05.678Z\tagent\t1\tforged\n`);
    expect(list.stderr).toBe(
      'ctx: warning: skipping saved session big: its message is 2.0 MiB, over 1 MiB\n' +
        'ctx: warning: skipping saved session half: token_count is not a whole number from 0 (1.5)\n' +
        'ctx: warning: skipping saved session huge: message_count is not a whole number from 0 (1e+308)\n' +
        'ctx: warning: skipping saved session when: saved_at is not an ISO 8601 UTC time ("yesterday")\n' +
        'ctx: warning: skipping saved session where: branch is not a branch name ("../../x")\n',
    );
    const json = ctx(store, ['sessions', '--json']);
    expect([json.code, json.stdout.trim().split('\n').map((l) => JSON.parse(l).name), json.stderr]).toEqual([0, ['fine'], list.stderr]);
    // restore names what is wrong instead of using it
    const restore = ctx(store, ['restore', 'huge']);
    expect([restore.code, restore.stderr]).toEqual([5, 'ctx: saved session huge: message_count is not a whole number from 0 (1e+308)\n']);
  });

  it('a long description is cut with an ellipsis in the human view, whole in --json', () => {
    const store = newStore();
    commit(store, 'agent', 'one');
    forgeSave(store, 'long', good(), 'word '.repeat(20_000).trim());
    const list = ok(ctx(store, ['sessions']));
    const desc = list.stdout.trimEnd().split('\t')[5];
    expect(desc).toBe(`${'word '.repeat(39).trimEnd()}…`);
    expect(JSON.parse(ok(ctx(store, ['sessions', '--json'])).stdout).description).toHaveLength(99_999);
  });
});
