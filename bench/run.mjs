// `npm run bench`: every benchmark, side by side with native git; a Markdown report on stdout and
// in bench/out/report.md. `node bench/run.mjs chain import` runs only the named ones;
// BENCH_SIZES=1000 shrinks benchmark 1; BENCH_KEEP=1 keeps the temp repos.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem, release, platform } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { CORPUS_FILE, ROOT, cleanup, fmtInt, fmtRatio, progress, snapshotBuild } from './lib.mjs';
import { benchChain } from './chain.mjs';
import { benchImport } from './import.mjs';
import { benchCheckpoint } from './checkpoint.mjs';
import { benchBlake3 } from './blake3.mjs';
import { benchSync } from './sync.mjs';
import { benchHook } from './hook.mjs';
import { benchRuntimeImport } from './runtime-import.mjs';
import { benchWhy } from './links-why.mjs';
import { benchTokens } from './tokens.mjs';
import { benchTranslate } from './translate.mjs';
import { benchResume } from './resume.mjs';
import { benchLarge } from './large.mjs';
import { benchResolve } from './resolve.mjs';
import { benchSession } from './session.mjs';
import { benchState } from './state.mjs';
import { benchLangGraph } from './langgraph.mjs';
import { benchServe } from './serve.mjs';
import { benchWeb } from './web.mjs';
import { benchConversation } from './conversation.mjs';
import { benchGrep } from './grep.mjs';
import { benchSearchIndex } from './search-index.mjs';
import { benchUsage } from './usage.mjs';
import { benchClone } from './clone.mjs';
import { benchMcp } from './mcp.mjs';
import { benchLinksCommit } from './links-commit.mjs';
import { benchLinksBlame } from './links-blame.mjs';

const ALL = ['chain', 'resume', 'large', 'import', 'checkpoint', 'blake3', 'hook', 'sync', 'tokens', 'translate', 'resolve', 'session', 'state', 'langgraph', 'grep', 'search-index', 'usage', 'clone', 'serve', 'web', 'conversation', 'mcp', 'commit-hook', 'why', 'blame', 'runtime-import'];
const wanted = process.argv.slice(2);
for (const w of wanted) if (!ALL.includes(w)) throw new Error(`unknown benchmark '${w}' (${ALL.join(', ')})`);
const picked = wanted.length ? ALL.filter((b) => wanted.includes(b)) : ALL;
const needCorpus = picked.filter((b) => ['import', 'blake3', 'hook', 'tokens', 'translate', 'runtime-import'].includes(b));
if (needCorpus.length && !existsSync(CORPUS_FILE)) {
  console.error(`bench: ${needCorpus.join(', ')} read ../shared/corpus, not found beside the checkout (${CORPUS_FILE}); run the others by name: node bench/run.mjs chain checkpoint sync`);
  process.exit(1);
}
const sizes = (process.env.BENCH_SIZES ?? '1000,10000').split(',').map(Number);

const out = (cmd, args) => spawnSync(cmd, args, { cwd: ROOT, encoding: 'utf8' }).stdout?.trim() ?? '';
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
const rev = out('git', ['rev-parse', '--short', 'HEAD']);
const dirty = out('git', ['status', '--porcelain', '--untracked-files=no']) ? ' (with uncommitted changes)' : '';

// A CA bundle named here is parsed by every node that starts (~70 ms of CPU each on these machines),
// which a user's machine does not do and git never does: the run goes without it, and says so.
const caBundle = process.env.NODE_EXTRA_CA_CERTS;
delete process.env.NODE_EXTRA_CA_CERTS;

progress(`benchmarking a copy of the build: ${snapshotBuild()}`);
const start = performance.now();
const loadBefore = loadavg()[0];
const sections = [];
const targets = [];
try {
  for (const b of picked) {
    progress(`== ${b}`);
    if (b === 'chain') {
      const r = await benchChain({ sizes });
      sections.push(r.markdown);
      for (const s of r.summary) {
        targets.push(`- materialize ${s.size.toLocaleString('en-US')} commits, ${s.label}: ctx (git engine) / native = ${fmtRatio(s.ratio)} ` +
          `(target ≤ 1.5x: ${s.ratio <= 1.5 ? '**met**' : '**missed**'}); / native reading the artifacts = ${fmtRatio(s.ratioFull)}`);
      }
    } else if (b === 'resume') {
      const r = await benchResume({ sizes: (process.env.BENCH_RESUME_SIZES ?? '1000,10000,100000').split(',').map(Number) });
      sections.push(r.markdown);
      for (const s of r.summary)
        targets.push(`- resume ${s.size.toLocaleString('en-US')} commits: cold CPU / native = ${fmtRatio(s.cold)} (target ≤ 1.3x: ${s.cold <= 1.3 ? '**met**' : '**missed**'}); peak RSS / native = ${fmtRatio(s.rssRatio)} (target ≤ 1.5x: ${s.rssRatio <= 1.5 ? '**met**' : '**missed**'}); after one more checkpoint ${s.next.toFixed(0)} ms CPU, cached ${s.cached.toFixed(0)} ms`);
    } else if (b === 'large') {
      sections.push((await benchLarge()).markdown);
    } else if (b === 'import') {
      sections.push((await benchImport()).markdown);
    } else if (b === 'checkpoint') {
      const r = await benchCheckpoint();
      sections.push(r.markdown);
      targets.push(`- \`ctx --version\` − \`node -e 0\` = ${r.summary.ver.toFixed(1)} ms (target ≤ 30 ms: ${r.summary.target ? '**met**' : '**missed**'})`);
    } else if (b === 'hook') {
      const r = await benchHook();
      sections.push(r.markdown);
      for (const h of r.summary.rows)
        targets.push(`- \`${h.name}\`: ${h.over.toFixed(1)} ms CPU over \`node -e 0\` (${h.cpu.toFixed(0)} ms; target ≤ 30 ms: ${h.met ? '**met**' : '**missed**'})`);
    } else if (b === 'runtime-import') {
      const r = await benchRuntimeImport();
      sections.push(r.markdown);
      for (const s of r.summary) targets.push(`- \`ctx import ${s.runtime}\`: ${s.mbps.toFixed(1)} MB/s (${s.ctx.toFixed(0)} ms CPU; \`git hash-object -w\` of the same bytes ${s.git.toFixed(0)} ms)`);
    } else if (b === 'blake3') {
      sections.push((await benchBlake3()).markdown);
    } else if (b === 'sync') {
      sections.push((await benchSync()).markdown);
    } else if (b === 'tokens') {
      sections.push((await benchTokens()).markdown);
    } else if (b === 'translate') {
      sections.push((await benchTranslate()).markdown);
    } else if (b === 'grep') {
      const r = await benchGrep();
      sections.push(r.markdown);
      if (r.summary) targets.push(`- grep, rare phrase: ctx / git grep = ${fmtRatio(r.summary['quokka lattice'].ratio)}; common word: ${fmtRatio(r.summary.refresh.ratio)}; ctx files ${r.summary.files.toFixed(0)} ms CPU`);
    } else if (b === 'search-index') {
      const r = await benchSearchIndex();
      sections.push(r.markdown);
      for (const s of r.summary ?? [])
        targets.push(`- search index, ${s.sessions.toLocaleString('en-US')} sessions: grep warm ${s.med['grep warm'].toFixed(0)} ms CPU (goal ≤ 300 at 100,000; git log --all -S ${s.med['git log --all -S'].toFixed(0)} ms), after one commit ${s.med['grep after one commit'].toFixed(0)} ms; files warm ${s.med['files warm'].toFixed(0)} ms; checkpoint with the index ${(s.med['checkpoint, index present'] - s.med['checkpoint, CTX_NO_INDEX=1']).toFixed(0)} ms more (goal ≤ 10)`);
    } else if (b === 'usage') {
      const r = await benchUsage();
      sections.push(r.markdown);
      if (r.summary) targets.push(`- \`ctx usage\`, ${fmtInt(r.summary.sessions)} sessions: ${r.summary.cold.toFixed(0)} ms CPU cold, ${r.summary.warm.toFixed(0)} ms warm (git log --all ${r.summary.git.toFixed(0)} ms${r.summary.jq === null ? '' : `, jq over the transcripts ${r.summary.jq.toFixed(0)} ms`})`);
    } else if (b === 'clone') {
      const r = await benchClone();
      sections.push(r.markdown);
      const c = r.summary.clone;
      const p = r.summary.push;
      const clones = c['git clone --bare'] === undefined ? [] : [`${c['ctx clone'].toFixed(0)} ms (git clone ${c['git clone --bare'].toFixed(0)} ms); --filter=blob:none ${c['ctx clone --filter=blob:none'].toFixed(0)} ms (git ${c['git clone --bare --filter=blob:none'].toFixed(0)} ms)`];
      const pushes = p['ctx push'] ? [`push ${p['ctx push'].cpu.toFixed(0)} ms CPU, ${p['ctx push'].ms.toFixed(0)} ms wall (git push ${p['git push'].cpu.toFixed(0)} ms CPU, ${p['git push'].ms.toFixed(0)} ms wall)`] : [];
      targets.push(`- \`ctx clone\`, ${fmtInt(r.summary.sessions)} sessions: ${[...clones, ...pushes].join('; ')}`);
    } else if (b === 'session') {
      sections.push((await benchSession()).markdown);
    } else if (b === 'langgraph') {
      const r = await benchLangGraph();
      sections.push(r.markdown);
      const lost = r.summary.rows.filter((row) => row.at(-1) === 'sqlite').map((row) => row[0]);
      targets.push(`- CtxSaver against SqliteSaver, 1,000 LangGraph steps: ${lost.length ? `slower or larger in ${lost.length} of ${r.summary.rows.length} columns (${lost.join('; ')})` : '**faster and smaller in every column**'}`);
    } else if (b === 'state') {
      const r = await benchState();
      sections.push(r.markdown);
      if (r.summary)
        targets.push(`- State write latency and repo growth for 1,000 writes of one key in a 1 MB state: ${r.summary.latency.toFixed(1)} ms a write in-process, ${fmtInt(Math.round(r.summary.perWrite))} bytes of objects a write (state ${fmtInt(r.summary.size)} bytes); CPU / native git plumbing = ${fmtRatio(r.summary.cpuRatio)}`);
    } else if (b === 'serve') {
      const r = await benchServe();
      sections.push(r.markdown);
      if (r.summary) targets.push(`- \`ctx serve\`, a 2,000-turn 20 MB session: first messages drawn in ${r.summary.cold.toFixed(0)} ms (target < 1 s: ${r.summary.cold < 1000 ? '**met**' : '**missed**'}); /api/messages ${r.summary.endpoint.toFixed(0)} ms CPU vs \`ctx materialize\` ${r.summary.materialize.toFixed(0)} ms`);
    } else if (b === 'web') {
      const r = await benchWeb();
      sections.push(r.markdown);
      if (r.summary) targets.push(`- \`ctx serve\`'s sessions page, ${fmtInt(r.summary.sessions)} sessions: drawn in ${r.summary.page.toFixed(0)} ms; /api/sessions ${r.summary.endpoint.toFixed(0)} ms CPU with nothing kept, ${r.summary.warm.toFixed(0)} ms with its cache, vs \`git for-each-ref\` ${r.summary.peer.toFixed(0)} ms`);
    } else if (b === 'conversation') {
      const r = await benchConversation();
      sections.push(r.markdown);
      if (r.summary) targets.push(`- the conversation page, a ${r.summary.messages.toLocaleString('en-US')}-message session in a store of 1,000 sessions: first paint ${r.summary.cold.toFixed(0)} ms (server just started), ${r.summary.warm.toFixed(0)} ms again (a 10-message session's ${r.summary.peer.toFixed(0)} ms); scrolling ${r.summary.perPage.toFixed(0)} ms a page of 100, longest task ${r.summary.longest.toFixed(0)} ms (${r.summary.longestCpu.toFixed(0)} ms CPU)`);
    } else if (b === 'mcp') {
      const r = await benchMcp();
      sections.push(r.markdown);
      const s = r.summary;
      targets.push(`- \`ctx mcp\` warm, 100 sessions: search ${s.search.median.toFixed(0)} ms median, ${s.search.p99.toFixed(0)} ms p99 (\`ctx grep\` process ${s.search.peers['ctx grep'].toFixed(0)} ms, git grep ${s.search.peers['git grep'].toFixed(0)} ms); read ${s.read.median.toFixed(0)} ms median, ${s.read.p99.toFixed(0)} ms p99 (\`ctx materialize\` process ${s.read.peers['ctx materialize'].toFixed(0)} ms)`);
    } else if (b === 'commit-hook') {
      const r = await benchLinksCommit({ sizes: (process.env.BENCH_COMMIT_SIZES ?? '10,1000,10000').split(',').map(Number) });
      sections.push(r.markdown);
      for (const s of r.summary)
        targets.push(`- \`git commit\` with ctx's git hooks − without, ${fmtInt(s.size)} sessions: ${s.added.toFixed(0)} ms CPU (target ≤ node's start + 30 = ${(s.floor + 30).toFixed(0)} ms: ${s.met ? '**met**' : '**missed**'})`);
    } else if (b === 'why') {
      const r = await benchWhy();
      sections.push(r.markdown);
      targets.push(`- \`ctx why HEAD\` on a commit linked to a 10,000-turn session, warm store: ${r.summary.median.toFixed(0)} ms whole process, ${r.summary.cpu.toFixed(0)} ms CPU (target < 500 ms: ${r.summary.median < 500 ? '**met**' : r.summary.cpu < 500 ? '**met** in CPU, not in wall time on this loaded machine' : '**missed**'}; \`node -e 0\` alone ${r.summary.floor.toFixed(0)} ms)`);
    } else if (b === 'blame') {
      const r = await benchLinksBlame();
      sections.push(r.markdown);
      if (r.summary)
        targets.push(`- \`ctx blame\` of a 2,000-line file, 300 commits, 200 linked: ${r.summary.ctx.toFixed(0)} ms CPU against 1.5 × git blame + node's start = ${r.summary.budget.toFixed(0)} ms (target: ${r.summary.ctx <= r.summary.budget ? '**met**' : '**missed**'})`);
    } else if (b === 'resolve') {
      const r = await benchResolve({ sizes: (process.env.BENCH_RESOLVE_SIZES ?? '100000,1000000').split(',').map(Number) });
      sections.push(r.markdown);
      for (const l of r.summary?.latency ?? [])
        targets.push(`- resolve at ${fmtInt(l.size)} timeline entries: ${l.wall.toFixed(0)} ms whole process (${l.ctx.toFixed(0)} ms CPU; native \`git log --author --before -1\` ${l.nativeWall.toFixed(0)} ms), ${l.inproc.toFixed(2)} ms in-process`);
      if (r.summary?.rebuild) targets.push(`- resolve's index rebuild, ${fmtInt(r.summary.check.commits)} commits: ${r.summary.rebuild.ctx.toFixed(0)} ms CPU (native \`git log --all\` ${r.summary.rebuild.native.toFixed(0)} ms); answers equal a linear scan's for 1,000 random times, before and after a rebuild`);
    }
  }
} finally {
  cleanup();
}

const cpu = cpus();
const report = [
  `# agent-ctx benchmarks\n`,
  `${new Date().toISOString()} · ${pkg.name} ${pkg.version} at \`${rev}\`${dirty} · node ${process.version} · ` +
    `${out('git', ['--version'])} · ${platform()} ${release()} · ${cpu.length} × ${cpu[0]?.model.trim()} · ` +
    `${Math.round(totalmem() / 2 ** 30)} GiB · total ${((performance.now() - start) / 1000).toFixed(0)} s · ` +
    `1-min load average ${loadBefore.toFixed(1)} at the start, ${loadavg()[0].toFixed(1)} at the end` +
    `${Math.max(loadBefore, loadavg()[0]) > cpu.length / 2 ? ' (other work was running: expect noise)' : ''}. ` +
    'Wall-clock medians; whole processes are timed with performance.now() around spawnSync. See bench/README.md.' +
    `${caBundle ? ` NODE_EXTRA_CA_CERTS (${caBundle}) was unset for the run: every node start would parse it first.` : ''}\n`,
  ...(targets.length ? ['**Targets**\n', ...targets, ''] : []),
  ...sections,
].join('\n');

process.stdout.write(report + '\n');
mkdirSync(join(ROOT, 'bench', 'out'), { recursive: true });
writeFileSync(join(ROOT, 'bench', 'out', 'report.md'), report + '\n');
progress(`report written to bench/out/report.md`);
