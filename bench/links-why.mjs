// Benchmark: `ctx why HEAD` in a code repository whose commit names (Ctx-Context trailer) the tip of
// a 10,000-turn Claude Code session, on a warm store: the whole process timed, beside `node -e 0`
// and `git show HEAD`. The trailer's context is verified from its tip back, and the slice shown.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CTX_BIN, FIXED_ENV, NODE, baselineBin, cleanup, ctx, fmtMs, git, median, progress, rounds, run, snapshotBuild, table, tempDir } from './lib.mjs';
import { measured } from './resume.mjs';

const SESSION = 'b0b0b0b0-1111-4222-8333-444455556666';
const GIT_ENV = { GIT_AUTHOR_NAME: 'A', GIT_AUTHOR_EMAIL: 'a@example.com', GIT_COMMITTER_NAME: 'A', GIT_COMMITTER_EMAIL: 'a@example.com', GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };

/** A Claude Code transcript of `turns` turns: a prompt, a reply and a Write of a file under `code` each. */
export function transcript(code, turns) {
  const lines = [];
  let k = 0;
  let parent = null;
  const push = (type, message) => {
    const uuid = `00000000-0000-4000-8000-${String(++k).padStart(12, '0')}`;
    lines.push(JSON.stringify({ parentUuid: parent, isSidechain: false, userType: 'external', cwd: code, sessionId: SESSION, version: '2.1.330', gitBranch: 'main', type, message, uuid, timestamp: new Date(Date.UTC(2026, 0, 2) + k * 1000).toISOString() }));
    parent = uuid;
  };
  for (let i = 0; i < turns; i++) {
    const msg = (content) => ({ model: 'claude-opus-4-5', id: `msg_${i}`, type: 'message', role: 'assistant', content, stop_reason: null });
    const last = i === turns - 1;
    push('user', { role: 'user', content: last ? 'Make the token refresh retry once.' : `Turn ${i}: tidy module ${i % 97}.` });
    push('assistant', msg([{ type: 'text', text: `Working on turn ${i}.` }]));
    const file = last ? 'src/auth.ts' : `src/m${i % 97}.ts`;
    const content = last ? 'export function refresh() {\n  return retryOnce(fetchToken);\n}\n' : `export const turn${i} = ${i};\n`;
    push('assistant', msg([{ type: 'tool_use', id: `t${i}`, name: 'Write', input: { file_path: join(code, file), content } }]));
    push('user', { role: 'user', content: [{ tool_use_id: `t${i}`, type: 'tool_result', content: 'ok' }] });
  }
  return lines.join('\n') + '\n';
}

export async function benchWhy({ turns = 10_000, n = 10 } = {}) {
  const dir = tempDir('why');
  const store = join(dir, 'store.git');
  const code = join(dir, 'app');
  mkdirSync(join(code, 'src'), { recursive: true });
  const file = join(dir, `${SESSION}.jsonl`);
  writeFileSync(file, transcript(code, turns));
  ctx(['init', store]);
  progress(`why: importing a ${turns.toLocaleString('en-US')}-turn session`);
  ctx(['--store', store, 'import', 'claude-code', file, '-b', 'alice/auth']);
  const tip = git(store, ['rev-parse', 'refs/heads/alice/auth']).stdout.toString().trim();
  const commits = Number(git(store, ['rev-list', '--count', 'alice/auth']).stdout.toString().trim());
  const g = (args) => run('git', ['-C', code, ...args], { env: GIT_ENV, stdout: 'pipe' });
  g(['init', '-q', '-b', 'main']);
  writeFileSync(join(code, 'src', 'auth.ts'), 'export function refresh() {\n  return retryOnce(fetchToken);\n}\n');
  g(['add', '.']);
  g(['commit', '-q', '-m', `Retry the token refresh once\n\nCtx-Context: ctx-${tip}\n`]);
  const why = (args = []) => ctx(['--store', store, 'why', 'HEAD', ...args], { cwd: code, stdout: 'pipe' });
  why();
  const first = JSON.parse(why(['--json']).stdout.toString());
  if (first.known !== 'verified' || first.context !== `ctx-${tip}`) throw new Error(`why benchmark: expected the session verified, got ${JSON.stringify(first).slice(0, 300)}`);
  // wall-clock, and CPU (user + sys of the process tree, GNU time) which a loaded machine does not inflate
  const cpu = {};
  const timed = (name, cmd, args) => () => {
    if (!existsSync('/usr/bin/time')) return run(cmd, args, { env: FIXED_ENV }).ms;
    const start = performance.now();
    const m = measured(cmd, args, FIXED_ENV);
    (cpu[name] ??= []).push(m.cpu);
    return performance.now() - start;
  };
  const whyArgs = (more = []) => [CTX_BIN, '--store', store, 'why', 'HEAD', '--repo', code, ...more];
  const variants = {
    'node -e 0': timed('node -e 0', NODE, ['-e', '0']),
    'git show HEAD': timed('git show HEAD', 'git', ['-C', code, 'show', 'HEAD']),
    'ctx why HEAD': timed('ctx why HEAD', NODE, whyArgs()),
    'ctx why HEAD --json': timed('ctx why HEAD --json', NODE, whyArgs(['--json'])),
  };
  // BENCH_BASELINE=DIR: another build's ctx why in the same rounds
  if (process.env.BENCH_BASELINE) {
    const base = [baselineBin(process.env.BENCH_BASELINE), ...whyArgs().slice(1)];
    variants['ctx why HEAD (baseline)'] = timed('ctx why HEAD (baseline)', NODE, base);
  }
  progress(`why: ${Object.keys(variants).length} variants × ${n + 1} interleaved rounds`);
  const r = await rounds({ n, warmup: 1, variants });
  const cpuMedian = (k) => (cpu[k] ? median(cpu[k].slice(1)) : NaN);
  const w = r['ctx why HEAD'].median;
  const c = cpuMedian('ctx why HEAD');
  const rows = Object.entries(r).map(([k, s]) => [k, fmtMs(s.median), `${fmtMs(s.min)}–${fmtMs(s.max)}`, fmtMs(cpuMedian(k))]);
  return {
    markdown: [
      '## ctx why on a commit linked to a 10,000-turn session\n',
      `A Claude Code session of ${turns.toLocaleString('en-US')} turns imported (${commits.toLocaleString('en-US')} commits); a code commit whose ` +
        '`Ctx-Context:` trailer names its tip (verified: its last turn wrote the file), no earlier linked commit, so the slice runs back to the start of the session, bounded by `--limit` 50. Warm store (one run first), ' +
        `${n} interleaved rounds, whole processes, medians in ms (CPU: user + sys, GNU time).\n`,
      table(['process', 'wall ms', 'wall min–max ms', 'CPU ms'], rows),
      '',
      `- \`ctx why HEAD\`: ${fmtMs(w)} ms wall, ${fmtMs(c)} ms CPU (target < 500 ms: ${w < 500 ? '**met**' : c < 500 ? '**met** in CPU; the wall time waited on a loaded machine' : '**missed**'}; ` +
        `\`node -e 0\` alone ${fmtMs(r['node -e 0'].median)} ms wall, ${fmtMs(cpuMedian('node -e 0'))} ms CPU).`,
      '',
    ].join('\n'),
    summary: { median: w, cpu: c, json: r['ctx why HEAD --json'].median, floor: r['node -e 0'].median },
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  // `node bench/links-why.mjs`: this benchmark alone, on a copy of the build
  snapshotBuild();
  try {
    process.stdout.write((await benchWhy()).markdown + '\n');
  } finally {
    cleanup();
  }
}
