// Run by build.mjs after dist/hook.cjs and dist/fast.cjs are built: loads them as dist/cli.cjs does
// (src/cli/bundle-load.ts), captures a fixture session of every runtime into a temporary store (half of
// it, then the rest, so a new chain and an append both run), two checkpoints, the git hooks of two linked
// commits and a hook reading its input from stdin, then writes V8's code for all it compiled to
// dist/hook.cache; then a `ctx blame` of the linked file, its code to dist/fast.cache; then a `ctx grep`
// and a `ctx files` of that store, their code to dist/search.cache. Then it runs itself once per runtime,
// for the checkpoint and for the git hooks with CTX_HOOK_CACHE_ONLY=<it>: only that one's runs, into
// dist/hook.<it>.cache (entry.ts: `ctx hook git …` runs dist/commit.cjs with dist/commit.cache, and
// dist/hook.cjs with dist/hook.git.cache when the commit has work).
// The cache only saves compile time: a hook given it writes the same bytes as one without.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { isatty } from 'node:tty';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';

const dist = resolve('dist');
const loader = await build({ entryPoints: ['src/cli/bundle-load.ts'], bundle: true, write: false, format: 'esm', platform: 'node', logLevel: 'warning' });
const { loadBundle } = await import(`data:text/javascript;base64,${Buffer.from(loader.outputFiles[0].contents).toString('base64')}`);
const { exports: hook, script } = loadBundle(dist, 'hook', []);

const fixture = (p) => resolve('fixtures', p);
/** name, fixture file, the file's name in the session dir, the hook input (as the runtime gives it) for the file at `file`. */
const RUNS = [
  ['claude-code', 'claude-code/compacted-session.jsonl', 's.jsonl', (file, cwd) => ({ session_id: 's', transcript_path: file, hook_event_name: 'Stop', cwd })],
  ['codex', 'codex/rollout-2026-03-01T10-00-00-01a21dd1-845b-7400-9ae0-912b49e4f6bb.jsonl', 'rollout-2026-03-01T10-00-00-01a21dd1-845b-7400-9ae0-912b49e4f6bb.jsonl', (file, cwd) => ({ type: 'agent-turn-complete', 'thread-id': '01a21dd1-845b-7400-9ae0-912b49e4f6bb', 'turn-id': 't', cwd, transcript_path: file })],
  ['gemini-cli', 'gemini-cli/session-2026-01-10T09-00-aaaa1111.jsonl', 'session-2026-01-10T09-00-aaaa1111.jsonl', (file, cwd) => ({ session_id: 'aaaa1111-2222-4333-8444-555566667777', transcript_path: file, cwd, hook_event_name: 'AfterAgent' })],
  ['pi', 'pi/2026-01-10T09-00-00-000Z_019a0001-aaaa-7bbb-8ccc-000000000001.jsonl', '2026-01-10T09-00-00-000Z_019a0001-aaaa-7bbb-8ccc-000000000001.jsonl', (file, cwd) => ({ event: 'agent_end', session_file: file, session_id: '019a0001-aaaa-7bbb-8ccc-000000000001', cwd })],
  ['copilot', 'copilot/events.jsonl', 'events.jsonl', (file, cwd) => ({ sessionId: 'c43f2d03-c92b-4cd0-88e1-4992a3e56d3e', timestamp: 1795795000000, cwd, transcriptPath: file, stopReason: 'end_turn' })],
  ['opencode', 'opencode/session.json', null, (file, cwd) => ({ hook_event_name: 'session.idle', session_id: 'ses_de24204f2ffeqCSPjCnRuLtBoU', cwd, session: JSON.parse(readFileSync(file, 'utf8')) })],
];

const dir = mkdtempSync(join(tmpdir(), 'ctx-hook-cache-'));
const only = process.env.CTX_HOOK_CACHE_ONLY;

try {
  if (only !== undefined) await alone(only);
  else await all();
} finally {
  rmSync(dir, { recursive: true, force: true });
}

async function all() {
  await runtimes(RUNS);
  await checkpoints();
  await stdinHook(join(dir, 'stdin', '.ctx'));
  const linked = await gitHooks(join(dir, 'git'));
  writeFileSync(join(dist, 'hook.cache'), script.createCachedData());
  await blame(linked);
  await search(linked);
  // each smaller cache from a process of its own, which compiles only what that one runs; stdin as this one's
  for (const name of [...RUNS.map(([runtime]) => runtime), 'checkpoint', 'git']) {
    const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url)], { input: '{}', stdio: ['pipe', 'ignore', 'inherit'], env: { ...process.env, CTX_HOOK_CACHE_ONLY: name } });
    if (r.status !== 0) throw new Error(`build-hook-cache: ${name} failed`);
  }
}

/** One runtime's hooks (with the stdin reader), the checkpoints, or the git hooks' linked commits, into dist/hook.<name>.cache. */
async function alone(name) {
  if (name === 'checkpoint') await checkpoints();
  else if (name === 'git') {
    // dist/commit.cjs decides, dist/hook.cjs does the work: each its own cache
    const { script: commit } = await gitHooks(join(dir, 'git'));
    writeFileSync(join(dist, 'commit.cache'), commit.createCachedData());
  }
  else {
    const runs = RUNS.filter(([runtime]) => runtime === name);
    if (runs.length === 0) throw new Error(`build-hook-cache: no runtime ${name}`);
    await runtimes(runs);
    await stdinHook(join(dir, 'stdin', '.ctx'));
  }
  writeFileSync(join(dist, `hook.${name}.cache`), script.createCachedData());
}

/** Each runtime's fixture session captured in two hooks. */
async function runtimes(runs) {
  for (const [runtime, from, name, input] of runs) {
    const home = join(dir, runtime);
    const store = join(home, '.ctx');
    const file = join(home, name ?? 'session.json');
    const whole = readFileSync(fixture(from));
    // the first half (whole lines; opencode: the first message), then all of it
    // (copilot: up to an agentStop's hook.start, where Copilot runs the hook: its capture waits for that line)
    const middle = runtime === 'copilot' ? whole.indexOf('"hookType":"agentStop"', whole.length >> 1) : whole.length >> 1;
    const halves = name === null ? [Buffer.from(JSON.stringify({ ...JSON.parse(whole), messages: JSON.parse(whole).messages.slice(0, 1) })), whole] : [whole.subarray(0, whole.indexOf(10, middle) + 1), whole];
    mkdirSync(home, { recursive: true });
    for (const bytes of halves) {
      writeFileSync(file, bytes);
      await hook.runHookArgs({ runtime, input: JSON.stringify(input(file, home)), flags: { store } });
    }
    if (existsSync(join(store, 'ctx', 'hook.log'))) process.stderr.write(`build-hook-cache: ${runtime}: ${readFileSync(join(store, 'ctx', 'hook.log'), 'utf8')}`);
  }
}

/** The plain checkpoint (it prints each commit's id): a new branch, then a commit onto it. */
async function checkpoints() {
  const lines = readFileSync(fixture('claude-code/compacted-session.jsonl'), 'utf8').split('\n');
  for (const [i, line] of lines.slice(0, 2).entries()) {
    const file = join(dir, `line-${i}.jsonl`);
    writeFileSync(file, `${line}\n`);
    // the first makes the store, and says so on stderr
    if (await quiet(() => hook.runCheckpointArgs({ branch: 'b', format: 'claude-code-v1', file, flags: { store: join(dir, 'cp', '.ctx') } }))) throw new Error('build-hook-cache: the checkpoint failed');
  }
}

/** `run()` with what it writes on stderr dropped. */
async function quiet(run) {
  const write = process.stderr.write;
  process.stderr.write = () => true;
  try {
    return await run();
  } finally {
    process.stderr.write = write;
  }
}

/**
 * A hook that reads its input from stdin, as every runtime but Codex's notify gives it: build.mjs pipes `{}`
 * (the capture then refuses it: no session). Run by hand from a terminal, the hook would refuse stdin unread.
 */
async function stdinHook(store) {
  // the refusal's line (no store to log it in): expected, not shown
  if (!isatty(0)) await quiet(() => hook.runHookArgs({ runtime: 'claude-code', flags: { store } }));
}

/**
 * Two commits a live Claude Code session's Edit made, through ctx's git hooks as `git commit` runs them:
 * prepare-commit-msg (the session caught up, its trailers), post-commit's queue line (the shell script's
 * work, done here), then the next prepare-commit-msg, which records the queued commit; and a post-rewrite.
 */
async function gitHooks(home) {
  const { exports: commit, script: commitScript } = loadBundle(dist, 'commit', []);
  const repo = join(home, 'repo');
  const store = join(home, '.ctx');
  const env = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1', GIT_AUTHOR_NAME: 'a', GIT_AUTHOR_EMAIL: 'a@b', GIT_COMMITTER_NAME: 'a', GIT_COMMITTER_EMAIL: 'a@b' };
  const git = (...args) => {
    const r = spawnSync('git', ['-c', 'core.hooksPath=/dev/null', ...args], { cwd: repo, env, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`build-hook-cache: git ${args[0]}: ${r.stderr}`);
    return r.stdout.trim();
  };
  mkdirSync(repo, { recursive: true });
  git('init', '-q');
  writeFileSync(join(repo, 'f.txt'), '0\n');
  git('add', '.');
  git('commit', '-q', '-m', 'init');
  const session = '11111111-2222-4333-8444-000000000001';
  const transcript = join(home, `${session}.jsonl`);
  const line = (i, o) => `${JSON.stringify({ sessionId: session, cwd: repo, uuid: `u${i}`, timestamp: '2026-01-02T03:00:00.000Z', ...o })}\n`;
  const edit = (i) => line(`e${i}`, { type: 'assistant', message: { model: 'm', id: `m${i}`, type: 'message', role: 'assistant', content: [{ type: 'tool_use', id: `t${i}`, name: 'Edit', input: { file_path: join(repo, 'f.txt'), old_string: `${i}`, new_string: `${i + 1}` } }] } });
  writeFileSync(transcript, line('p', { type: 'user', message: { role: 'user', content: 'count' } }));
  await hook.runHookArgs({ runtime: 'claude-code', input: JSON.stringify({ session_id: session, transcript_path: transcript, hook_event_name: 'Stop', cwd: repo }), flags: { store } });
  const msg = join(repo, '.git', 'COMMIT_EDITMSG');
  // git runs its hooks at the worktree's top with GIT_EXEC_PATH set (so the repository's config is read in-process, as in a real commit)
  const execPath = git('--exec-path');
  const gitHook = async (...rest) => {
    const cwd = process.cwd();
    const before = process.env.GIT_EXEC_PATH;
    process.chdir(repo);
    process.env.GIT_EXEC_PATH = execPath;
    try {
      // as entry.ts runs it: dist/commit.cjs, with the work from this process's dist/hook.cjs
      await commit.runCommitHook({ runtime: 'git', rest, flags: { store } }, () => hook.commitWorker);
    } finally {
      process.chdir(cwd);
      if (before === undefined) delete process.env.GIT_EXEC_PATH;
      else process.env.GIT_EXEC_PATH = before;
    }
  };
  for (let i = 0; i < 2; i++) {
    appendFileSync(transcript, edit(i));
    writeFileSync(join(repo, 'f.txt'), `${i + 1}\n`);
    git('add', 'f.txt');
    writeFileSync(msg, `change ${i}\n`);
    await gitHook('prepare-commit-msg', msg, 'message');
    git('commit', '-q', '-F', msg);
    // post-commit's shell script: HEAD and the pending file's line onto the queue
    const pending = join(repo, '.git', 'ctx-pending.json');
    appendFileSync(join(repo, '.git', 'ctx-queue'), `${git('rev-parse', 'HEAD')} ${readFileSync(pending, 'utf8').split('\n')[0]}\n`);
    unlinkSync(pending);
  }
  await gitHook('post-rewrite', 'amend');
  // the commit hook turned V8's compilers past the interpreter off (commit-hooks.ts): V8 rejects a cache made under other flags than the loading process's
  setFlagsFromString('--opt --sparkplug');
  const log = join(store, 'ctx', 'hook.log');
  if (existsSync(log)) process.stderr.write(`build-hook-cache: git: ${readFileSync(log, 'utf8')}`);
  if (!/^Ctx-Context: ctx-[0-9a-f]{40}$/m.test(git('log', '-1', '--format=%B'))) throw new Error('build-hook-cache: the git hook named no context');
  return { repo, store, script: commitScript };
}

/** `ctx blame f.txt` in the repository gitHooks made (its output, on stdout, goes nowhere), then dist/fast.cache. */
async function blame({ repo, store }) {
  const { exports: fast, script } = loadBundle(dist, 'fast', []);
  const cwd = process.cwd();
  process.chdir(repo);
  try {
    if ((await fast.runFast({ command: 'blame', args: ['f.txt'], opts: {}, flags: { store } })) !== 0) throw new Error('build-hook-cache: the blame failed');
  } finally {
    process.chdir(cwd);
  }
  // runFast turned the optimizing compiler off: V8 rejects a cache made under other flags than the loading process's
  setFlagsFromString('--opt');
  writeFileSync(join(dist, 'fast.cache'), script.createCachedData());
}

/**
 * `ctx grep` and `ctx files` of the store gitHooks made, then dist/search.cache. The store is small, so
 * they walk its chains: SQLite is never loaded, and with it no V8 flag is set (`--liftoff-only`, which
 * index-db.ts sets before loading it, would make V8 reject a cache made after it). The index's own
 * functions are compiled when a search first runs them.
 */
async function search({ store }) {
  delete process.env.CTX_INDEX_ALWAYS;
  const { exports: fast, script } = loadBundle(dist, 'search', []);
  const runs = [
    { command: 'grep', args: ['count', []], opts: { index: true }, flags: { store } },
    { command: 'grep', args: ['Count', []], opts: { index: true, ignoreCase: true }, flags: { store, json: true } },
    { command: 'files', args: ['f.txt', []], opts: { index: true }, flags: { store } },
    { command: 'files', args: ['f.txt', []], opts: { index: true }, flags: { store, json: true } },
  ];
  for (const a of runs) if ((await fast.runSearch(a)) !== 0) throw new Error(`build-hook-cache: ctx ${a.command} found nothing`);
  writeFileSync(join(dist, 'search.cache'), script.createCachedData());
}
