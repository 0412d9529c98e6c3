// Structured state: 1,000 writes of one key (llm.usage) in a 1 MB state, through the library (each
// write a context commit), side by side with native git writing the same 1,000 changes with
// `git hash-object -w` + `git mktree` + `git commit-tree` + `git update-ref`; interleaved rounds of
// 100 writes, CPU of each whole process tree (GNU time); then how much each repo grew.
import { cpSync, existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DIST, FIXED_ENV, NODE, fmtInt, fmtRatio, git, median, progress, rounds, run, table, tempDir } from './lib.mjs';
import { measured } from './resume.mjs';

const TIME = '/usr/bin/time';
const ROUND = 100;

function objectBytes(gitdir) {
  let total = 0;
  const walk = (d) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else total += statSync(p).size;
    }
  };
  walk(join(gitdir, 'objects'));
  return total;
}

/** About 1 MB of reasoning-v1 state: facts, artifacts, warnings (externalized) and hypotheses (inline). */
async function fill(room) {
  const text = (i, n) => `${i}: ${'the parser reads the header once and the body in blocks '.repeat(Math.ceil(n / 56))}`.slice(0, n);
  await room.set('enrichment', 'facts', Array.from({ length: 600 }, (_, i) => ({ id: `f${i}`, content: text(i, 650), source: 'bench', confidence: 0.9 })), { as: 'context_synthesizer' });
  await room.set('retrieval', 'artifacts', Array.from({ length: 6 }, (_, i) => ({ id: `a${i}`, type: 'doc', content: text(i, 45000) })), { as: 'retrieval_planner' });
  await room.set('diagnostics', 'warnings', Array.from({ length: 300 }, (_, i) => ({ message: text(i, 550) })), { as: 'validation' });
  await room.set('reasoning', 'hypotheses', Array.from({ length: 150 }, (_, i) => ({ id: `h${i}`, description: text(i, 600) })), { as: 'reasoning_structure' });
}

export async function benchState({ writes = 1000 } = {}) {
  if (!existsSync(TIME)) return { markdown: `## Structured state\n\nskipped: ${TIME} (Debian package \`time\`) is not installed\n`, summary: null };
  const dir = tempDir('state');
  const repo = join(dir, 'ctx.git');
  const peer = join(dir, 'native.git');
  const lib = await import(pathToFileURL(join(DIST, 'index.js')).href);
  const store = await lib.openStore(repo, { create: true, env: FIXED_ENV, engine: 'git' });
  const room = store.state('room');
  await room.init();
  await fill(room);
  const size = (await room.stats()).total;
  await store.close();
  git(repo, ['gc', '--quiet']);
  cpSync(repo, peer, { recursive: true });
  progress(`state: a ${fmtInt(size)}-byte state; ${writes} writes of llm.usage, ctx and native git in interleaved rounds of ${ROUND}`);

  const script = join(dir, 'writes.mjs');
  writeFileSync(
    script,
    `import { openStore } from ${JSON.stringify(pathToFileURL(join(DIST, 'index.js')).href)};\n` +
      `const [from, n] = process.argv.slice(2).map(Number);\n` +
      `const st = await openStore(${JSON.stringify(repo)}, { engine: 'git' });\nconst room = st.state('room');\nconst ms = [];\n` +
      `for (let i = from; i < from + n; i++) { const t = performance.now(); await room.set('llm', 'usage', { total_tokens: i }, { as: 'inference' }); ms.push(performance.now() - t); }\n` +
      `await st.close();\nprocess.stdout.write(JSON.stringify(ms));\n`,
  );
  // the native peer: the same change as ctx makes it, one blob, the state tree, meta.json, the root tree, a commit, the ref
  const nativeScript = join(dir, 'writes.sh');
  writeFileSync(
    nativeScript,
    `set -e\nexport GIT_DIR=${JSON.stringify(peer)} GIT_AUTHOR_NAME=bench GIT_AUTHOR_EMAIL=bench@bench-host GIT_COMMITTER_NAME=bench GIT_COMMITTER_EMAIL=bench@bench-host\n` +
      `for i in $(seq "$1" $(($1 + $2 - 1))); do\n` +
      `  blob=$(printf '{"usage":{"total_tokens":%d}}\\n' "$i" | git hash-object -w --stdin)\n` +
      `  st=$( (git ls-tree room:state | grep -v '\tllm.json$'; printf '100644 blob %s\\tllm.json\\n' "$blob") | git mktree)\n` +
      `  meta=$(printf '{"agent":"inference","keys":["llm.usage"],"n":%d}\\n' "$i" | git hash-object -w --stdin)\n` +
      `  root=$( (git ls-tree room | grep -v -e '\tstate$' -e '\tmeta.json$'; printf '100644 blob %s\\tmeta.json\\n040000 tree %s\\tstate\\n' "$meta" "$st") | git mktree)\n` +
      `  c=$(git commit-tree "$root" -p room -m "state set: llm.usage by inference")\n` +
      `  git update-ref refs/heads/room "$c"\n` +
      `done\n`,
  );
  const before = { ctx: objectBytes(repo), native: objectBytes(peer) };
  const latency = [];
  let next = { ctx: 0, native: 0 };
  const cpu = {
    ctx: () => {
      const r = measured(NODE, [script, String(next.ctx), String(ROUND)]);
      next.ctx += ROUND;
      return r.cpu;
    },
    native: () => {
      const r = measured('bash', [nativeScript, String(next.native), String(ROUND)]);
      next.native += ROUND;
      return r.cpu;
    },
  };
  const r = await rounds({ n: writes / ROUND, warmup: 0, variants: cpu });
  // in-process latency, measured apart (GNU time's process already ran the same writes)
  const lat = run(NODE, [script, String(writes), '20'], { stdout: 'pipe', env: FIXED_ENV });
  latency.push(...JSON.parse(lat.stdout.toString()));
  const grown = { ctx: objectBytes(repo) - before.ctx, native: objectBytes(peer) - before.native };
  git(repo, ['gc', '--quiet']);
  git(peer, ['gc', '--quiet']);
  const packed = { ctx: objectBytes(repo), native: objectBytes(peer) };
  const perWrite = (s) => s.median / ROUND;
  const rows = [
    ['ctx (library, `state.set`), CPU per write', perWrite(r.ctx).toFixed(2), fmtRatio(r.ctx.median / r.native.median)],
    ['native git (hash-object + mktree ×2 + commit-tree + update-ref), CPU per write', perWrite(r.native).toFixed(2), ''],
    ['ctx, in-process latency of one write (wall, median of 20)', median(latency).toFixed(2), ''],
  ];
  const growth = [
    ['ctx', fmtInt(grown.ctx), fmtInt(Math.round(grown.ctx / (writes + 20))), fmtInt(packed.ctx)],
    ['native git', fmtInt(grown.native), fmtInt(Math.round(grown.native / writes)), fmtInt(packed.native)],
  ];
  const markdown = [
    `## Structured state: ${fmtInt(writes)} writes of one key in a ${fmtInt(size)}-byte state\n`,
    `Each write a commit changing \`llm.usage\` (reasoning-v1) on a branch whose state holds facts, artifacts, warnings and hypotheses; ` +
      `${writes / ROUND} interleaved rounds of ${ROUND} writes per process (CPU of the process tree, GNU time; ctx's includes one node start per round).\n`,
    table(['', 'ms', 'ctx / native'], rows),
    '',
    `Repo growth (bytes of \`objects/\`, loose objects and packs: ctx packs past \`ctx.autoPack\`) after the writes, per write, and the whole repo after \`git gc\`. A write stores what changed ` +
      `(the llm namespace, the state and root trees, meta.json, the commit), never the ${fmtInt(size)}-byte state again.\n`,
    table(['', 'growth', 'per write', 'after git gc'], growth),
    '',
  ].join('\n');
  return { markdown, summary: { cpuRatio: r.ctx.median / r.native.median, latency: median(latency), perWrite: grown.ctx / (writes + 20), size } };
}
