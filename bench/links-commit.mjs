// Benchmark: `git commit` of one file with ctx's git hooks installed (`ctx hooks install git`), minus
// the same commit without them, with 10, 1,000 and 10,000 sessions in the store. Two sessions are
// live in the worktree; one of them edits the committed file before every commit (a transcript line
// the commit's catch-up captures), so every commit is linked. And the common case: the same commit in
// a worktree of the same store with the hooks and no live session (nothing to link). CPU (user + sys) of the whole process
// tree, from bash's `times` (children: git, its hooks, node), in interleaved rounds, against node's
// own start (`node -e 0`) plus 30 ms.
import { appendFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CTX_BIN, FIXED_ENV, NODE, baselineBin, fmtInt, fmtMs, git, progress, rounds, run, table, tempDir } from './lib.mjs';

const LIVE = ['11111111-2222-4333-8444-000000000001', '11111111-2222-4333-8444-000000000002'];

/** CPU ms of the children of a bash that ran `script` (bash's `times`, second line). */
function treeCpu(script, opts) {
  const r = run('bash', ['-c', `${script} >/dev/null 2>&1; times`], { ...opts, stdout: 'pipe' });
  const lines = r.stdout.toString().trim().split('\n');
  const m = /(\d+)m([\d.]+)s (\d+)m([\d.]+)s/.exec(lines[lines.length - 1]);
  if (!m) throw new Error(`no times from bash: ${r.stdout}`);
  return (Number(m[1]) * 60 + Number(m[2]) + Number(m[3]) * 60 + Number(m[4])) * 1000;
}

let seq = 0;
const line = (session, cwd, o) => `${JSON.stringify({ sessionId: session, cwd, uuid: `u${++seq}`, timestamp: '2026-01-02T03:00:00.000Z', ...o })}\n`;
const edit = (session, cwd, file, i) =>
  line(session, cwd, { type: 'assistant', message: { model: 'claude-bench', id: `m${seq}`, type: 'message', role: 'assistant', content: [{ type: 'tool_use', id: `t${seq}`, name: 'Edit', input: { file_path: file, old_string: `${i}`, new_string: `${i + 1}` } }] } });

function setup(sessions, bin) {
  const ctx = (args, opts) => run(NODE, [bin, ...args], { ...opts, env: { ...FIXED_ENV, ...opts.env } });
  const dir = tempDir(`commit${sessions}`);
  const store = join(dir, '.ctx');
  writeFileSync(join(dir, '.gitconfig'), '');
  const env = {
    HOME: dir,
    GIT_CONFIG_GLOBAL: join(dir, '.gitconfig'),
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_AUTHOR_NAME: 'Dev',
    GIT_AUTHOR_EMAIL: 'dev@example.com',
    GIT_COMMITTER_NAME: 'Dev',
    GIT_COMMITTER_EMAIL: 'dev@example.com',
    CTX_STORE: undefined,
    ...FIXED_ENV,
  };
  ctx(['init', store], { env });
  const repos = {};
  for (const name of ['with', 'without', 'idle']) {
    const repo = join(dir, name);
    run('git', ['init', '-q', repo], { env });
    for (const f of ['f.txt', 'g.txt']) writeFileSync(join(repo, f), '0\n');
    run('git', ['add', '.'], { cwd: repo, env });
    run('git', ['commit', '-q', '-m', 'init'], { cwd: repo, env });
    repos[name] = repo;
  }
  for (const name of ['with', 'idle']) ctx(['hooks', 'install', 'git'], { cwd: repos[name], env });
  // the two live sessions: the first edits f.txt (every round), the second touched g.txt once
  const transcripts = LIVE.map((s, k) => {
    const t = join(dir, `${s}.jsonl`);
    writeFileSync(t, line(s, repos.with, { type: 'user', message: { role: 'user', content: `session ${k}` } }) + edit(s, repos.with, join(repos.with, k ? 'g.txt' : 'f.txt'), 0));
    ctx(['hook', 'claude-code'], { cwd: repos.with, env, input: JSON.stringify({ session_id: s, transcript_path: t, hook_event_name: 'Stop', cwd: repos.with }) });
    return t;
  });
  // the rest of the sessions: branches of their own (the second session's chain), and live entries of other worktrees
  const tip = git(store, ['rev-parse', `refs/heads/claude/${LIVE[1]}`]).stdout.toString().trim();
  const refs = [];
  for (let i = 0; i < sessions - LIVE.length; i++) refs.push(`create refs/heads/claude/00000000-0000-4000-8000-${String(i).padStart(12, '0')} ${tip}\n`);
  run('git', ['--git-dir', store, 'update-ref', '--stdin'], { input: refs.join('') });
  for (let i = 0; i < Math.min(sessions, 1000); i++) {
    const other = join(store, 'ctx', 'live', `other${String(i % 100).padStart(3, '0')}`);
    mkdirSync(other, { recursive: true });
    writeFileSync(join(other, `claude-code.x${i}.json`), JSON.stringify({ v: 1, runtime: 'claude-code', session: `x${i}`, top: `/elsewhere/${i % 100}`, cwd: '/elsewhere', seen: FIXED_ENV.CTX_NOW, branch: `claude/x${i}` }));
  }
  return { dir, store, repos, env, transcripts };
}

export async function benchLinksCommit({ sizes = [10, 1000, 10000], n = 10 } = {}) {
  const results = [];
  let floor = null;
  // BENCH_BASELINE=DIR: the same commits with another build's hooks (a world of its own) in the same rounds
  const builds = [{ bin: CTX_BIN, label: '' }];
  if (process.env.BENCH_BASELINE) builds.push({ bin: baselineBin(process.env.BENCH_BASELINE), label: ' (baseline)' });
  for (const size of sizes) {
    const worlds = builds.map((b) => ({ ...b, w: setup(size, b.bin) }));
    const w = worlds[0].w;
    const commit = (w, name, i) => {
      const repo = w.repos[name];
      writeFileSync(join(repo, 'f.txt'), `${i + 1}\n`);
      if (name === 'with') appendFileSync(w.transcripts[0], edit(LIVE[0], repo, join(repo, 'f.txt'), i));
      return treeCpu(`git commit -q -am 'round ${i}'`, { cwd: repo, env: w.env });
    };
    const variants = { 'node -e 0': () => treeCpu(`'${NODE}' -e 0`, { env: w.env }), 'git commit, no hooks': (i) => commit(w, 'without', i) };
    for (const { w: world, label } of worlds) variants[`git commit, ctx hooks${label}`] = (i) => commit(world, 'with', i);
    for (const { w: world, label } of worlds) variants[`git commit, ctx hooks, no live session${label}`] = (i) => commit(world, 'idle', i);
    progress(`commit-hook: ${fmtInt(size)} sessions, ${Object.keys(variants).length} variants × ${n + 1} interleaved rounds`);
    const r = await rounds({ n, warmup: 1, variants });
    // every linked commit named the session: the hooks did their work
    const last = run('git', ['log', '-1', '--format=%B'], { cwd: w.repos.with, env: w.env, stdout: 'pipe' }).stdout.toString();
    if (!/^Ctx-Context: ctx-[0-9a-f]{40}$/m.test(last)) throw new Error(`commit-hook benchmark: the last commit names no context:\n${last}`);
    // and the commits in the worktree with no live session named none
    const idleLast = run('git', ['log', '-1', '--format=%B'], { cwd: w.repos.idle, env: w.env, stdout: 'pipe' }).stdout.toString();
    if (/^Ctx-Context:/m.test(idleLast) || !existsSync(join(w.repos.idle, '.git', 'hooks', 'prepare-commit-msg'))) throw new Error(`commit-hook benchmark: the commit with no live session is not what it should be:\n${idleLast}`);
    const notes = git(w.store, ['notes', '--ref', 'ctx', 'list']).stdout.toString().trim().split('\n').filter(Boolean).length;
    floor = r['node -e 0'].median;
    const added = r['git commit, ctx hooks'].median - r['git commit, no hooks'].median;
    const baseline = worlds[1] ? r['git commit, ctx hooks (baseline)'].median - r['git commit, no hooks'].median : null;
    const idle = r['git commit, ctx hooks, no live session'].median - r['git commit, no hooks'].median;
    const idleBaseline = worlds[1] ? r['git commit, ctx hooks, no live session (baseline)'].median - r['git commit, no hooks'].median : null;
    results.push({ size, r, added, baseline, idle, idleBaseline, floor, notes });
  }
  const rows = results.flatMap(({ size, r, added, baseline, idle, idleBaseline, floor }) => [
    [fmtInt(size), 'node -e 0', fmtMs(r['node -e 0'].median), ''],
    [fmtInt(size), 'git commit, no hooks', fmtMs(r['git commit, no hooks'].median), ''],
    [fmtInt(size), 'git commit, ctx hooks', fmtMs(r['git commit, ctx hooks'].median), `${fmtMs(added)} (target ≤ ${fmtMs(floor + 30)}: ${added <= floor + 30 ? '**met**' : '**missed**'})`],
    ...(baseline === null ? [] : [[fmtInt(size), 'git commit, ctx hooks (baseline)', fmtMs(r['git commit, ctx hooks (baseline)'].median), fmtMs(baseline)]]),
    [fmtInt(size), 'git commit, ctx hooks, no live session', fmtMs(r['git commit, ctx hooks, no live session'].median), `${fmtMs(idle)} (target ≤ ${fmtMs(floor + 30)}: ${idle <= floor + 30 ? '**met**' : '**missed**'})`],
    ...(idleBaseline === null ? [] : [[fmtInt(size), 'git commit, ctx hooks, no live session (baseline)', fmtMs(r['git commit, ctx hooks, no live session (baseline)'].median), fmtMs(idleBaseline)]]),
  ]);
  return {
    markdown: [
      '## Commit hook: `git commit` with ctx\'s git hooks, minus without\n',
      `One file changed and committed with \`git commit -am\`; two sessions live in the worktree, one of which edits that file before each commit (its transcript grows by one Edit line that the commit's catch-up captures, so each commit is linked: two trailers and a link record); the other sessions are branches of the store and live entries of other worktrees. "No live session": the same commit in another worktree of the store with ctx's hooks and no session live there, the common case (nothing to link). CPU (user + sys) of the whole process tree from bash's \`times\`, ${n} interleaved rounds (+1 warm-up), medians in ms.\n`,
      table(['sessions', 'process tree', 'CPU ms', 'added by ctx ms'], rows),
      '',
    ].join('\n'),
    summary: results.map(({ size, added, floor }) => ({ size, added, floor, met: added <= floor + 30 })),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { snapshotBuild, cleanup } = await import('./lib.mjs');
  snapshotBuild();
  try {
    const sizes = (process.env.BENCH_COMMIT_SIZES ?? '10,1000,10000').split(',').map(Number);
    process.stdout.write((await benchLinksCommit({ sizes, n: Number(process.env.BENCH_ROUNDS ?? 10) })).markdown + '\n');
  } finally {
    cleanup();
  }
}
