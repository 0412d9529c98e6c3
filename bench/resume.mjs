// Resume: `ctx materialize chain` (the default stop) cold, cached, and after one more checkpoint, at
// 1k, 10k and 100k commits of a packed chain, as CPU time (user + sys, from bash's times) and
// peak RSS, side by side with native git reading the same artifacts, in interleaved rounds.
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CTX_BIN, FIXED_ENV, NODE, fmtInt, fmtRatio, git, median, prng, progress, rounds, run, table, tempDir, userLine } from './lib.mjs';

const TIME = '/usr/bin/time';

/** CPU ms (user + sys, to the millisecond) and peak RSS (KiB) of a command. */
export function measured(cmd, args, env = {}) {
  // GNU time prints CPU in steps of 10 ms (node's whole start is ~25): the CPU comes from the shell's
  // `times` (its children's user and sys, to the millisecond), the peak RSS from GNU time around it
  const r = run(TIME, ['-f', 'CTXBENCH %M', 'bash', '-c', '"$@"; s=$?; times >&2; exit $s', 'bash', cmd, ...args], { env });
  const m = /(\d+)m([\d.]+)s (\d+)m([\d.]+)s\s*\nCTXBENCH (\d+)/.exec(r.stderr);
  if (!m) throw new Error(`no rusage from ${TIME} and bash: ${r.stderr.slice(-300)}`);
  return { cpu: (Number(m[1]) * 60 + Number(m[2]) + Number(m[3]) * 60 + Number(m[4])) * 1000, rss: Number(m[5]) };
}

function setup(size) {
  const dir = tempDir(`resume${size}`);
  const rand = prng(size);
  const lines = [];
  for (let i = 0; i < size; i++) lines.push(userLine(rand, i));
  const file = join(dir, 'chain.jsonl');
  writeFileSync(file, lines.join(''));
  const repo = join(dir, 'store.git');
  progress(`resume ${size}: import ${fmtInt(size)} commits, then git gc`);
  run(NODE, [CTX_BIN, '--store', repo, 'import', 'claude-code', file, '-b', 'chain'], { env: { ...FIXED_ENV, CTX_ENGINE: 'git' } });
  git(repo, ['gc', '--quiet']);
  return { dir, repo };
}

export async function benchResume({ sizes = [1000, 10000, 100000] } = {}) {
  if (!existsSync(TIME)) return { markdown: `## Resume\n\nskipped: ${TIME} (Debian package \`time\`) is not installed\n`, summary: [] };
  const out = ['## Resume: materialize cold, cached, after one more checkpoint (CPU and peak RSS)\n'];
  out.push(
    'A packed chain of N commits (2 KB user lines, imported, then `git gc`). **native**: `git log --format=%H:delta.jsonl chain | git cat-file --batch > /dev/null` ' +
      'in `bash -c` (the artifacts any resume must read). **cold**: `ctx materialize chain` with `<repo>/ctx/cache` deleted. **cached**: the same again. ' +
      '**+1 checkpoint**: a `ctx checkpoint` of one more line (not timed), then `ctx materialize chain`. CPU is user + sys of the whole process tree ' +
      "(bash's times), RSS its peak (GNU time); medians of interleaved rounds, the first round discarded.\n",
  );
  const rows = [];
  const summary = [];
  let k = 0;
  for (const size of sizes) {
    const { dir, repo } = setup(size);
    const q = `'${repo}'`;
    const env = { ...FIXED_ENV, CTX_ENGINE: 'git' };
    const mat = () => measured(NODE, [CTX_BIN, '--store', repo, 'materialize', 'chain', '-o', '/dev/null'], env);
    const rss = { native: [], cold: [], cached: [], next: [] };
    const cpu = (name, m) => (rss[name].push(m.rss), m.cpu);
    const n = size >= 100000 ? 3 : 7;
    progress(`resume ${size}: ${n} interleaved rounds`);
    const r = await rounds({
      n,
      warmup: 1,
      variants: {
        native: () => cpu('native', measured('bash', ['-c', `git --git-dir ${q} log --format=%H:delta.jsonl chain | git --git-dir ${q} cat-file --batch > /dev/null`])),
        cold: () => {
          rmSync(join(repo, 'ctx', 'cache'), { recursive: true, force: true });
          return cpu('cold', mat());
        },
        cached: () => cpu('cached', mat()),
        next: () => {
          run(NODE, [CTX_BIN, '--store', repo, 'checkpoint', '-b', 'chain', '--format', 'claude-code-v1', '-'], { env, input: userLine(prng(++k), size + k) });
          return cpu('next', mat());
        },
      },
    });
    const mib = (kib) => (kib / 1024).toFixed(0);
    for (const [name, label] of [['native', 'native git, artifacts'], ['cold', 'ctx, cold'], ['cached', 'ctx, cached'], ['next', 'ctx, after one more checkpoint']]) {
      const s = r[name];
      const peak = Math.max(...rss[name].slice(1));
      rows.push([fmtInt(size), label, `${s.n}`, s.median.toFixed(0), name === 'native' ? '' : fmtRatio(s.median / r.native.median), mib(peak), name === 'native' ? '' : fmtRatio(peak / Math.max(...rss.native.slice(1)))]);
    }
    summary.push({ size, cold: r.cold.median / r.native.median, next: r.next.median, cached: r.cached.median, rssRatio: Math.max(...rss.cold.slice(1)) / Math.max(...rss.native.slice(1)) });
    rmSync(dir, { recursive: true, force: true });
  }
  out.push(table(['commits', 'reader', 'rounds', 'CPU ms (median)', 'CPU vs native', 'peak RSS MiB', 'RSS vs native'], rows, 2));
  return { markdown: out.join('\n'), summary, median };
}
