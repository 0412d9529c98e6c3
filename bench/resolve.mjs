// Resolve: `ctx resolve --principal P --at T` over generated stores (bench/timeline-gen.mjs: 50
// principals, chains of 1,000, forks, ties, clock skew). At 100,000 commits: the answers equal a
// linear scan's for 1,000 random times, also after the index is deleted, and the index rebuild is
// timed. At 100,000 and 1,000,000 timeline entries: the latency of one resolve, whole process and
// in-process. CPU is user + sys of the whole process tree (GNU time), in interleaved rounds, beside
// the nearest native git: `git log --all --author=P --before=T -1` (a walk, no index).
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CTX_BIN, DIST, NODE, fmtInt, fmtMs, fmtRatio, median, progress, rounds, run, table, tempDir } from './lib.mjs';
import { measured } from './resume.mjs';
import { generateTimeline, linearResolve, prng, SPAN, T0 } from './timeline-gen.mjs';

const TIME = '/usr/bin/time';
const PRINCIPALS = 50;

function questions(n, seed) {
  const rand = prng(seed);
  return Array.from({ length: n }, () => ({
    principal: `principal-${String(Math.floor(rand() * PRINCIPALS)).padStart(2, '0')}`,
    t: T0 - 3600_000 + Math.floor(rand() * (SPAN + 2 * 24 * 3600_000)),
  }));
}

/** Each question resolved in this process; the answers and each call's ms. */
async function inProcess(store, qs) {
  const { openStore, NotFoundError } = await import(pathToFileURL(join(DIST, 'index.js')).href);
  const s = await openStore(store);
  const ids = [];
  const ms = [];
  try {
    for (const q of qs) {
      const start = performance.now();
      try {
        ids.push((await s.resolve({ principal: q.principal, at: new Date(q.t) })).id);
      } catch (e) {
        if (!(e instanceof NotFoundError)) throw e;
        ids.push(null);
      }
      ms.push(performance.now() - start);
    }
  } finally {
    await s.close();
  }
  return { ids, ms };
}

// not found (before the first commit) is exit 4: the time is what is measured
const ctxResolve = (store, q) => measured('bash', ['-c', `'${NODE}' '${CTX_BIN}' --store '${store}' resolve --principal ${q.principal} --at ${new Date(q.t).toISOString()} > /dev/null; true`]);
const nativeLog = (store, q) =>
  measured('git', ['--git-dir', store, 'log', '--all', `--author=^${q.principal} `, `--before=${Math.floor(q.t / 1000)}`, '-1', '--format=%H']);

export async function benchResolve({ check = 100_000, sizes = [100_000, 1_000_000] } = {}) {
  if (!existsSync(TIME)) return { markdown: `## Resolve\n\nskipped: ${TIME} (Debian package \`time\`) is not installed\n`, summary: null };
  const out = ['## Resolve: a principal\'s commit at a time\n'];
  const summary = {};

  // 1. the answers, and the rebuild
  {
    const dir = tempDir('resolve-check');
    const store = join(dir, 's.git');
    progress(`resolve: generate ${fmtInt(check)} commits`);
    const all = generateTimeline(store, { commits: check, principals: PRINCIPALS });
    const qs = questions(1000, 99);
    const expected = qs.map((q) => linearResolve(all, q.principal, q.t)).map((c) => (c ? `ctx-${c.oid}` : null));
    progress('resolve: 1,000 questions in-process (the first builds the index), again after deleting it');
    const built = performance.now();
    const first = await inProcess(store, qs);
    const buildMs = performance.now() - built;
    rmSync(join(store, 'ctx'), { recursive: true, force: true });
    const again = await inProcess(store, qs);
    const same = (ids) => ids.every((id, i) => id === expected[i]);
    if (!same(first.ids) || !same(again.ids)) throw new Error('resolve: an answer differs from the linear scan');
    summary.check = { commits: check, found: expected.filter(Boolean).length };
    out.push(
      `**Answers.** ${fmtInt(check)} commits by ${PRINCIPALS} principals on chains of 1,000 (every tenth a fork; 5% of commits in the ` +
        `millisecond of their parent, 2% older than it): 1,000 random (principal, time) questions, ${summary.check.found} with an answer, ` +
        `the rest before the principal's first commit. Every answer equals a linear scan's, with the index built on the first question ` +
        `(${fmtMs(buildMs)} ms wall for all 1,000, the build included) and again after \`ctx/timeline/\` was deleted.\n`,
    );

    progress('resolve: rebuild rounds');
    const q = qs[0];
    const r = await rounds({
      n: 3,
      variants: {
        rebuild: () => {
          rmSync(join(store, 'ctx', 'timeline'), { recursive: true, force: true });
          return ctxResolve(store, q).cpu;
        },
        native: () => measured('git', ['--git-dir', store, 'log', '--all', '--format=%H %an %at']).cpu,
      },
    });
    summary.rebuild = { ctx: r.rebuild.median, native: r.native.median };
    out.push(
      `**Index rebuild, ${fmtInt(check)} commits** (\`ctx resolve\` after \`rm -rf ctx/timeline\`: every ref's chain walked, every meta.json read, ` +
        `the files written, then the answer), beside native git walking every commit once (\`git log --all --format='%H %an %at'\`, no meta.json):\n`,
    );
    out.push(table(['', 'rounds', 'CPU ms (median)', 'vs native'], [
      ['ctx, rebuild and resolve', `${r.rebuild.n}`, fmtInt(Math.round(r.rebuild.median)), fmtRatio(r.rebuild.median / r.native.median)],
      ['git log --all', `${r.native.n}`, fmtInt(Math.round(r.native.median)), ''],
    ]));
    out.push('');
    rmSync(dir, { recursive: true, force: true });
  }

  // 2. latency at many entries
  const rows = [];
  summary.latency = [];
  for (const size of sizes) {
    const dir = tempDir(`resolve${size}`);
    const store = join(dir, 's.git');
    progress(`resolve ${fmtInt(size)}: generate`);
    generateTimeline(store, { commits: size, principals: PRINCIPALS });
    progress(`resolve ${fmtInt(size)}: build the index`);
    const build = ctxResolve(store, { principal: 'principal-00', t: T0 + SPAN });
    // questions with an answer: that is the path with the meta.json check
    const qs = questions(4000, size).filter((q) => q.t > T0 + SPAN / 2).slice(0, 1000);
    progress(`resolve ${fmtInt(size)}: in-process, then whole-process rounds`);
    const inproc = await inProcess(store, qs);
    const r = await rounds({
      n: 10,
      variants: {
        ctx: (i) => ctxResolve(store, qs[i]).cpu,
        native: (i) => nativeLog(store, qs[i]).cpu,
      },
    });
    const wall = [];
    const nativeWall = [];
    for (let i = 0; i < 10; i++) nativeWall.push(run('git', ['--git-dir', store, 'log', '--all', `--author=^${qs[i].principal} `, `--before=${Math.floor(qs[i].t / 1000)}`, '-1', '--format=%H']).ms);
    for (let i = 0; i < 10; i++) wall.push(run('bash', ['-c', `'${NODE}' '${CTX_BIN}' --store '${store}' resolve --principal ${qs[i].principal} --at ${new Date(qs[i].t).toISOString()} > /dev/null; true`]).ms);
    const found = inproc.ids.filter(Boolean).length;
    rows.push(
      [fmtInt(size), 'ctx resolve, whole process', `${r.ctx.n}`, fmtMs(r.ctx.median), fmtMs(median(wall)), fmtRatio(median(wall) / median(nativeWall))],
      [fmtInt(size), `store.resolve(), in-process (${found} of ${qs.length} found)`, `${qs.length}`, '', fmtMs(median(inproc.ms)), ''],
      [fmtInt(size), 'git log --all --author --before -1', `${r.native.n}`, fmtMs(r.native.median), fmtMs(median(nativeWall)), ''],
    );
    summary.latency.push({ size, ctx: r.ctx.median, wall: median(wall), inproc: median(inproc.ms), native: r.native.median, nativeWall: median(nativeWall), build: build.cpu });
    rmSync(dir, { recursive: true, force: true });
  }
  out.push(
    `**Latency of one resolve** once the index is built (${summary.latency.map((l) => `${fmtInt(l.size)} entries: built in ${fmtInt(Math.round(l.build))} ms CPU`).join('; ')}): ` +
      'a binary search of one principal\'s records, then the found commit\'s meta.json read to check the answer. Whole process: CPU (GNU time) ' +
      'in interleaved rounds with native git, each round a different question, and wall-clock medians; in-process: the wall-clock median ' +
      'of 1,000 calls on one open store. GNU time counts CPU in 10 ms steps, so the ratio is of wall-clock medians. Native git has no index: it walks history newest first until a commit by the author at or before the time.\n',
  );
  out.push(table(['entries', 'reader', 'runs', 'CPU ms (median)', 'wall ms (median)', 'wall vs native'], rows, 2));
  return { markdown: out.join('\n'), summary };
}
