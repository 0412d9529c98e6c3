// Benchmark 1: materialize a whole N-commit chain (2 KB deltas), loose and packed, each engine,
// side by side with native git reading the same artifacts.
import { cpSync, existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { ctx, fmtInt, fmtMs, fmtRatio, git, prng, progress, runsOf, series, sh, table, tempDir, userLine } from './lib.mjs';

function dirBytes(p) {
  const st = statSync(p);
  if (!st.isDirectory()) return st.size;
  return readdirSync(p).reduce((n, e) => n + dirBytes(join(p, e)), 0);
}
const mb = (b) => `${(b / 1e6).toFixed(1)} MB`;

/** Build the chain once (git engine, fixed clock), then a loose and a packed copy of it. */
function setup(size) {
  const dir = tempDir(`chain${size}`);
  const rand = prng(size);
  const lines = [];
  for (let i = 0; i < size; i++) lines.push(userLine(rand, i));
  const source = Buffer.from(lines.join(''));
  const file = join(dir, 'chain.jsonl');
  writeFileSync(file, source);

  progress(`chain ${size}: import ${fmtInt(size)} lines (${mb(source.length)}) with the git engine`);
  const built = join(dir, 'built.git');
  const imp = ctx(['--store', built, 'import', 'claude-code', file, '-b', 'chain'], { env: { CTX_ENGINE: 'git' } });
  const count = Number(git(built, ['rev-list', '--count', 'chain']).stdout.toString().trim());
  if (count !== size) throw new Error(`chain ${size}: rev-list --count says ${count}`);
  const tip = git(built, ['rev-parse', 'chain']).stdout.toString().trim();

  // Loose: a copy whose pack (fast-import always writes one) is moved out and exploded with
  // `git unpack-objects` (which only writes objects the repo does not already have).
  progress(`chain ${size}: loose copy (git unpack-objects)`);
  const loose = join(dir, 'loose.git');
  cpSync(built, loose, { recursive: true });
  rmSync(join(loose, 'ctx'), { recursive: true, force: true });
  const packDir = join(loose, 'objects', 'pack');
  const aside = join(dir, 'pack-aside');
  mkdirSync(aside);
  for (const f of readdirSync(packDir)) renameSync(join(packDir, f), join(aside, f));
  const pack = readdirSync(aside).find((f) => f.endsWith('.pack'));
  const unpack = git(loose, ['unpack-objects', '-q'], { input: readFileSync(join(aside, pack)) });
  const looseCount = git(loose, ['count-objects', '-v']).stdout.toString();
  if (!/^in-pack: 0$/m.test(looseCount) || !new RegExp(`^count: ${4 * size}$`, 'm').test(looseCount)) {
    throw new Error(`chain ${size}: loose copy is not all loose:\n${looseCount}`);
  }

  progress(`chain ${size}: packed copy (git gc)`);
  const packed = join(dir, 'packed.git');
  cpSync(built, packed, { recursive: true });
  rmSync(join(packed, 'ctx'), { recursive: true, force: true });
  const gc = git(packed, ['gc', '--quiet']);

  return {
    size, dir, file, source, tip, imp, unpack, gc,
    repos: [
      ['loose', loose, dirBytes(join(loose, 'objects'))],
      ['packed', packed, dirBytes(join(packed, 'objects'))],
    ],
  };
}

async function measureRepo(c, label, repo) {
  const { size, source, dir } = c;
  const big = size >= 10000;
  const cache = join(repo, 'ctx', 'cache');
  const dropCache = () => rmSync(cache, { recursive: true, force: true });
  const outFile = join(dir, 'out.jsonl');
  const verified = [];
  const check = (what) => {
    const got = readFileSync(outFile);
    if (!got.equals(source)) throw new Error(`chain ${size} ${label} ${what}: output (${got.length} bytes) differs from the generated file (${source.length} bytes)`);
    verified.push(what);
  };
  const mat = (engine, verifyRun) => {
    const r = ctx(['--store', repo, 'materialize', 'chain', '--stop', 'root'], { env: { CTX_ENGINE: engine }, stdout: verifyRun ? outFile : 'null' });
    if (verifyRun) check(engine);
    return r.ms;
  };
  const q = `'${repo}'`;
  const rows = {};

  progress(`chain ${size} ${label}: native git`);
  rows.native = await series({ n: big ? 3 : 5, fn: () => sh(`git --git-dir ${q} log --format=%H chain | git --git-dir ${q} cat-file --batch > /dev/null`).ms });
  rows.nativeFull = await series({ n: big ? 3 : 5, fn: () => sh(`git --git-dir ${q} log --format=%H:delta.jsonl chain | git --git-dir ${q} cat-file --batch > /dev/null`).ms });

  progress(`chain ${size} ${label}: ctx materialize, git engine, no cache`);
  // the warm-up run writes its output to a file, which must equal the generated transcript
  rows.git = await series({ n: big ? 3 : 5, warmup: 1, before: dropCache, fn: (i) => mat('git', i === 0) });
  progress(`chain ${size} ${label}: ctx materialize, isogit engine, no cache${big ? ' (one run, ~20-40 s)' : ''}`);
  // isogit: no warm-up (the repo is already in the page cache); the first run is verified
  rows.isogit = await series({ n: big ? 1 : 3, warmup: 0, before: dropCache, fn: (i) => mat('isogit', i === 0) });
  progress(`chain ${size} ${label}: ctx materialize, cached`);
  if (!existsSync(cache)) throw new Error(`chain ${size} ${label}: materialize left no cache entry in ${cache}`);
  rows.gitCached = await series({ n: 5, warmup: 1, fn: (i) => mat('git', i === 0) });
  rows.isogitCached = await series({ n: big ? 3 : 5, warmup: 1, fn: (i) => mat('isogit', i === 0) });
  return { rows, verified };
}

export async function benchChain({ sizes = [1000, 10000] } = {}) {
  const out = [];
  const summary = [];
  out.push('## 1. Materialize a whole chain (`ctx materialize chain --stop root`)\n');
  out.push(
    'Each chain is built once: an in-memory Claude Code transcript of N user-prompt lines of 2,048 bytes ' +
      '(deterministic English-like text), imported with `ctx import claude-code FILE -b chain` (git engine, fixed ' +
      '`CTX_NOW`), so one commit per line, each a 2 KB `delta.jsonl` plus `meta.json`. ' +
      '**loose**: a copy whose fast-import pack was moved out and exploded with `git unpack-objects` ' +
      '(4 loose objects per commit, checked with `git count-objects`). **packed**: a copy after `git gc` ' +
      '(`git gc --aggressive=false` is rejected by git 2.39, "option `aggressive\' takes no value"; plain `git gc` is the ' +
      'non-aggressive gc). Every ctx run is a whole `node bin/ctx` process with `<repo>/ctx/cache` deleted ' +
      'first (so it includes writing the cache entry), except the *cached* rows (a second materialize, entry present). ' +
      'Baselines run through `bash -c` on the same repo: **native** is the brief\'s ' +
      '`git log --format=%H chain | git cat-file --batch > /dev/null` (reads the commit objects only); ' +
      '**native, artifacts** reads the bytes any materialization must return: `git log --format=%H:delta.jsonl chain | ' +
      'git cat-file --batch > /dev/null` (ctx reads the same artifacts, plus each tree, by object id). ' +
      'One warm-up run is discarded for every series except isogit uncached. The output of the first run of each ctx ' +
      'series is written to a file and compared byte for byte with the generated transcript.\n',
    );
  for (const size of sizes) {
    const c = setup(size);
    const perCommit = (ms) => (ms / size).toFixed(ms / size >= 1 ? 2 : 3);
    out.push(`### ${fmtInt(size)} commits\n`);
    out.push(
      `Transcript ${fmtInt(c.source.length)} bytes; tip \`ctx-${c.tip.slice(0, 12)}\`; \`git rev-list --count chain\` = ${fmtInt(size)}. ` +
        `Build (one \`ctx import\` process, git engine): ${fmtMs(c.imp.ms)} ms (${fmtInt(Math.round(size / (c.imp.ms / 1000)))} commits/s). ` +
        `Loose copy: \`git unpack-objects\` ${fmtMs(c.unpack.ms)} ms, objects ${c.repos[0][2] ? mb(c.repos[0][2]) : '?'}. ` +
        `Packed copy: \`git gc\` ${fmtMs(c.gc.ms)} ms, objects ${mb(c.repos[1][2])}.\n`,
    );
    const rows = [];
    for (const [label, repo] of c.repos) {
      const { rows: r, verified } = await measureRepo(c, label, repo);
      const line = (name, s, vsNative = true) => [
        label, name, runsOf(s), fmtMs(s.median), perCommit(s.median),
        vsNative ? fmtRatio(s.median / r.native.median) : '', vsNative ? fmtRatio(s.median / r.nativeFull.median) : '',
        `${fmtMs(s.min)}–${fmtMs(s.max)}`,
      ];
      rows.push(line('native `git log | cat-file --batch`', r.native, false));
      rows.push(line('native, artifacts', r.nativeFull, false));
      rows.push(line('**ctx, git engine**', r.git));
      rows.push(line('ctx, isogit engine', r.isogit));
      rows.push(line('ctx, git engine, cached', r.gitCached));
      rows.push(line('ctx, isogit engine, cached', r.isogitCached));
      if (verified.length !== 4) throw new Error(`chain ${size} ${label}: only ${verified.length} outputs verified`);
      summary.push({ size, label, ratio: r.git.median / r.native.median, ratioFull: r.git.median / r.nativeFull.median, git: r.git.median, native: r.native.median });
    }
    out.push(table(['repo', 'reader', 'runs', 'median ms', 'ms/commit', 'vs native', 'vs native, artifacts', 'min–max ms'], rows, 2));
    out.push(`\nOutput checked: every ctx series' first run produced exactly the ${fmtInt(c.source.length)} bytes of the generated transcript.\n`);
    progress(`chain ${size}: removing its temp repos`);
    rmSync(c.dir, { recursive: true, force: true });
  }
  return { markdown: out.join('\n'), summary };
}
