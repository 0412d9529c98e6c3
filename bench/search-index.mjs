// Search index: `ctx grep needle777 --all` and `ctx files src/auth.ts` over generated stores of 1,000
// sessions (and 100,000 with BENCH_SEARCH_BIG=1: about a million commits, minutes to generate and
// index) of 10 turns each, written by one `git fast-import` stream in ctx's on-disk format: Claude
// Code lines, a Read of src/auth.ts in one turn of 50 (BENCH_SEARCH_TOUCH_EVERY), `needle777` in one session. Warm (the index up
// to date), after one new commit (the search catches up with it), and without the index
// (`--no-index`), beside `git log --all -S needle777` over the same store; then a checkpoint with and
// without an index in the store (writers never touch it). CPU of the whole process tree (GNU time),
// interleaved rounds.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { CTX_BIN, FIXED_ENV, NODE, baselineBin, fastImportRepo, fmtInt, fmtMs, fmtRatio, median, progress, table, tempDir } from './lib.mjs';
import { measured } from './resume.mjs';

const TIME = '/usr/bin/time';
const TURNS = Number(process.env.BENCH_SEARCH_TURNS ?? 10);
// a Read of src/auth.ts in one turn of TOUCH_EVERY: `files`' answer is commits / TOUCH_EVERY rows
// (BENCH_SEARCH_TOUCH_EVERY=5 at 100,000 × 1 gives the 20,000 rows of 100,000 × 10 without its million commits)
const TOUCH_EVERY = Number(process.env.BENCH_SEARCH_TOUCH_EVERY ?? 50);
const WORDS = 'the token refresh retries once after a failure and logs each attempt with its status code while the session keeps going'.split(' ');

/** A bare store of `sessions` Claude Code sessions of TURNS commits each, by one fast-import stream. */
export function generateSessions(dir, sessions) {
  const gitdir = join(dir, 'store.git');
  // from 10,000 sessions up the objects stay in fast-import's pack (a full gc of a million commits
  // takes an hour) and the refs go straight into packed-refs (100,000 loose ones take minutes to prune)
  const big = sessions >= 10_000;
  const { emit, finish } = fastImportRepo(gitdir, join(dir, 'stream'), { gc: !big });
  const tmp = 'refs/heads/ctx-bench-import';
  const refs = [];
  let mark = 0;
  for (let s = 0; s < sessions; s++) {
    const session = `00000000-0000-4000-8000-${String(s).padStart(12, '0')}`;
    let parent = 0;
    // each session a root commit on one import branch; its ref is written from the marks
    if (big) emit(`reset ${tmp}\n`);
    for (let t = 0; t < TURNS; t++) {
      const n = s * TURNS + t;
      const at = new Date(Date.parse('2026-11-01T00:00:00Z') + n * 1000).toISOString();
      const words = Array.from({ length: 60 }, (_, i) => WORDS[(n * 7 + i * 13) % WORDS.length]).join(' ');
      const text = `${s === 777 && t === Math.min(5, TURNS - 1) ? 'needle777 ' : ''}turn ${n}: ${words}`;
      let lines = JSON.stringify({ type: 'user', sessionId: session, timestamp: at, message: { role: 'user', content: text } }) + '\n';
      const tool = n % TOUCH_EVERY === Math.floor(TOUCH_EVERY / 2) ? [{ type: 'tool_use', id: `t${n}`, name: 'Read', input: { file_path: '/repo/src/auth.ts' } }] : [];
      lines += JSON.stringify({ type: 'assistant', sessionId: session, timestamp: at, message: { id: `m${n}`, role: 'assistant', content: [{ type: 'text', text: `Done with turn ${n}.` }, ...tool] } }) + '\n';
      const meta = JSON.stringify({ artifact: `blake3:${'0'.repeat(64)}`, artifact_size: Buffer.byteLength(lines), checkpoint: 'import', created_at: at, format: 'claude-code-v1', machine: 'box', message_count: 2, principal: 'bench', session_id: session, summary: '', template: 'claude-code', token_count: 1, type: 'delta', v: 1 }) + '\n';
      const who = `bench <bench@box> ${Math.floor(Date.parse(at) / 1000)} +0000`;
      const msg = `delta: 2 messages\n\nCtx-Type: delta\nCtx-Format: claude-code-v1\nCtx-Session: ${session}\nCtx-Template: claude-code\n`;
      mark++;
      emit(
        `commit ${big ? tmp : `refs/heads/claude/${session}`}\nmark :${mark}\nauthor ${who}\ncommitter ${who}\ndata ${Buffer.byteLength(msg)}\n${msg}` +
          (parent ? `from :${parent}\n` : '') +
          `M 100644 inline delta.jsonl\ndata ${Buffer.byteLength(lines)}\n${lines}\nM 100644 inline meta.json\ndata ${Buffer.byteLength(meta)}\n${meta}\n`,
      );
      parent = mark;
    }
    refs.push([`refs/heads/claude/${session}`, mark]);
  }
  finish('refs/heads/claude/00000000-0000-4000-8000-000000000000', big ? { refs } : {});
  if (big) rmSync(join(gitdir, tmp));
  return gitdir;
}

/** The generated store in `dir`; with BENCH_SEARCH_CACHE=DIR generated once there and hard-linked
 * (git replaces what it changes by rename, so the cached copy stays as generated). */
function cachedSessions(dir, sessions) {
  const cache = process.env.BENCH_SEARCH_CACHE;
  const cached = cache && join(cache, `sessions-${sessions}x${TURNS}${TOUCH_EVERY === 50 ? '' : `-touch${TOUCH_EVERY}`}`);
  if (cached && existsSync(join(cached, 'store.git', 'packed-refs'))) progress(`search-index: ${fmtInt(sessions)} sessions from ${cached}`);
  else {
    progress(`search-index: generating ${fmtInt(sessions)} sessions of ${TURNS} turns`);
    if (!cached) return generateSessions(dir, sessions);
    rmSync(cached, { recursive: true, force: true });
    mkdirSync(cached, { recursive: true });
    generateSessions(cached, sessions);
  }
  const r = spawnSync('cp', ['-al', join(cached, 'store.git'), join(dir, 'store.git')]);
  if (r.status !== 0) throw new Error(`cp -al: ${r.stderr}`);
  return join(dir, 'store.git');
}

const sh = (script, env = {}) => measured('bash', ['-c', script], env);

async function one(sessions, n) {
  const dir = tempDir(`search-index-${sessions}`);
  const gitdir = cachedSessions(dir, sessions);
  // BENCH_BASELINE=DIR: another build in the same rounds, on a store of its own (hard links of the same objects): its index may be of another schema
  const builds = [{ bin: CTX_BIN, label: '', gitdir }];
  if (process.env.BENCH_BASELINE) {
    mkdirSync(join(dir, 'baseline'));
    const r = spawnSync('cp', ['-al', gitdir, join(dir, 'baseline', 'store.git')]);
    if (r.status !== 0) throw new Error(`cp -al: ${r.stderr}`);
    builds.push({ bin: baselineBin(process.env.BENCH_BASELINE), label: ' (baseline)', gitdir: join(dir, 'baseline', 'store.git') });
  }
  const env = { ...FIXED_ENV, CTX_ENGINE: 'git' };
  const branch = 'claude/00000000-0000-4000-8000-000000000001';
  const variants = {};
  const build = {};
  for (const b of builds) {
    const ctx = (args) => `'${NODE}' '${b.bin}' --store '${b.gitdir}' ${args} > /dev/null; true`;
    let turn = 0;
    // one new commit on a session (not timed): the next search reads it into the index
    const addCommit = () => {
      const line = JSON.stringify({ type: 'user', message: { role: 'user', content: `one more turn ${turn++}` } });
      const r = spawnSync('bash', ['-c', `printf '%s\\n' '${line}' | ${ctx(`checkpoint -b '${branch}' --format claude-code-v1 -`)}`], { env: { ...process.env, ...env } });
      if (r.status !== 0) throw new Error(`checkpoint: ${r.stderr}`);
    };
    progress(`search-index: building the index (the first search)${b.label}`);
    build[b.label] = sh(ctx('grep needle777 --all'), env).cpu;
    // the index brought up to date first (not timed): a round's checkpoints moved a branch
    const upToDate = () => spawnSync('bash', ['-c', ctx('grep needle777 --all')], { env: { ...process.env, ...env } });
    const checkpoint = (more = {}) => sh(`printf '%s\\n' '{"type":"user","message":{"role":"user","content":"x"}}' | ${ctx(`checkpoint -b '${branch}' --format claude-code-v1 -`)}`, { ...env, ...more });
    Object.assign(variants, {
      [`grep warm${b.label}`]: () => (upToDate(), sh(ctx('grep needle777 --all'), env)),
      [`grep after one commit${b.label}`]: () => (addCommit(), sh(ctx('grep needle777 --all'), env)),
      [`files warm${b.label}`]: () => (upToDate(), sh(ctx('files src/auth.ts'), env)),
      [`files after one commit${b.label}`]: () => (addCommit(), sh(ctx('files src/auth.ts'), env)),
      [`checkpoint, index present${b.label}`]: () => checkpoint(),
      [`checkpoint, CTX_NO_INDEX=1${b.label}`]: () => checkpoint({ CTX_NO_INDEX: '1' }),
    });
    if (b.label) continue;
    Object.assign(variants, {
      'grep --no-index': () => sh(ctx('grep needle777 --all --no-index'), env),
      'files --no-index': () => sh(ctx('files src/auth.ts --no-index'), env),
      'git log --all -S': () => sh(`git --git-dir '${gitdir}' log --all --oneline -S needle777 > /dev/null`),
    });
  }
  const slow = sessions >= 10_000 ? new Set(['grep --no-index', 'files --no-index']) : new Set();
  // the same variant of each build one after the other, in every round
  const order = Object.keys(variants).sort((a, b) => stem(a).localeCompare(stem(b)));
  const cpu = Object.fromEntries(order.map((k) => [k, []]));
  for (let i = 0; i < n; i++)
    for (const k of order) {
      if (slow.has(k)) continue; // minutes each: not run
      cpu[k].push(variants[k]().cpu);
    }
  const med = Object.fromEntries(Object.entries(cpu).map(([k, v]) => [k, v.length ? median(v) : null]));
  const { size } = await import('node:fs').then((fs) => fs.statSync(join(gitdir, 'ctx', 'search', 'index.sqlite')));
  rmSync(dir, { recursive: true, force: true });
  return { sessions, build: build[''], baselineBuild: build[' (baseline)'], med, indexBytes: size };
}

const stem = (k) => k.replace(/ \(baseline\)$/, '');

export async function benchSearchIndex({ n = Number(process.env.BENCH_SEARCH_ROUNDS ?? 3) } = {}) {
  if (!existsSync(TIME)) return { markdown: `## Search index\n\nskipped: ${TIME} (Debian package \`time\`) is not installed\n`, summary: null };
  const sizes = process.env.BENCH_SEARCH_SIZES?.split(',').map(Number) ?? [1000, ...(process.env.BENCH_SEARCH_BIG === '1' ? [100_000] : [])];
  const results = [];
  for (const s of sizes) results.push(await one(s, n));
  const out = ['## Search index: `ctx grep` and `ctx files` at scale\n'];
  out.push(
    `Generated stores of Claude Code sessions, ${TURNS} turns (commits) each; \`needle777\` in one commit, a Read of src/auth.ts in one turn of ${TOUCH_EVERY}. ` +
      '**warm**: the index up to date; **after one commit**: a checkpoint just before (not timed), which the search reads into the index first; **--no-index**: every commit read, as before the index. ' +
      `The 100,000-session store is BENCH_SEARCH_BIG=1 (minutes to generate and index${sizes.includes(100_000) ? '' : '; not run here'}); BENCH_SEARCH_SIZES=1000,10000 picks others. CPU of the whole process tree (user + sys), median of ${n} interleaved rounds (--no-index is not run from 10,000 sessions up: minutes a search).\n`,
  );
  const keys = Object.keys(results[0].med);
  out.push(table(['', ...results.map((r) => `${fmtInt(r.sessions)} sessions, ms CPU`)], [
    ['index built (first search)', ...results.map((r) => fmtMs(r.build))],
    ...(results[0].baselineBuild === undefined ? [] : [['index built (first search) (baseline)', ...results.map((r) => fmtMs(r.baselineBuild))]]),
    ['index file', ...results.map((r) => `${(r.indexBytes / 1024 / 1024).toFixed(1)} MiB`)],
    ...keys.map((k) => [k, ...results.map((r) => (r.med[k] === null ? 'not run (minutes)' : fmtMs(r.med[k])))]),
    ['grep warm / git log -S', ...results.map((r) => fmtRatio(r.med['grep warm'] / r.med['git log --all -S']))],
    ['checkpoint: index present − CTX_NO_INDEX=1', ...results.map((r) => `${(r.med['checkpoint, index present'] - r.med['checkpoint, CTX_NO_INDEX=1']).toFixed(0)} ms`)],
  ]));
  return { markdown: out.join('\n') + '\n', summary: results };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await benchSearchIndex();
  process.stdout.write(r.markdown);
  const { cleanup } = await import('./lib.mjs');
  cleanup();
}
