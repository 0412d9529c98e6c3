// Benchmark 3: one `ctx checkpoint` process (a 2 KB delta onto an existing branch) against the
// native plumbing doing the same writes, and against the start-up floors of node, bash and git.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { CTX_BIN, DIST, FIXED_ENV, NODE, ctx, fmtMs, git, prng, progress, rounds, run, series, table, tempDir, userLine } from './lib.mjs';

// 5 git processes: the artifact and meta.json blobs, the tree, the commit, the branch.
const NATIVE = `#!/bin/bash
set -e
export GIT_DIR="$1"
a=$(git hash-object -w --stdin < "$2")
m=$(git hash-object -w --stdin < "$3")
t=$(printf '100644 blob %s\\tdelta.jsonl\\n100644 blob %s\\tmeta.json\\n' "$a" "$m" | git mktree)
c=$(git commit-tree "$t" -p refs/heads/b -m 'delta: 1 messages' -m 'Ctx-Type: delta
Ctx-Format: claude-code-v1
Ctx-Session: bench
Ctx-Template: bench')
git update-ref refs/heads/b "$c"
`;

export async function benchCheckpoint({ n = 20 } = {}) {
  const dir = tempDir('checkpoint');
  const rand = prng(42);
  const artifacts = [];
  for (let i = 0; i <= n; i++) {
    const f = join(dir, `delta-${i}.jsonl`);
    writeFileSync(f, userLine(rand, i));
    artifacts.push(f);
  }
  const seed = join(dir, 'seed.jsonl');
  writeFileSync(seed, userLine(rand, -1));
  const stores = {};
  for (const k of ['default', 'git', 'isogit', 'chars', 'native']) {
    stores[k] = join(dir, `${k}.git`);
    ctx(['--store', stores[k], 'checkpoint', '-b', 'b', '--format', 'claude-code-v1', seed], { env: { CTX_ENGINE: 'git' } });
  }
  // token_count by characters/4: what the tokenizer's load costs a process
  git(stores.chars, ['config', 'ctx.tokenCount', 'chars/4']);
  const meta = join(dir, 'meta.json');
  writeFileSync(meta, git(stores.native, ['cat-file', 'blob', 'b:meta.json']).stdout);
  const script = join(dir, 'native.sh');
  writeFileSync(script, NATIVE, { mode: 0o755 });
  const gitEnv = { GIT_AUTHOR_NAME: 'bench', GIT_AUTHOR_EMAIL: 'bench@bench-host', GIT_COMMITTER_NAME: 'bench', GIT_COMMITTER_EMAIL: 'bench@bench-host' };

  // engine undefined: CTX_ENGINE unset, so ctx picks (auto)
  const cp = (store, engine) => (i) => ctx(['--store', store, 'checkpoint', '-b', 'b', '--format', 'claude-code-v1', artifacts[i]], { env: { CTX_ENGINE: engine } }).ms;
  const variants = {
    'node -e 0': () => run(NODE, ['-e', '0']).ms,
    'bash -c :': () => run('bash', ['-c', ':']).ms,
    'git --version': () => run('git', ['--version']).ms,
    'node bin/ctx --version': () => run(NODE, [CTX_BIN, '--version']).ms,
    'native plumbing (bash + 5 git processes)': (i) => run('bash', [script, stores.native, artifacts[i], meta], { env: gitEnv }).ms,
    'ctx checkpoint (default engine)': cp(stores.default, undefined),
    'ctx checkpoint, git engine': cp(stores.git, 'git'),
    'ctx checkpoint, isogit engine': cp(stores.isogit, 'isogit'),
    'ctx checkpoint, git engine, ctx.tokenCount chars/4': cp(stores.chars, 'git'),
  };
  progress(`checkpoint: ${Object.keys(variants).length} variants × ${n + 1} interleaved rounds`);
  const r = await rounds({ n, warmup: 1, variants });
  for (const k of ['default', 'git', 'isogit', 'chars', 'native']) {
    const count = Number(git(stores[k], ['rev-list', '--count', 'b']).stdout.toString().trim());
    if (count !== n + 2) throw new Error(`checkpoint ${k}: ${count} commits on b, expected ${n + 2}`);
  }

  // The same checkpoint from a long-lived process (the library): what is left without start-up.
  const lib = await import(pathToFileURL(join(DIST, 'index.js')).href);
  const inProc = {};
  for (const engine of ['git', 'isogit']) {
    progress(`checkpoint: library, ${engine} engine, in-process`);
    const store = await lib.openStore(join(dir, `lib-${engine}.git`), { create: true, engine, env: { ...process.env, ...FIXED_ENV } });
    try {
      const bufs = artifacts.map((f) => readFileSync(f));
      inProc[engine] = await series({
        n: 50,
        warmup: 5,
        fn: async (i) => {
          const t = performance.now();
          await store.checkpoint({ branch: 'b', format: 'claude-code-v1', artifact: bufs[i % bufs.length] });
          return performance.now() - t;
        },
      });
    } finally {
      await store.close();
    }
  }

  const floor = r['node -e 0'].median;
  const rows = Object.entries(r).map(([k, s]) => [k, fmtMs(s.median), /^(node bin|ctx)/.test(k) ? fmtMs(s.median - floor) : '', `${fmtMs(s.min)}–${fmtMs(s.max)}`]);
  for (const [engine, s] of Object.entries(inProc)) {
    rows.push([`library \`store.checkpoint()\`, ${engine} engine, in-process (${s.n} runs +${s.warmup} warm-up)`, fmtMs(s.median), '', `${fmtMs(s.min)}–${fmtMs(s.max)}`]);
  }
  const ver = r['node bin/ctx --version'].median - floor;
  const target = ver <= 30;
  const nat = r['native plumbing (bash + 5 git processes)'].median;
  const shares = ['default engine', 'git engine', 'isogit engine'].map((e) => {
    const k = e === 'default engine' ? 'ctx checkpoint (default engine)' : `ctx checkpoint, ${e}`;
    const m = r[k].median;
    return `${e}: ${fmtMs(m)} ms, of which ${fmtMs(floor)} ms (${Math.round((floor / m) * 100)}%) is node's start-up and ${fmtMs(m - floor)} ms ctx's own (${(m / nat).toFixed(1)}x the native plumbing)`;
  });
  return {
    markdown: [
      '## 3. One `ctx checkpoint` process\n',
      `A 2 KB Claude Code line (a file argument) appended to an existing branch \`b\`, one store per variant, ` +
        `${n} interleaved rounds (each round runs every variant once; ${r['node -e 0'].warmup} warm-up round discarded), medians in ms. ` +
        `The native row is one bash script running \`git hash-object -w --stdin\` (artifact), \`git hash-object -w --stdin\` ` +
        `(meta.json), \`git mktree\`, \`git commit-tree\` and \`git update-ref\`: the same objects and ref move ctx makes, ` +
        `without the BLAKE3, the parsing, the lock-file compare-and-swap and the meta.json it computes; ` +
        `\`bash -c :\` is that script's own start-up and \`git --version\` one git process's. ` +
        `The default engine is \`auto\`, i.e. the git binary here (it is on PATH). ` +
        `"− node" is the median minus \`node -e 0\`'s. Each store's branch was checked to hold ${n + 2} commits afterwards.\n`,
      table(['process', 'median ms', '− node ms', 'min–max ms'], rows),
      '',
      `- \`ctx --version\` − \`node -e 0\` = ${fmtMs(ver)} ms: target (≤ 30 ms) ${target ? '**met**' : '**missed**'}.`,
      ...shares.map((s) => `- checkpoint, ${s}.`),
      '',
    ].join('\n'),
    summary: { ver, target },
  };
}
