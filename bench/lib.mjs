// Shared helpers for the benchmarks: timing, spawning, statistics, Markdown, temp dirs, test data.
import { spawnSync } from 'node:child_process';
import { closeSync, cpSync, mkdtempSync, openSync, readFileSync, readdirSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** The ctx under test: bin/ctx of the snapshot taken by snapshotBuild(), else of the work tree. */
export let CTX_BIN = join(ROOT, 'bin', 'ctx');
export let DIST = join(ROOT, 'dist');
export const NODE = process.execPath;
export const CORPUS_FILE = resolve(ROOT, '../shared/corpus/claude-code/randlee__claude-history__simple-967e501d-session.jsonl');

/** Fixed identity and clock, so every commit id the benchmarks write is reproducible. */
export const FIXED_ENV = {
  CTX_NOW: '2026-01-01T00:00:00.000Z',
  CTX_PRINCIPAL: 'bench',
  CTX_MACHINE: 'bench-host',
  CTX_TEMPLATE: 'bench',
  NO_COLOR: '1',
};

/**
 * Copy bin/ and dist/ to bench/out/build/ and benchmark that copy, so a `npm run build` running
 * meanwhile (it deletes dist/ first) cannot pull the CLI away mid-run. The copy stays inside the
 * project, so node still resolves node_modules from it.
 */
export function snapshotBuild() {
  // BENCH_BUILD_OUT=NAME: a copy of its own under bench/out/, for two runs at once
  const dest = join(ROOT, 'bench', 'out', process.env.BENCH_BUILD_OUT ?? 'build');
  // BENCH_BUILD=DIR benchmarks another build (its bin/ and dist/, e.g. an older one kept under bench/out/)
  const from = process.env.BENCH_BUILD ? resolve(process.env.BENCH_BUILD) : ROOT;
  const count = (d) => readdirSync(d, { recursive: true }).length;
  for (let attempt = 1; ; attempt++) {
    rmSync(dest, { recursive: true, force: true });
    let ok = false;
    try {
      const before = count(join(from, 'dist'));
      cpSync(join(from, 'dist'), join(dest, 'dist'), { recursive: true });
      cpSync(join(from, 'bin'), join(dest, 'bin'), { recursive: true });
      const bin = join(dest, 'bin', 'ctx');
      ok = before === count(join(from, 'dist')) && before === count(join(dest, 'dist')) &&
        spawnSync(NODE, [bin, '--help'], { stdio: 'ignore' }).status === 0;
    } catch {
      ok = false;
    }
    if (ok) break;
    if (attempt === 5) throw new Error('could not take a consistent copy of dist/ (is a build running?); run `npm run build` and retry');
    spawnSync('sleep', ['2']);
  }
  CTX_BIN = join(dest, 'bin', 'ctx');
  DIST = join(dest, 'dist');
  return dest;
}

/** A copy of another build's bin/ and dist/ inside the project (so node_modules resolves), its bin/ctx: BENCH_BASELINE's build, run beside this one in the same rounds. */
export function baselineBin(from) {
  const dest = join(ROOT, 'bench', 'out', 'baseline');
  rmSync(dest, { recursive: true, force: true });
  for (const d of ['bin', 'dist']) cpSync(join(from, d), join(dest, d), { recursive: true });
  return join(dest, 'bin', 'ctx');
}

/** Progress goes to stderr; stdout carries only the report. */
const t0 = performance.now();
export function progress(msg) {
  process.stderr.write(`[bench ${((performance.now() - t0) / 1000).toFixed(1).padStart(5)}s] ${msg}\n`);
}

export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** A temp dir for one benchmark; removed by cleanup() at the end unless BENCH_KEEP=1. */
const dirs = [];
export function tempDir(label) {
  const d = mkdtempSync(join(tmpdir(), `ctx-bench-${label}-`));
  dirs.push(d);
  return d;
}
export function cleanup() {
  if (process.env.BENCH_KEEP === '1') {
    progress(`kept temp dirs: ${dirs.join(' ')}`);
    return;
  }
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  rmSync(join(ROOT, 'bench', 'out', 'build'), { recursive: true, force: true });
}

let devNull = -1;
/**
 * Run a command to completion and time it (performance.now() around spawnSync).
 * `stdout`: 'null' (default, /dev/null), 'pipe' (returned as a Buffer), or a file path.
 */
export function run(cmd, args, { env = {}, stdout = 'null', input, cwd } = {}) {
  let out = 'pipe';
  let fd = -1;
  if (stdout === 'null') out = devNull >= 0 ? devNull : (devNull = openSync('/dev/null', 'w'));
  else if (stdout !== 'pipe') out = fd = openSync(stdout, 'w');
  const fullEnv = { ...process.env, ...env };
  for (const [k, v] of Object.entries(fullEnv)) if (v === undefined) delete fullEnv[k]; // undefined: unset
  const start = performance.now();
  const r = spawnSync(cmd, args, {
    cwd,
    env: fullEnv,
    input,
    stdio: [input === undefined ? 'ignore' : 'pipe', out, 'pipe'],
    maxBuffer: 1 << 30,
  });
  const ms = performance.now() - start;
  if (fd >= 0) closeSync(fd);
  if (r.error) throw r.error;
  if (r.status !== 0) {
    throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}: ${String(r.stderr).trim().slice(0, 2000)}`);
  }
  return { ms, stdout: r.stdout, stderr: String(r.stderr) };
}

export const ctx = (args, opts = {}) => run(NODE, [CTX_BIN, ...args], { ...opts, env: { ...FIXED_ENV, ...opts.env } });
export const git = (gitdir, args, opts = {}) => run('git', ['--git-dir', gitdir, ...args], { stdout: 'pipe', ...opts });
export const sh = (script, opts = {}) => run('bash', ['-c', script], opts);

/**
 * Time `fn` (which returns milliseconds, or undefined to be timed here) `warmup + n` times;
 * the warm-up runs are discarded. `before` runs untimed before every run (e.g. to drop a cache).
 */
export async function series({ n, warmup = 1, before, fn }) {
  const times = [];
  for (let i = 0; i < warmup + n; i++) {
    if (before) await before(i);
    const start = performance.now();
    const got = await fn(i);
    const ms = typeof got === 'number' ? got : performance.now() - start;
    if (i >= warmup) times.push(ms);
  }
  return stats(times, warmup);
}

export function stats(times, warmup = 0) {
  return { median: median(times), min: Math.min(...times), max: Math.max(...times), n: times.length, warmup, times };
}

/**
 * Interleaved series: every round runs each variant once (so drift hits all alike); the first
 * `warmup` rounds are discarded. `variants` maps a name to a function returning ms.
 */
export async function rounds({ n, warmup = 1, variants }) {
  const times = Object.fromEntries(Object.keys(variants).map((k) => [k, []]));
  for (let i = 0; i < warmup + n; i++) {
    for (const [k, fn] of Object.entries(variants)) {
      const ms = await fn(i);
      if (i >= warmup) times[k].push(ms);
    }
  }
  return Object.fromEntries(Object.entries(times).map(([k, t]) => [k, stats(t, warmup)]));
}

// ---- formatting ----

export function fmtMs(ms) {
  if (ms >= 100) return Math.round(ms).toLocaleString('en-US');
  if (ms >= 10) return ms.toFixed(1);
  return ms.toFixed(2);
}
export const fmtRatio = (r) => `${r.toFixed(r >= 10 ? 0 : 1)}x`;
export const fmtInt = (n) => n.toLocaleString('en-US');
export const runsOf = (s) => (s.warmup ? `${s.n} (+${s.warmup} warm-up)` : `${s.n}`);

export function table(head, rows, left = 1) {
  const line = (cells) => `| ${cells.map((c) => String(c).replace(/(?<!\\)\|/g, '\\|')).join(' | ')} |`;
  // the first `left` columns are labels (left-aligned), the rest numbers (right-aligned)
  return [line(head), line(head.map((_, i) => (i < left ? '---' : '---:'))), ...rows.map(line)].join('\n');
}

// ---- test data ----

/** A small deterministic PRNG (mulberry32), so the generated chains are the same on every run. */
export function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = ('the of and to in is that for it as with was on be by this are from at or an which not have has but can ' +
  'all will one their there been more if no out so what when up into than them some could other then these two may its ' +
  'about time only would function test file error branch commit context agent token message result tool call read write ' +
  'return value config build fix bug login refresh race cache index chain fork merge review').split(' ');

/** English-like text of exactly `len` ASCII characters (compresses like prose, not like a repeated string). */
export function prose(rand, len) {
  let s = '';
  while (s.length < len) s += (s ? ' ' : '') + WORDS[Math.floor(rand() * WORDS.length)];
  return s.slice(0, len);
}

/** One Claude Code user-prompt line (~`size` bytes with its newline): the importer commits one per line. */
export function userLine(rand, i, size = 2048) {
  const shell = JSON.stringify({ type: 'user', message: { role: 'user', content: '' } });
  const prefix = `prompt ${i}: `;
  return JSON.stringify({ type: 'user', message: { role: 'user', content: prefix + prose(rand, size - shell.length - prefix.length - 1) } }) + '\n';
}

/**
 * CPU ms (user + sys) of one command and its children, from bash's `times` (its second line: the
 * children's), and the command's wall ms. Its stdout and stderr are discarded; `input` is its stdin.
 */
export function cpuRun(cmd, args, opts = {}) {
  const r = run('bash', ['-c', '"$@" >/dev/null 2>&1; times', 'bash', cmd, ...args], { ...opts, stdout: 'pipe' });
  const lines = r.stdout.toString().trim().split('\n');
  const m = /(\d+)m([\d.]+)s (\d+)m([\d.]+)s/.exec(lines[lines.length - 1]);
  if (!m) throw new Error(`no times from bash: ${r.stdout}`);
  return { cpu: (Number(m[1]) * 60 + Number(m[2]) + Number(m[3]) * 60 + Number(m[4])) * 1000, ms: r.ms };
}

/**
 * A new bare repo at `gitdir` filled by one `git fast-import` stream: `emit(text)` appends to the
 * stream (spooled to `streamFile` in 4 MB writes), `finish(head)` imports it, packs (git gc) and points HEAD.
 */
export function fastImportRepo(gitdir, streamFile, { gc = true } = {}) {
  spawnSync('git', ['init', '--bare', '-q', gitdir], { stdio: 'ignore' });
  const fd = openSync(streamFile, 'w');
  let pending = '';
  return {
    emit(text) {
      pending += text;
      if (pending.length > 1 << 22) (writeSync(fd, pending), (pending = ''));
    },
    /** `refs` (name → mark): written straight into packed-refs, as a team store's are after gc (no loose ref made, none to prune) */
    finish(head, { refs = null } = {}) {
      writeSync(fd, pending);
      closeSync(fd);
      const input = openSync(streamFile, 'r');
      const marks = `${streamFile}.marks`;
      const r = spawnSync('git', ['--git-dir', gitdir, 'fast-import', '--quiet', ...(refs ? [`--export-marks=${marks}`] : [])], { stdio: [input, 'ignore', 'pipe'] });
      closeSync(input);
      rmSync(streamFile);
      if (r.status !== 0) throw new Error(`fast-import: ${r.stderr}`);
      if (refs) {
        const oid = new Map(readFileSync(marks, 'utf8').trim().split('\n').map((l) => [Number(l.slice(1, l.indexOf(' '))), l.slice(l.indexOf(' ') + 1)]));
        rmSync(marks);
        const lines = [...refs].sort(([a], [b]) => (a < b ? -1 : 1)).map(([name, mark]) => `${oid.get(mark)} ${name}\n`);
        writeFileSync(join(gitdir, 'packed-refs'), `# pack-refs with: peeled fully-peeled sorted \n${lines.join('')}`);
      }
      // gc: repack everything (an hour at a million commits); else only pack the refs, as a team store's are
      else spawnSync('git', ['--git-dir', gitdir, ...(gc ? ['gc', '--quiet'] : ['pack-refs', '--all', '--prune'])], { stdio: 'ignore' });
      writeFileSync(join(gitdir, 'HEAD'), `ref: ${head}\n`);
    },
  };
}
