// Benchmark: the hot paths an agent pays on every turn, as CPU over node's own start (`node -e 0`):
// one `ctx hook RUNTIME` process per turn for each runtime of bench/runtimes.mjs (the transcript
// grows by ~10 KB before each: whole lines appended, or opencode's session document rewritten), one `ctx checkpoint` of a 2 KB line, and `ctx --version`
// (ctx's start-up). CPU is user + sys of the process (bash's `times`), in interleaved rounds, so
// load drift on a shared machine hits every variant alike. Target: each within 30 ms of node.
import { appendFileSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CTX_BIN, FIXED_ENV, NODE, cleanup, cpuRun, ctx, fmtMs, git, median, progress, prng, rounds, run, snapshotBuild, table, tempDir, userLine, baselineBin } from './lib.mjs';
import { RUNTIMES } from './runtimes.mjs';

const TARGET_MS = 30;

/** The one branch a hook wrote in a store of its own. */
const branchOf = (store) => git(store, ['for-each-ref', '--format=%(refname:short)', 'refs/heads/']).stdout.toString().trim().split('\n')[0];

/** The hook and checkpoint variants of one build (`bin`), in stores of their own under `dir`. */
function addVariants({ dir, bin, label, n, warmup, step, env, variants, checks }) {
  mkdirSync(dir, { recursive: true });
  const ctxCpu = (args, opts = {}) => cpuRun(NODE, [bin, ...args], { env, ...opts });
  if (label) variants[`ctx --version${label}`] = () => ctxCpu(['--version']);
  const ctxRun = (args, opts = {}) => run(NODE, [bin, ...args], { ...opts, env: { ...env, ...opts.env } });
  for (const rt of RUNTIMES) {
    const t = rt.transcript(n + warmup, step);
    const home = join(dir, rt.name);
    mkdirSync(home);
    const store = join(home, 'store.git');
    const file = join(home, rt.file);
    writeFileSync(file, t.base);
    const input = rt.input(file, home);
    const stdin = typeof input.stdin === 'function' ? input.stdin : () => input.stdin ?? '';
    const hook = () => ctxCpu(['--store', store, 'hook', rt.name, ...(input.arg ? [input.arg] : [])], { input: stdin() });
    progress(`hook ${rt.name}: capture the session so far (${t.base.length.toLocaleString('en-US')} bytes)`);
    hook();
    const sizes = [];
    variants[`ctx hook ${rt.name}, ~10 KB new${label}`] = (i) => {
      const bytes = t.turn(i);
      // a rewritten transcript (the whole session each turn) grows by the difference
      const before = rt.rewrite ? statSync(file).size : 0;
      if (rt.rewrite) writeFileSync(file, bytes);
      else appendFileSync(file, bytes);
      if (i >= warmup) sizes.push(bytes.length - before);
      return hook();
    };
    if (rt === RUNTIMES[0]) variants[`ctx hook ${rt.name}, nothing new${label}`] = () => hook();
    checks.push({ rt, store, file, sizes, label });
  }
  // one checkpoint of a 2 KB Claude Code line a round, onto an existing branch
  const cpStore = join(dir, 'checkpoint.git');
  const rand = prng(3);
  const lines = Array.from({ length: n + warmup + 1 }, (_, i) => {
    const f = join(dir, `line-${i}.jsonl`);
    writeFileSync(f, userLine(rand, i));
    return f;
  });
  ctxRun(['--store', cpStore, 'checkpoint', '-b', 'b', '--format', 'claude-code-v1', lines[n + warmup]]);
  variants[`ctx checkpoint, 2 KB${label}`] = (i) => ctxCpu(['--store', cpStore, 'checkpoint', '-b', 'b', '--format', 'claude-code-v1', lines[i]]);
}

export async function benchHook({ n = Number(process.env.BENCH_ROUNDS ?? 20), step = 10_000 } = {}) {
  const dir = tempDir('hook');
  const warmup = 1;
  const env = { ...FIXED_ENV };
  const ctxCpu = (args, opts = {}) => cpuRun(NODE, [CTX_BIN, ...args], { env, ...opts });
  const variants = {
    'node -e 0': () => cpuRun(NODE, ['-e', '0'], { env }),
    'ctx --version': () => ctxCpu(['--version']),
  };
  const checks = [];
  // BENCH_BASELINE=DIR: the same variants with another build (its bin/ and dist/) in the same rounds, side by side
  const builds = [{ bin: CTX_BIN, label: '' }];
  if (process.env.BENCH_BASELINE) builds.push({ bin: baselineBin(process.env.BENCH_BASELINE), label: ' (baseline)' });
  for (const { bin, label } of builds) addVariants({ dir: join(dir, label ? 'baseline' : 'this'), bin, label, n, warmup, step, env, variants, checks });

  progress(`hook: ${Object.keys(variants).length} variants × ${n + warmup} interleaved rounds`);
  const cpu = {};
  const r = await rounds({
    n,
    warmup,
    variants: Object.fromEntries(
      Object.entries(variants).map(([k, fn]) => [
        k,
        (i) => {
          const got = fn(i);
          if (i >= warmup) (cpu[k] ??= []).push(got.cpu);
          return got.ms;
        },
      ]),
    ),
  });
  // every hook captured every turn: no failure logged, and the chain gives the transcript back byte for byte
  const notes = [];
  const tips = {};
  for (const { rt, store, file, sizes, label } of checks) {
    const log = join(store, 'ctx', 'hook.log');
    if (existsSync(log)) throw new Error(`hook benchmark, ${rt.name}: the hook logged failures:\n${readFileSync(log, 'utf8')}`);
    const branch = branchOf(store);
    const materialized = ctx(['--store', store, 'materialize', branch, '--stop', 'root'], { stdout: 'pipe' }).stdout;
    if (Buffer.compare(materialized, readFileSync(file)) !== 0) throw new Error(`hook benchmark, ${rt.name}: ${branch} does not reproduce its transcript`);
    const commits = Number(git(store, ['rev-list', '--count', branch]).stdout.toString().trim());
    tips[`${rt.name}${label}`] = git(store, ['rev-parse', branch]).stdout.toString().trim();
    notes.push(`${rt.name}${label}: ${Math.round(sizes.reduce((a, b) => a + b, 0) / sizes.length).toLocaleString('en-US')} bytes a turn on average, ${commits} commits on \`${branch}\` afterwards`);
  }

  // the same turns captured by both builds (and the same checkpoints) give the same commit ids
  if (builds.length > 1) {
    for (const { label } of builds) tips[`checkpoint${label}`] = git(join(dir, label ? 'baseline' : 'this', 'checkpoint.git'), ['rev-parse', 'b']).stdout.toString().trim();
    for (const k of Object.keys(tips).filter((k) => !k.endsWith(builds[1].label)))
      if (tips[k] !== tips[`${k}${builds[1].label}`]) throw new Error(`hook benchmark, ${k}: the new build's tip ${tips[k]} is not the baseline's ${tips[`${k}${builds[1].label}`]}`);
    notes.push(`both builds wrote the same commit ids (each runtime's tip and the checkpoint branch's)`);
  }
  const floor = median(cpu['node -e 0']);
  const summary = { floor, rows: [] };
  const rows = Object.keys(variants).map((k) => {
    const c = median(cpu[k]);
    const over = c - floor;
    const judged = (k.startsWith('ctx hook') || k.startsWith('ctx checkpoint')) && !k.endsWith('(baseline)');
    if (judged) summary.rows.push({ name: k, cpu: c, over, met: over <= TARGET_MS });
    return [k, fmtMs(c), k === 'node -e 0' ? '' : fmtMs(over), judged ? (over <= TARGET_MS ? 'met' : 'missed') : '', fmtMs(r[k].median)];
  });
  return {
    markdown: [
      '## Hook and checkpoint: CPU over node\'s start\n',
      `One \`ctx hook RUNTIME\` process per turn, each runtime's transcript grown by ~${step / 1000} KB of whole lines before it ` +
        `(hook input on stdin, or as an argument where the runtime passes it so), one \`ctx checkpoint\` of a 2 KB line, ` +
        `${n} interleaved rounds (+${warmup} warm-up), medians. CPU is user + sys of the process (bash's \`times\`); ` +
        `"over node" is the median minus \`node -e 0\`'s; target ≤ ${TARGET_MS} ms. Afterwards every chain reproduced its transcript byte for byte and no hook logged a failure.\n`,
      table(['process', 'CPU ms', 'over node ms', `≤ ${TARGET_MS} ms`, 'wall ms'], rows),
      '',
      ...notes.map((s) => `- ${s}`),
      '',
    ].join('\n'),
    summary,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  // `node bench/hook.mjs`: this benchmark alone, on a copy of the build
  snapshotBuild();
  try {
    process.stdout.write((await benchHook({ n: Number(process.env.BENCH_ROUNDS ?? 20) })).markdown + '\n');
  } finally {
    cleanup();
  }
}
