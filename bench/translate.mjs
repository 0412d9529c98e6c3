// Benchmark: structural translation (docs/format.md §7). The largest corpus transcript, imported,
// materialized to openai-chat-v1 as a whole `ctx materialize --stop root` process, cold (cache
// deleted before each run) and cached, beside native claude-code-v1 materialize of the same commit.
import { rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { CORPUS_FILE, NODE, ctx, fmtInt, fmtMs, git, progress, run, runsOf, series, table, tempDir } from './lib.mjs';

export async function benchTranslate({ file = CORPUS_FILE, n = 5 } = {}) {
  const dir = tempDir('translate');
  const store = join(dir, 'store.git');
  const bytes = statSync(file).size;
  progress('translate: import');
  ctx(['--store', store, 'import', 'claude-code', file, '-b', 'session']);
  const commits = Number(git(store, ['rev-list', '--count', 'session']).stdout.toString().trim());
  const cache = join(store, 'ctx', 'cache');
  const rows = [];
  const variants = [
    ['native claude-code-v1', []],
    ['openai-chat-v1 (structural)', ['--format', 'openai-chat-v1']],
    ['openai-chat-v1, --view conversation', ['--format', 'openai-chat-v1', '--view', 'conversation']],
    ['openai-chat-v1, --mask-tool-outputs 3', ['--format', 'openai-chat-v1', '--mask-tool-outputs', '3']],
  ];
  for (const [label, args] of variants) {
    const argv = ['--store', store, 'materialize', 'session', '--stop', 'root', ...args];
    const out = ctx(argv, { stdout: 'pipe' }).stdout.length;
    for (const [mode, before] of [['cold', () => rmSync(cache, { recursive: true, force: true })], ['cached', undefined]]) {
      progress(`translate: ${label}, ${mode}`);
      const s = await series({ n, warmup: 1, before, fn: () => ctx(argv).ms });
      rows.push([`${label}, ${mode}`, runsOf(s), fmtMs(s.median), fmtInt(out), (bytes / 2 ** 20 / (s.median / 1000)).toFixed(1), `${fmtMs(s.min)}–${fmtMs(s.max)}`]);
    }
  }
  const floor = await series({ n, warmup: 1, fn: () => run(NODE, ['-e', '0']).ms });
  rows.push(['`node -e 0` (start-up floor)', runsOf(floor), fmtMs(floor.median), '', '', `${fmtMs(floor.min)}–${fmtMs(floor.max)}`]);
  rmSync(dir, { recursive: true, force: true });
  return {
    markdown: [
      '## Translation: the largest corpus transcript (`ctx materialize --format openai-chat-v1`)\n',
      `\`${file.replace(/^.*\/shared\//, 'shared/')}\`: ${fmtInt(bytes)} bytes, imported as ${fmtInt(commits)} commits. ` +
        'One whole `ctx materialize session --stop root` process per run (git engine): **cold** deletes `<repo>/ctx/cache` ' +
        'before every run (walk, read every artifact, decode to neutral messages, shape, encode); **cached** reads the ' +
        'cached result. MB/s is the input transcript size (MiB) over the median, node start-up included.\n',
      table(['materialize', 'runs', 'median ms', 'output bytes', 'MB/s', 'min–max ms'], rows),
      '',
    ].join('\n'),
  };
}
