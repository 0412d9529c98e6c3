// Benchmark 2: `ctx import` of the largest corpus transcript into a fresh store, each engine,
// with native `git fast-import` of the very same objects as a reference.
import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CORPUS_FILE, ctx, fmtInt, fmtMs, git, progress, runsOf, series, sh, table, tempDir } from './lib.mjs';

export async function benchImport({ file = CORPUS_FILE, n = 5 } = {}) {
  const dir = tempDir('import');
  const bytes = statSync(file).size;
  const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean).length;
  const rows = [];
  const tips = {};
  let commits = 0;
  let lastStore = {};
  for (const engine of ['git', 'isogit']) {
    progress(`import: ctx import, ${engine} engine`);
    let store = '';
    const s = await series({
      n,
      warmup: 1,
      before: (i) => {
        if (store) rmSync(store, { recursive: true, force: true });
        store = join(dir, `${engine}-${i}.git`);
      },
      fn: () => ctx(['--store', store, 'import', 'claude-code', file, '-b', 'session'], { env: { CTX_ENGINE: engine } }).ms,
    });
    commits = Number(git(store, ['rev-list', '--count', 'session']).stdout.toString().trim());
    tips[engine] = git(store, ['rev-parse', 'session']).stdout.toString().trim();
    lastStore[engine] = store;
    rows.push([`ctx import, ${engine} engine`, runsOf(s), fmtMs(s.median), fmtInt(commits), Math.round(commits / (s.median / 1000)).toString(), `${fmtMs(s.min)}–${fmtMs(s.max)}`]);
  }
  if (tips.git !== tips.isogit) throw new Error(`import: the engines disagree on the tip: ${tips.git} vs ${tips.isogit}`);

  // Native reference: the same blobs and commits, exported from ctx's store and re-imported by
  // `git fast-import` into a fresh bare repo (the script includes `git init`, as ctx creates its store).
  progress('import: native git fast-import of the same objects');
  const stream = join(dir, 'session.fi');
  writeFileSync(stream, git(lastStore.git, ['fast-export', '--reencode=no', 'session']).stdout);
  const objects = git(lastStore.git, ['rev-list', '--objects', 'session']).stdout.toString().trim().split('\n').length;
  let target = '';
  const nat = await series({
    n,
    warmup: 1,
    before: (i) => {
      if (target) rmSync(target, { recursive: true, force: true });
      target = join(dir, `native-${i}.git`);
    },
    fn: () => sh(`git init -q --bare '${target}' && git --git-dir '${target}' fast-import --quiet < '${stream}'`).ms,
  });
  const nativeTip = git(target, ['rev-parse', 'session']).stdout.toString().trim();
  const same = nativeTip === tips.git;
  rows.push([`native \`git init\` + \`git fast-import\`${same ? '' : ' (tip differs!)'}`, runsOf(nat), fmtMs(nat.median), fmtInt(commits), Math.round(commits / (nat.median / 1000)).toString(), `${fmtMs(nat.min)}–${fmtMs(nat.max)}`]);
  rmSync(dir, { recursive: true, force: true });

  return {
    markdown: [
      '## 2. Import the largest corpus transcript (`ctx import claude-code`)\n',
      `\`${file.replace(/^.*\/shared\//, 'shared/')}\`: ${fmtInt(bytes)} bytes, ${fmtInt(lines)} lines. ` +
        `One whole \`ctx import\` process per run into a fresh store (created by the run). The importer splits at turn ` +
        `boundaries, so this transcript gives ${fmtInt(commits)} commits (${fmtInt(objects)} objects: commits, trees, ` +
        `meta.json and artifact blobs); both engines wrote the same tip \`ctx-${tips.git.slice(0, 12)}\`. ` +
        `The native row feeds \`git fast-import\` a \`git fast-export\` of ctx's own branch, i.e. the very same objects` +
        `${same ? ' (its tip id is identical)' : ''}, so it is the floor for writing them; ctx additionally starts node, ` +
        `parses the JSONL, hashes every artifact with BLAKE3 and builds meta.json.\n`,
      table(['writer', 'runs', 'median ms', 'commits', 'commits/s', 'min–max ms'], rows),
      '',
    ].join('\n'),
  };
}
