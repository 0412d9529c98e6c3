// Benchmark: `ctx import RUNTIME FILE` of each runtime's transcript (bench/runtimes.mjs: the session
// the hook benchmark starts from, ~0.5-1 MB) into a fresh store, against `git hash-object -w` of the
// same bytes into a fresh repository (the floor for storing them at all), as CPU of the process
// (bash's `times`) in interleaved rounds: MB/s and the ratio.
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CTX_BIN, FIXED_ENV, NODE, cleanup, cpuRun, fmtMs, git, median, progress, rounds, run, snapshotBuild, table, tempDir } from './lib.mjs';
import { RUNTIMES } from './runtimes.mjs';

export async function benchRuntimeImport({ n = Number(process.env.BENCH_ROUNDS ?? 5) } = {}) {
  const dir = tempDir('rtimport');
  const cpu = {};
  const variants = {};
  const sizes = {};
  for (const rt of RUNTIMES) {
    const bytes = rt.transcript(1, 10_000).base;
    const file = join(dir, rt.file);
    writeFileSync(file, bytes);
    sizes[rt.name] = bytes.length;
    const store = join(dir, `${rt.name}.git`);
    const repo = join(dir, `${rt.name}-native.git`);
    const timed = (k, fn) => (i) => {
      const got = fn();
      if (i > 0) (cpu[k] ??= []).push(got.cpu);
      return got.ms;
    };
    variants[`ctx import ${rt.name}`] = timed(`ctx import ${rt.name}`, () => {
      rmSync(store, { recursive: true, force: true });
      return cpuRun(NODE, [CTX_BIN, '--store', store, 'import', rt.name, file], { env: FIXED_ENV });
    });
    variants[`git hash-object -w (${rt.name})`] = timed(`git hash-object -w (${rt.name})`, () => {
      rmSync(repo, { recursive: true, force: true });
      run('git', ['init', '-q', '--bare', repo]);
      return cpuRun('git', ['--git-dir', repo, 'hash-object', '-w', file]);
    });
  }
  progress(`runtime import: ${Object.keys(variants).length} variants × ${n + 1} interleaved rounds`);
  await rounds({ n, warmup: 1, variants });
  const rows = [];
  const summary = [];
  for (const rt of RUNTIMES) {
    const c = median(cpu[`ctx import ${rt.name}`]);
    const g = median(cpu[`git hash-object -w (${rt.name})`]);
    const commits = Number(git(join(dir, `${rt.name}.git`), ['rev-list', '--all', '--count']).stdout.toString().trim());
    const mb = sizes[rt.name] / 2 ** 20;
    rows.push([rt.name, sizes[rt.name].toLocaleString('en-US'), String(commits), fmtMs(c), (mb / (c / 1000)).toFixed(1), fmtMs(g), (mb / (g / 1000)).toFixed(0), (c / g).toFixed(0) + 'x']);
    summary.push({ runtime: rt.name, ctx: c, git: g, mbps: mb / (c / 1000) });
  }
  return {
    markdown: [
      '## Import throughput per runtime\n',
      `\`ctx import RUNTIME FILE\` into a fresh store against \`git hash-object -w FILE\` into a fresh bare repository (one blob: the floor for storing the bytes), ` +
        `CPU (user + sys, bash's \`times\`, node's start included), ${n} interleaved rounds (+1 warm-up), medians.\n`,
      table(['runtime', 'bytes', 'commits', 'ctx import CPU ms', 'ctx MB/s', 'hash-object CPU ms', 'git MB/s', 'ctx / git'], rows),
      '',
    ].join('\n'),
    summary,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  snapshotBuild();
  try {
    process.stdout.write((await benchRuntimeImport()).markdown + '\n');
  } finally {
    cleanup();
  }
}
