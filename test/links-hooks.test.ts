// `ctx hooks install git` and what its hooks do at `git commit`: sessions captured by `ctx hook
// claude-code` whose Edit/Write tool calls touched staged files name their context in the message
// (Ctx-Context, Assisted-by) and get a link record; amend and rebase carry the links; a forged
// trailer is never recorded. Real git repositories, a real store.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { appendFileSync, chmodSync, cpSync, existsSync, mkdirSync, readFileSync, readdirSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CTX, ctx, git, ROOT, tempDir } from './helpers.js';

const NOW = '2026-01-02T03:04:05.678Z';
const ENV = { CTX_NOW: NOW, CTX_PRINCIPAL: 'alice', CTX_MACHINE: 'box' };
const S1 = '11111111-2222-4333-8444-555555555551';
const S2 = '11111111-2222-4333-8444-555555555552';
const MODEL = 'claude-test-1';

/** The environment of a person's (or an agent's) git: fixed dates and names, no user or system config, no CTX_* but the clock. */
function gitEnv(home: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('CTX_') && !k.startsWith('GIT_')) env[k] = v;
  return {
    ...env,
    HOME: home,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: join(home, '.gitconfig'),
    GIT_AUTHOR_NAME: 'Dev',
    GIT_AUTHOR_EMAIL: 'dev@example.com',
    GIT_COMMITTER_NAME: 'Dev',
    GIT_COMMITTER_EMAIL: 'dev@example.com',
    GIT_AUTHOR_DATE: '2026-01-02T03:04:05Z',
    GIT_COMMITTER_DATE: '2026-01-02T03:04:05Z',
    GIT_EDITOR: 'true',
    ...ENV,
    ...extra,
  };
}

interface World {
  root: string;
  store: string;
  repo: string;
  env: NodeJS.ProcessEnv;
  g: (args: string[], o?: { cwd?: string; env?: Record<string, string> }) => string;
}

/** A store at <root>/.ctx, a code repository at <root>/repo (found from it by walking up) with a first commit. */
function world(): World {
  const root = realpathSync(tempDir());
  const store = join(root, '.ctx');
  const repo = join(root, 'repo');
  expect(ctx(store, ['init', store]).code).toBe(0);
  writeFileSync(join(root, '.gitconfig'), '');
  const env = gitEnv(root);
  const g = (args: string[], o: { cwd?: string; env?: Record<string, string> } = {}) => execFileSync('git', args, { cwd: o.cwd ?? repo, env: { ...env, ...o.env }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  execFileSync('git', ['init', '-q', '-b', 'main', repo], { env });
  for (const f of ['a.txt', 'b.txt', 'c.txt']) writeFileSync(join(repo, f), `${f} one\n`);
  g(['add', '.']);
  g(['commit', '-q', '-m', 'init']);
  return { root, store, repo, env, g };
}

/** `ctx ARGS` run where the user is (no CTX_STORE: the store is found by walking up). */
const run = (w: World, args: string[], cwd = w.repo, input?: string) => ctx(w.store, args, { cwd, input, env: { ...ENV, CTX_STORE: undefined, HOME: w.root, GIT_CONFIG_GLOBAL: join(w.root, '.gitconfig'), GIT_CONFIG_NOSYSTEM: '1' } });

let uuid = 0;
const line = (session: string, cwd: string, o: Record<string, unknown>) => `${JSON.stringify({ sessionId: session, cwd, uuid: `u${++uuid}`, timestamp: '2026-01-02T03:00:00.000Z', ...o })}\n`;
const prompt = (session: string, cwd: string, text: string) => line(session, cwd, { type: 'user', message: { role: 'user', content: text } });
const toolUse = (session: string, cwd: string, name: string, input: Record<string, unknown>) =>
  line(session, cwd, { type: 'assistant', message: { model: MODEL, id: `m${uuid}`, type: 'message', role: 'assistant', content: [{ type: 'tool_use', id: `tu${uuid}`, name, input }] } });

/** A Claude Code session in `cwd`: its transcript, and a Stop hook call captured as Claude Code would run it. */
function session(w: World, id: string, cwd: string, lines: string): string {
  const transcript = join(w.root, `${id}.jsonl`);
  writeFileSync(transcript, lines);
  stop(w, id, cwd, transcript);
  return transcript;
}

function stop(w: World, id: string, cwd: string, transcript: string) {
  const r = run(w, ['hook', 'claude-code'], cwd, JSON.stringify({ session_id: id, transcript_path: transcript, hook_event_name: 'Stop', cwd }));
  expect([r.code, r.stdout, r.stderr]).toEqual([0, '', '']);
}

const tipOf = (w: World, id: string) => git(w.store, ['rev-parse', `refs/heads/claude/${id}`]).trim();
/** The commit's message, exactly as stored. */
const message = (w: World, rev = 'HEAD', cwd = w.repo) => {
  const raw = w.g(['cat-file', 'commit', rev], { cwd });
  return raw.slice(raw.indexOf('\n\n') + 2);
};
const head = (w: World, cwd = w.repo) => w.g(['rev-parse', 'HEAD'], { cwd }).trim();
const trailers = (tip: string) => `Ctx-Context: ctx-${tip}\nAssisted-by: claude-code:${MODEL}\n`;
const hookLog = (w: World) => (existsSync(join(w.store, 'ctx', 'hook.log')) ? readFileSync(join(w.store, 'ctx', 'hook.log'), 'utf8') : '');

type Links = Record<string, [string, string, string | undefined, string[] | undefined][]>;

/** Every link record in the store's notes: code commit → [context, how, from, files]; first, a ctx process records what post-commit queued. */
function links(w: World): Links {
  expect(run(w, ['log', '-n', '0']).code).toBe(0);
  return noted(w);
}

/** The link records in the store's notes as they are now (nothing drained). */
function noted(w: World): Links {
  const out: Record<string, [string, string, string | undefined, string[] | undefined][]> = {};
  const list = spawnSync('git', ['--git-dir', w.store, 'notes', '--ref', 'ctx', 'list'], { encoding: 'utf8' }).stdout;
  for (const l of list.split('\n').filter(Boolean)) {
    const context = l.split(' ')[1];
    for (const rec of git(w.store, ['notes', '--ref', 'ctx', 'show', context]).split('\n').filter(Boolean)) {
      const r = JSON.parse(rec);
      if (r.link) (out[r.link.code] ??= []).push([context, r.link.how, r.link.from, r.link.files]);
    }
  }
  return out;
}

/** The hooks installed, a second worktree `wt2` on branch side, and a session in each that edited a.txt there; wt2's a.txt written. */
function twoWorktrees(): { w: World; wt: string } {
  const w = world();
  expect(run(w, ['hooks', 'install', 'git']).code).toBe(0);
  const wt = join(w.root, 'wt2');
  w.g(['worktree', 'add', '-q', '-b', 'side', wt]);
  session(w, S1, w.repo, prompt(S1, w.repo, 'main a') + toolUse(S1, w.repo, 'Edit', { file_path: join(w.repo, 'a.txt'), old_string: 'one', new_string: 'main' }));
  session(w, S2, wt, prompt(S2, wt, 'side a') + toolUse(S2, wt, 'Edit', { file_path: join(wt, 'a.txt'), old_string: 'one', new_string: 'side' }));
  writeFileSync(join(wt, 'a.txt'), 'side\n');
  return { w, wt };
}

const HOOKS = ['prepare-commit-msg', 'post-commit', 'post-rewrite'];
const COMMAND = `${process.execPath} ${CTX}`;

describe('ctx hooks install|uninstall|status git', () => {
  it('chains a hook already there (bytes and mode kept, run with its arguments, its failure still fails the commit), is idempotent, and uninstall restores it byte for byte', () => {
    const w = world();
    const hooks = join(w.repo, '.git', 'hooks');
    const own = '#!/bin/sh\necho "own $1 $2" >> "$(git rev-parse --git-dir)/own.log"\n[ -f FAIL ] && exit 3\nexit 0\n';
    writeFileSync(join(hooks, 'prepare-commit-msg'), own);
    chmodSync(join(hooks, 'prepare-commit-msg'), 0o750);

    const first = run(w, ['hooks', 'install', 'git']);
    expect([first.code, first.stdout, first.stderr]).toEqual([0, 'prepare-commit-msg\tchained\npost-commit\tctx\npost-rewrite\tctx\n', `installed in ${hooks}\n`]);
    expect(readFileSync(join(hooks, 'prepare-commit-msg.ctx-chained'), 'utf8')).toBe(own);
    expect(statSync(join(hooks, 'prepare-commit-msg.ctx-chained')).mode & 0o777).toBe(0o750);
    const script = readFileSync(join(hooks, 'prepare-commit-msg'), 'utf8');
    expect(script.split('\n').slice(0, 2)).toEqual(['#!/bin/sh', '# ctx git hook: links commits to the contexts that wrote them (ctx hooks install git; remove with ctx hooks uninstall git)']);
    expect(script).toContain(`${COMMAND} hook git prepare-commit-msg "$@" </dev/null >/dev/null 2>&1 || true\n`);
    for (const h of HOOKS) expect(statSync(join(hooks, h)).mode & 0o111).toBe(0o111);

    const bytes = HOOKS.map((h) => readFileSync(join(hooks, h)));
    const second = run(w, ['hooks', 'install', 'git']);
    expect([second.code, second.stderr]).toEqual([0, `${hooks}: nothing to change\n`]);
    expect(HOOKS.map((h) => readFileSync(join(hooks, h)))).toEqual(bytes);
    expect(readdirSync(hooks).filter((f) => f.includes('ctx')).sort()).toEqual(['prepare-commit-msg.ctx-chained']);
    const status = run(w, ['--json', 'hooks', 'status', 'git']);
    expect(JSON.parse(status.stdout)).toEqual({ v: 1, action: 'status', path: hooks, changed: false, installed: true, hooks: { 'prepare-commit-msg': 'chained', 'post-commit': 'ctx', 'post-rewrite': 'ctx' } });

    // the chained hook runs with git's arguments; when it fails, the commit fails as it did before ctx
    writeFileSync(join(w.repo, 'a.txt'), 'two\n');
    w.g(['commit', '-q', '-am', 'two']);
    expect(readFileSync(join(w.repo, '.git', 'own.log'), 'utf8')).toBe('own .git/COMMIT_EDITMSG message\n');
    writeFileSync(join(w.repo, 'FAIL'), '');
    writeFileSync(join(w.repo, 'a.txt'), 'three\n');
    const failed = spawnSync('git', ['commit', '-q', '-am', 'three'], { cwd: w.repo, env: w.env, encoding: 'utf8' });
    expect(failed.status).not.toBe(0);
    expect(message(w)).toBe('two\n');

    const gone = run(w, ['hooks', 'uninstall', 'git']);
    expect([gone.code, gone.stdout, gone.stderr]).toEqual([0, 'prepare-commit-msg\tother\npost-commit\tabsent\npost-rewrite\tabsent\n', `removed from ${hooks}\n`]);
    expect(readFileSync(join(hooks, 'prepare-commit-msg'), 'utf8')).toBe(own);
    expect(statSync(join(hooks, 'prepare-commit-msg')).mode & 0o777).toBe(0o750);
    expect(readdirSync(hooks).filter((f) => f.includes('ctx') || HOOKS.includes(f)).sort()).toEqual(['prepare-commit-msg']);
  });

  it('honours core.hooksPath inside the repository (husky) and refuses one outside it (exit 2, nothing written)', () => {
    const w = world();
    w.g(['config', 'core.hooksPath', '.husky/_']);
    const r = run(w, ['hooks', 'install', 'git'], join(w.repo));
    expect(r.code).toBe(0);
    const dir = join(w.repo, '.husky', '_');
    expect(HOOKS.map((h) => existsSync(join(dir, h)))).toEqual([true, true, true]);
    expect(existsSync(join(w.repo, '.git', 'hooks', 'post-commit'))).toBe(false);

    const global = join(w.root, 'global-hooks');
    w.g(['config', 'core.hooksPath', global]);
    const refused = run(w, ['hooks', 'install', 'git']);
    expect([refused.code, refused.stdout, refused.stderr]).toEqual([2, '', `ctx: core.hooksPath points outside this repository (${global}): ctx installs git hooks only inside it; set core.hooksPath in this repository or unset it, then run again\n`]);
    expect(existsSync(global)).toBe(false);
  });
});

describe('git commit with ctx hooks installed', () => {
  it('names the caught-up context of the session that edited a staged file (exact message), records the link, and names none on a commit of a file no session touched', () => {
    const w = world();
    expect(run(w, ['hooks', 'install', 'git']).code).toBe(0);
    const t = session(w, S1, w.repo, prompt(S1, w.repo, 'fix a'));
    const before = tipOf(w, S1);
    // the edit is in the transcript only: no hook ran since, the commit catches it up
    appendFileSync(t, toolUse(S1, w.repo, 'Edit', { file_path: join(w.repo, 'a.txt'), old_string: 'one', new_string: 'two' }));
    writeFileSync(join(w.repo, 'a.txt'), 'a.txt two\n');
    mkdirSync(join(w.repo, 'sub'));
    // as the agent runs it through its shell tool: from a directory inside the worktree
    w.g(['commit', '-q', '-am', 'fix a'], { cwd: join(w.repo, 'sub') });
    const tip = tipOf(w, S1);
    expect(tip).not.toBe(before);
    expect(git(w.store, ['rev-parse', `${tip}^`]).trim()).toBe(before);
    expect(message(w)).toBe(`fix a\n\n${trailers(tip)}`);
    expect(links(w)).toEqual({ [head(w)]: [[tip, 'recorded', undefined, ['a.txt']]] });
    expect(existsSync(join(w.repo, '.git', 'ctx-pending.json'))).toBe(false);

    writeFileSync(join(w.repo, 'b.txt'), 'b.txt two\n');
    w.g(['commit', '-q', '-am', 'fix b']);
    expect(message(w)).toBe('fix b\n');
    // the session's edits are linked already: a later commit of the same file is not the session's
    writeFileSync(join(w.repo, 'a.txt'), 'a.txt by hand\n');
    w.g(['commit', '-q', '-am', 'by hand']);
    expect(message(w)).toBe('by hand\n');
    expect(Object.keys(links(w))).toHaveLength(1);
    expect(hookLog(w)).toBe('');
  });

  it("a person's commit of a file a session wrote names the session only when it holds the session's lines (its own commit went in without ctx's hooks)", () => {
    const w = world();
    expect(run(w, ['hooks', 'install', 'git']).code).toBe(0);
    const body = 'export const greeting = "hello from the agent";\n';
    session(w, S1, w.repo, prompt(S1, w.repo, 'write g') + toolUse(S1, w.repo, 'Write', { file_path: join(w.repo, 'g.ts'), content: body }));
    writeFileSync(join(w.repo, 'g.ts'), body);
    w.g(['add', 'g.ts']);
    // as Gemini CLI's shell runs git (hooks off): the agent's commit is not linked
    w.g(['-c', 'core.hooksPath=/dev/null', 'commit', '-q', '-m', 'agent g']);
    appendFileSync(join(w.repo, 'g.ts'), 'export const byHand = "written by a person";\n');
    w.g(['commit', '-q', '-am', 'by hand']);
    expect(message(w)).toBe('by hand\n');
    expect(links(w)).toEqual({});
    // the session's own line staged again (reverted, then restored) is borne out
    w.g(['-c', 'core.hooksPath=/dev/null', 'rm', '-q', 'g.ts']);
    w.g(['-c', 'core.hooksPath=/dev/null', 'commit', '-q', '-m', 'gone']);
    writeFileSync(join(w.repo, 'g.ts'), body);
    w.g(['add', 'g.ts']);
    w.g(['commit', '-q', '-m', 'back']);
    expect(message(w)).toBe(`back\n\n${trailers(tipOf(w, S1))}`);
  });

  it("an agent's commit through its shell tool in the turn that wrote the file names its session before any hook of the runtime ran (the session id in the shell's environment)", () => {
    const w = world();
    expect(run(w, ['hooks', 'install', 'git']).code).toBe(0);
    const config = join(w.root, 'claude-config');
    const dir = join(config, 'projects', w.repo.replace(/[^A-Za-z0-9]/g, '-'));
    mkdirSync(dir, { recursive: true });
    const body = 'export const first = "written in the first turn";\n';
    writeFileSync(join(dir, `${S1}.jsonl`), prompt(S1, w.repo, 'write f') + toolUse(S1, w.repo, 'Write', { file_path: join(w.repo, 'f.ts'), content: body }));
    writeFileSync(join(w.repo, 'f.ts'), body);
    w.g(['add', 'f.ts']);
    w.g(['commit', '-q', '-m', 'first turn'], { env: { CLAUDE_CODE_SESSION_ID: S1, CLAUDE_CONFIG_DIR: config } });
    const tip = tipOf(w, S1);
    expect(message(w)).toBe(`first turn\n\n${trailers(tip)}`);
    expect(links(w)).toEqual({ [head(w)]: [[tip, 'recorded', undefined, ['f.ts']]] });
    // a person's commit from a shell of their own names nobody
    appendFileSync(join(w.repo, 'f.ts'), 'export const later = "typed by a person";\n');
    w.g(['commit', '-q', '-am', 'by hand']);
    expect(message(w)).toBe('by hand\n');
    expect(hookLog(w)).toBe('');
  });

  it('a commit with no work for ctx runs dist/commit.cjs alone; one with work loads dist/hook.cjs, and without it the commit is made and the failure logged', () => {
    // a copy of the files a git hook reads, its prepare-commit-msg pointed there
    const copy = tempDir();
    cpSync(join(ROOT, 'bin'), join(copy, 'bin'), { recursive: true });
    mkdirSync(join(copy, 'dist', 'chunks'), { recursive: true });
    for (const f of ['cli.cjs', 'commit.cjs', 'commit.cache', 'hook.cjs', 'hook.git.cache', 'chunks/cl100k_base.ranks']) cpSync(join(ROOT, 'dist', f), join(copy, 'dist', f));
    const w = world();
    expect(run(w, ['hooks', 'install', 'git']).code).toBe(0);
    const script = join(w.repo, '.git', 'hooks', 'prepare-commit-msg');
    writeFileSync(script, readFileSync(script, 'utf8').replace(realpathSync(CTX), join(copy, 'bin', 'ctx')));
    const t = session(w, S1, w.repo, prompt(S1, w.repo, 'fix a'));
    appendFileSync(t, toolUse(S1, w.repo, 'Edit', { file_path: join(w.repo, 'a.txt'), old_string: 'one', new_string: 'two' }));
    writeFileSync(join(w.repo, 'a.txt'), 'a.txt two\n');
    w.g(['commit', '-q', '-am', 'fix a']);
    const tip = tipOf(w, S1);
    expect(message(w)).toBe(`fix a\n\n${trailers(tip)}`);
    expect(links(w)).toEqual({ [head(w)]: [[tip, 'recorded', undefined, ['a.txt']]] });
    rmSync(join(copy, 'dist', 'hook.cjs'));
    // the session is linked and has written nothing since, nothing is queued: no work, dist/hook.cjs not needed
    writeFileSync(join(w.repo, 'b.txt'), 'b.txt two\n');
    w.g(['commit', '-q', '-am', 'fix b']);
    expect(message(w)).toBe('fix b\n');
    expect(hookLog(w)).toBe('');
    // the session edits c.txt: work, whose bundle is gone; the commit is made all the same
    appendFileSync(t, toolUse(S1, w.repo, 'Edit', { file_path: join(w.repo, 'c.txt'), old_string: 'one', new_string: 'two' }));
    writeFileSync(join(w.repo, 'c.txt'), 'c.txt two\n');
    w.g(['commit', '-q', '-am', 'fix c']);
    expect(message(w)).toBe('fix c\n');
    expect(hookLog(w)).toMatch(new RegExp(`^[^\t]+\tgit\tprepare-commit-msg\tENOENT: no such file or directory, open '${join(copy, 'dist', 'hook.cjs')}'\n$`));
  });

  it("a repository whose HEAD is packed (git gc) links as one read in-process: its HEAD, site and config are then git's", () => {
    const w = world();
    expect(run(w, ['hooks', 'install', 'git']).code).toBe(0);
    w.g(['config', 'remote.origin.url', 'https://example.com/a.git']);
    w.g(['gc', '-q']);
    expect(existsSync(join(w.repo, '.git', 'objects', 'pack'))).toBe(true);
    session(w, S1, w.repo, prompt(S1, w.repo, 'fix a') + toolUse(S1, w.repo, 'Edit', { file_path: join(w.repo, 'a.txt'), old_string: 'one', new_string: 'two' }));
    writeFileSync(join(w.repo, 'a.txt'), 'a.txt two\n');
    w.g(['commit', '-q', '-am', 'fix a']);
    const tip = tipOf(w, S1);
    expect(message(w)).toBe(`fix a\n\n${trailers(tip)}`);
    const sha = head(w);
    w.g(['gc', '-q']);
    // the next commit records the queued one (its repository named by origin), HEAD packed again
    writeFileSync(join(w.repo, 'b.txt'), 'b.txt two\n');
    w.g(['commit', '-q', '-am', 'fix b']);
    expect(message(w)).toBe('fix b\n');
    expect(noted(w)).toEqual({ [sha]: [[tip, 'recorded', undefined, ['a.txt']]] });
    expect(JSON.parse(git(w.store, ['notes', '--ref', 'ctx', 'show', tip]).split('\n')[0]).link.repo).toBe('https://example.com/a.git');
    expect(hookLog(w)).toBe('');
  });

  it('with --no-verify too, and a Write through a path relative to the session directory', () => {
    const w = world();
    expect(run(w, ['hooks', 'install', 'git']).code).toBe(0);
    session(w, S1, w.repo, prompt(S1, w.repo, 'write c') + toolUse(S1, w.repo, 'Write', { file_path: 'c.txt', content: 'c.txt two\n' }));
    writeFileSync(join(w.repo, 'c.txt'), 'c.txt two\n');
    w.g(['commit', '-q', '--no-verify', '-am', 'write c']);
    const tip = tipOf(w, S1);
    expect(message(w)).toBe(`write c\n\n${trailers(tip)}`);
    expect(links(w)).toEqual({ [head(w)]: [[tip, 'recorded', undefined, ['c.txt']]] });
  });

  it('two sessions in two worktrees of one repository each link only their own commit', () => {
    const { w, wt } = twoWorktrees();
    w.g(['commit', '-q', '-am', 'side a'], { cwd: wt });
    writeFileSync(join(w.repo, 'a.txt'), 'main\n');
    w.g(['commit', '-q', '-am', 'main a']);
    expect(message(w, 'HEAD', wt)).toBe(`side a\n\n${trailers(tipOf(w, S2))}`);
    expect(message(w)).toBe(`main a\n\n${trailers(tipOf(w, S1))}`);
    expect(links(w)).toEqual({ [head(w, wt)]: [[tipOf(w, S2), 'recorded', undefined, ['a.txt']]], [head(w)]: [[tipOf(w, S1), 'recorded', undefined, ['a.txt']]] });
  });

  it('amend and rebase -i with a squash keep the links: the new commits have them, rewritten from the old; a chained post-rewrite gets the same input', () => {
    const w = world();
    const own = join(w.repo, '.git', 'hooks', 'post-rewrite');
    writeFileSync(own, '#!/bin/sh\ncat >> "$(git rev-parse --git-dir)/rewritten.log"\n');
    chmodSync(own, 0o755);
    expect(run(w, ['hooks', 'install', 'git']).code).toBe(0);
    const t = session(w, S1, w.repo, prompt(S1, w.repo, 'a') + toolUse(S1, w.repo, 'Edit', { file_path: join(w.repo, 'a.txt'), old_string: 'one', new_string: 'two' }));
    writeFileSync(join(w.repo, 'a.txt'), 'two\n');
    w.g(['commit', '-q', '-am', 'a']);
    const first = head(w);
    const tipA = tipOf(w, S1);
    w.g(['commit', '-q', '--amend', '-m', `a, amended\n\n${trailers(tipA)}`], { env: { GIT_COMMITTER_DATE: '2026-01-02T03:05:00Z' } });
    const amended = head(w);
    expect(amended).not.toBe(first);
    expect(readFileSync(join(w.repo, '.git', 'rewritten.log'), 'utf8')).toBe(`${first} ${amended}\n`);
    // the trailer is there once
    expect(message(w)).toBe(`a, amended\n\n${trailers(tipA)}`);

    appendFileSync(t, toolUse(S1, w.repo, 'Edit', { file_path: join(w.repo, 'b.txt'), old_string: 'one', new_string: 'two' }));
    writeFileSync(join(w.repo, 'b.txt'), 'two\n');
    w.g(['commit', '-q', '-am', 'b']);
    const second = head(w);
    const tipB = tipOf(w, S1);
    expect(message(w)).toBe(`b\n\n${trailers(tipB)}`);

    w.g(['rebase', '-q', '-i', 'HEAD~2'], { env: { GIT_SEQUENCE_EDITOR: "sed -i -e '2s/^pick/squash/'", GIT_COMMITTER_DATE: '2026-01-02T03:06:00Z' } });
    const squashed = head(w);
    expect(w.g(['rev-list', '--count', 'HEAD']).trim()).toBe('2');
    const all = links(w);
    expect(all[first]).toEqual([[tipA, 'recorded', undefined, ['a.txt']]]);
    expect(all[amended]).toEqual([[tipA, 'rewritten', first, ['a.txt']]]);
    expect(all[second]).toEqual([[tipB, 'recorded', undefined, ['b.txt']]]);
    expect(all[squashed].sort()).toEqual([[tipA, 'rewritten', amended, ['a.txt']], [tipB, 'rewritten', second, ['b.txt']]].sort());
    // the squash kept both trailers and added none
    expect(message(w)).toBe(`a, amended\n\n${trailers(tipA)}\nb\n\n${trailers(tipB)}`);
    expect(hookLog(w)).toBe('');
  });

  it('git config ctx.links false: no trailer, no link, no pending file', () => {
    const w = world();
    expect(run(w, ['hooks', 'install', 'git']).code).toBe(0);
    w.g(['config', 'ctx.links', 'false']);
    session(w, S1, w.repo, prompt(S1, w.repo, 'a') + toolUse(S1, w.repo, 'Edit', { file_path: join(w.repo, 'a.txt'), old_string: 'one', new_string: 'two' }));
    writeFileSync(join(w.repo, 'a.txt'), 'two\n');
    w.g(['commit', '-q', '-am', 'a']);
    expect(message(w)).toBe('a\n');
    expect(links(w)).toEqual({});
    expect(existsSync(join(w.repo, '.git', 'ctx-pending.json'))).toBe(false);
  });

  it('a Ctx-Context naming a context that never touched the files is not recorded; a cherry-pick of a linked commit is, once verified', () => {
    const w = world();
    expect(run(w, ['hooks', 'install', 'git']).code).toBe(0);
    // S2 edited c.txt only: claiming it for a commit of b.txt is a lie
    session(w, S2, w.repo, prompt(S2, w.repo, 'c') + toolUse(S2, w.repo, 'Edit', { file_path: join(w.repo, 'c.txt'), old_string: 'one', new_string: 'two' }));
    const unrelated = tipOf(w, S2);
    writeFileSync(join(w.repo, 'b.txt'), 'b two\n');
    w.g(['commit', '-q', '-am', `b\n\nCtx-Context: ctx-${unrelated}\nCtx-Context: ctx-${'e'.repeat(40)}`]);
    expect(links(w)).toEqual({});

    // S1 edits a.txt on a branch; the commit picked onto main carries its trailer, verified against a.txt
    w.g(['checkout', '-q', '-b', 'topic']);
    session(w, S1, w.repo, prompt(S1, w.repo, 'a') + toolUse(S1, w.repo, 'Edit', { file_path: join(w.repo, 'a.txt'), old_string: 'one', new_string: 'two' }));
    writeFileSync(join(w.repo, 'a.txt'), 'two\n');
    w.g(['commit', '-q', '-am', 'a']);
    const picked = head(w);
    w.g(['checkout', '-q', 'main']);
    w.g(['cherry-pick', picked], { env: { GIT_COMMITTER_DATE: '2026-01-02T03:07:00Z' } });
    const copy = head(w);
    expect(copy).not.toBe(picked);
    expect(message(w)).toBe(`a\n\n${trailers(tipOf(w, S1))}`);
    expect(links(w)).toEqual({ [picked]: [[tipOf(w, S1), 'recorded', undefined, ['a.txt']]], [copy]: [[tipOf(w, S1), 'recorded', undefined, ['a.txt']]] });
  });

  it('the hook exits 0 and the commit goes through when the store is broken', () => {
    const w = world();
    expect(run(w, ['hooks', 'install', 'git']).code).toBe(0);
    session(w, S1, w.repo, prompt(S1, w.repo, 'a') + toolUse(S1, w.repo, 'Edit', { file_path: join(w.repo, 'a.txt'), old_string: 'one', new_string: 'two' }));
    // every object gone, the repository's shape kept: reading the session fails
    for (const d of readdirSync(join(w.store, 'objects'))) if (d !== 'info' && d !== 'pack') rmSync(join(w.store, 'objects', d), { recursive: true, force: true });
    writeFileSync(join(w.repo, 'a.txt'), 'two\n');
    w.g(['commit', '-q', '-am', 'a']);
    expect(message(w)).toBe('a\n');
    const direct = run(w, ['hook', 'git', 'prepare-commit-msg', '.git/COMMIT_EDITMSG', 'message']);
    expect([direct.code, direct.stdout, direct.stderr]).toEqual([0, '', '']);
    expect(hookLog(w)).toMatch(/\tgit\tprepare-commit-msg\t/);
  });

  it('a Gemini CLI session (AfterAgent hook, a write_file through a relative path) names its context and its runtime (its model is not in meta.json: unknown)', () => {
    const w = world();
    expect(run(w, ['hooks', 'install', 'git']).code).toBe(0);
    const id = 'aaaa1111-2222-4333-8444-555566667777';
    const file = join(w.root, 'session-2026-01-10T09-00-aaaa1111.jsonl');
    const rec = (o: Record<string, unknown>) => `${JSON.stringify(o)}\n`;
    writeFileSync(
      file,
      rec({ sessionId: id, projectHash: 'p', startTime: '2026-01-10T09:00:00.000Z', lastUpdated: '2026-01-10T09:00:00.000Z', kind: 'main' }) +
        rec({ id: 'u1', timestamp: '2026-01-10T09:00:01.000Z', type: 'user', content: [{ text: 'Write c.txt' }] }) +
        rec({ id: 'g1', timestamp: '2026-01-10T09:00:02.000Z', type: 'gemini', content: '', model: 'gemini-2.5-pro', toolCalls: [{ id: 'w-1', name: 'write_file', args: { file_path: 'c.txt', content: 'c.txt two\n' }, status: 'success', timestamp: '2026-01-10T09:00:02.000Z' }] }),
    );
    const r = run(w, ['hook', 'gemini-cli'], w.repo, JSON.stringify({ session_id: id, transcript_path: file, cwd: w.repo, hook_event_name: 'AfterAgent' }));
    expect([r.code, r.stdout, r.stderr]).toEqual([0, '', '']);
    writeFileSync(join(w.repo, 'c.txt'), 'c.txt two\n');
    w.g(['commit', '-q', '-am', 'c']);
    const tip = git(w.store, ['rev-parse', `refs/heads/gemini/${id}`]).trim();
    expect(message(w)).toBe(`c\n\nCtx-Context: ctx-${tip}\nAssisted-by: gemini-cli:unknown\n`);
    expect(links(w)).toEqual({ [head(w)]: [[tip, 'recorded', undefined, ['c.txt']]] });
    expect(hookLog(w)).toBe('');
  });
});

describe('the commit queue: post-commit starts no node, the next ctx process records', () => {
  const queue = (w: World, gitdir = join(w.repo, '.git')) => (existsSync(join(gitdir, 'ctx-queue')) ? readFileSync(join(gitdir, 'ctx-queue'), 'utf8') : null);
  const edit = (w: World, t: string, file: string, from: string, to: string) => {
    appendFileSync(t, toolUse(S1, w.repo, 'Edit', { file_path: join(w.repo, file), old_string: from, new_string: to }));
    writeFileSync(join(w.repo, file), `${file} ${to}\n`);
  };
  /** The hooks installed and one commit of a.txt, which session S1 edited. */
  const linkedCommit = () => {
    const w = world();
    expect(run(w, ['hooks', 'install', 'git']).code).toBe(0);
    const t = session(w, S1, w.repo, prompt(S1, w.repo, 'fix a'));
    edit(w, t, 'a.txt', 'one', 'two');
    w.g(['commit', '-q', '-am', 'fix a']);
    return { w, t };
  };

  it('a linked commit waits in ctx-queue (one line: its id and what prepare-commit-msg knew); the next commit records it, then its own waits', () => {
    const { w, t } = linkedCommit();
    const first = head(w);
    const tipA = tipOf(w, S1);
    const line = queue(w)!;
    expect(line.split('\n')).toEqual([expect.stringMatching(new RegExp(`^${first} \\{"v":1,`)), '']);
    expect(JSON.parse(line.slice(41))).toMatchObject({ store: w.store, top: w.repo, contexts: [{ context: tipA, runtime: 'claude-code', session: S1, files: ['a.txt'] }], claimed: [] });
    expect(noted(w)).toEqual({});
    expect(existsSync(join(w.repo, '.git', 'ctx-pending.json'))).toBe(false);

    edit(w, t, 'b.txt', 'one', 'two');
    w.g(['commit', '-q', '-am', 'fix b']);
    const tipB = tipOf(w, S1);
    // the first is recorded, and the session's linked mark moved: the second names only the new edit (b.txt)
    expect(noted(w)).toEqual({ [first]: [[tipA, 'recorded', undefined, ['a.txt']]] });
    expect(queue(w)!.startsWith(`${head(w)} `)).toBe(true);
    expect(JSON.parse(queue(w)!.slice(41)).contexts).toEqual([{ context: tipB, runtime: 'claude-code', session: S1, files: ['b.txt'] }]);
    expect(readdirSync(join(w.repo, '.git')).filter((f) => f.startsWith('ctx-'))).toEqual(['ctx-queue']);
    expect(hookLog(w)).toBe('');
  });

  it("a commit reads the session's chain only back to its last linked commit: with the chain's first commit gone from the store, the next edit is still linked", () => {
    const { w, t } = linkedCommit();
    const tipA = tipOf(w, S1);
    const root = git(w.store, ['rev-list', '--max-parents=0', tipA]).trim();
    expect(root).not.toBe(tipA);
    // recorded by the next commit's hook first: the session is then linked at tipA
    edit(w, t, 'b.txt', 'one', 'two');
    const object = join(w.store, 'objects', root.slice(0, 2), root.slice(2));
    expect(existsSync(object)).toBe(true);
    rmSync(object);
    w.g(['commit', '-q', '-am', 'fix b']);
    const tipB = tipOf(w, S1);
    expect(git(w.store, ['rev-parse', `${tipB}^`]).trim()).toBe(tipA);
    expect(message(w)).toBe(`fix b\n\n${trailers(tipB)}`);
    expect(JSON.parse(queue(w)!.slice(41)).contexts).toEqual([{ context: tipB, runtime: 'claude-code', session: S1, files: ['b.txt'] }]);
    expect(hookLog(w)).toBe('');
  });

  it('ctx why records the queue before it answers (the link is recorded, not only claimed), and leaves no queue behind', () => {
    const { w, t } = linkedCommit();
    expect(noted(w)).toEqual({});
    const why = run(w, ['why', 'HEAD', '--json']);
    expect(why.code).toBe(0);
    expect(why.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l)).filter((r) => r.context).map((r) => [r.context, r.known])).toEqual([[`ctx-${tipOf(w, S1)}`, 'recorded']]);
    expect(noted(w)).toEqual({ [head(w)]: [[tipOf(w, S1), 'recorded', undefined, ['a.txt']]] });
    expect(readdirSync(join(w.repo, '.git')).filter((f) => f.startsWith('ctx-'))).toEqual([]);
  });

  it('two worktrees commit at the same moment: each queue names only its own session, and one ctx log records both', async () => {
    const { w, wt } = twoWorktrees();
    writeFileSync(join(w.repo, 'a.txt'), 'main\n');
    const commit = (cwd: string, m: string) =>
      new Promise<number | null>((done) => spawn('git', ['commit', '-q', '-am', m], { cwd, env: w.env, stdio: 'ignore' }).on('close', done));
    expect(await Promise.all([commit(wt, 'side a'), commit(w.repo, 'main a')])).toEqual([0, 0]);
    const wtGit = w.g(['rev-parse', '--absolute-git-dir'], { cwd: wt }).trim();
    expect(JSON.parse(queue(w, wtGit)!.slice(41)).contexts.map((c: { session: string }) => c.session)).toEqual([S2]);
    expect(JSON.parse(queue(w)!.slice(41)).contexts.map((c: { session: string }) => c.session)).toEqual([S1]);
    expect(links(w)).toEqual({ [head(w, wt)]: [[tipOf(w, S2), 'recorded', undefined, ['a.txt']]], [head(w)]: [[tipOf(w, S1), 'recorded', undefined, ['a.txt']]] });
    expect([queue(w), queue(w, wtGit)]).toEqual([null, null]);
    expect(hookLog(w)).toBe('');
  });

  it('a hostile queue: each bad line is dropped with a one-line reason in the hook log, nothing in it is run, no git runs outside the repository, and a queue that is a link is not read', () => {
    const w = world();
    expect(run(w, ['hooks', 'install', 'git']).code).toBe(0);
    const other = join(w.root, 'other');
    execFileSync('git', ['init', '-q', other], { env: w.env });
    const sha = head(w);
    const pending = (o: Record<string, unknown>) => JSON.stringify({ v: 1, at: NOW, store: w.store, top: w.repo, head: null, headParent: null, contexts: [], claimed: [], ...o });
    const pwned = join(w.root, 'pwned');
    const lines = [
      `$(touch ${pwned}) ${pending({})}`,
      `${sha} not json; touch ${pwned}`,
      `${sha} ${pending({ top: other })}`,
      `${sha} ${pending({ contexts: [{ context: 'x', runtime: 'r', session: 's', files: [] }] })}`,
      `${sha} ${pending({ claimed: ['../../etc/passwd'] })}`,
      `${sha} ${pending({ store: join(w.root, 'another-store') })}`,
    ];
    writeFileSync(join(w.repo, '.git', 'ctx-queue'), lines.join('\n') + '\n');
    expect(run(w, ['log', '-n', '0']).code).toBe(0);
    const reasons = hookLog(w).split('\n').filter(Boolean).map((l) => l.split('\t').slice(1).join('\t').replace(join(w.repo, '.git', 'ctx-queue'), 'Q'));
    expect(reasons).toEqual([
      `git\tqueue\tqueue Q: line dropped: not '<commit id> <json>': ${JSON.stringify(lines[0].slice(0, 80))}`,
      `git\tqueue\tqueue Q: line dropped: ${sha}: its record is not JSON`,
      `git\tqueue\tqueue Q: line dropped: ${sha}: ${other} is not the worktree of ${join(w.repo, '.git')}`,
      `git\tqueue\tqueue Q: line dropped: ${sha}: contexts malformed`,
      `git\tqueue\tqueue Q: line dropped: ${sha}: claimed malformed`,
    ]);
    expect(existsSync(pwned)).toBe(false);
    expect(noted(w)).toEqual({});
    // the line of another store waits for it, alone
    expect(queue(w)).toBe(`${lines[5]}\n`);

    // a queue that is a symbolic link (to a file outside) is not read, only dropped
    const outside = join(w.root, 'outside');
    writeFileSync(outside, `${sha} ${pending({})}\n`);
    rmSync(join(w.repo, '.git', 'ctx-queue'));
    symlinkSync(outside, join(w.repo, '.git', 'ctx-queue'));
    expect(run(w, ['log', '-n', '0']).code).toBe(0);
    expect(hookLog(w).split('\n').filter(Boolean).at(-1)).toMatch(/\tgit\tqueue\tqueue .*ctx-queue\.claimed\.\d+: not read: a symbolic link$/);
    expect(readFileSync(outside, 'utf8')).toBe(`${sha} ${pending({})}\n`);
    expect(existsSync(join(w.repo, '.git', 'ctx-queue'))).toBe(false);
  });
});

describe('dist/commit.cjs', () => {
  it('is compiled with its own code cache (V8 accepts dist/commit.cache, as bundle-load.ts compiles it) and holds no runtime plug-in', () => {
    const code = `const { Script } = require('node:vm'); const fs = require('node:fs'); const f = ${JSON.stringify(join(ROOT, 'dist', 'commit.cjs'))};
      const s = new Script('(function (exports, require, module, __filename, __dirname) {' + fs.readFileSync(f, 'utf8') + '\\n})', { filename: f, cachedData: fs.readFileSync(${JSON.stringify(join(ROOT, 'dist', 'commit.cache'))}) });
      process.stdout.write(String(s.cachedDataRejected));`;
    expect(execFileSync(process.execPath, ['-e', code], { encoding: 'utf8' })).toBe('false');
    // the registry's lists of shell variables are there, its plug-ins are dist/hook.cjs's
    const sources: string[] = JSON.parse(readFileSync(join(ROOT, 'dist', 'commit.cjs.map'), 'utf8')).sources;
    expect(sources).toContain('../src/runtimes/registry.ts');
    expect(sources).toContain('../src/runtimes/claude-code/shell-env.ts');
    expect(sources.filter((f) => /src\/runtimes\/[^/]+\/index\.ts$|src\/formats\/|src\/api\/capture\/capture\.ts$/.test(f))).toEqual([]);
  });
});
