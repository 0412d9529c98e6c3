// `ctx usage` over a generated store of 1,000 Claude Code sessions (10 turns each; BENCH_USAGE_SESSIONS):
// cold (its cache under ctx/usage/ deleted before each run) and warm, against peers over the same
// data: `git log --all` printing each commit's tree (the walk alone) and jq summing the usage of the
// raw transcripts. CPU of the whole process tree (user + sys, GNU time), interleaved rounds.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { CTX_BIN, NODE, fmtInt, fmtMs, fmtRatio, median, progress, run, table, tempDir } from './lib.mjs';
import { measured } from './resume.mjs';
import { generateSessions } from './sessions-gen.mjs';

const TIME = '/usr/bin/time';

export async function benchUsage({ sessions = Number(process.env.BENCH_USAGE_SESSIONS ?? 1000), n = 3 } = {}) {
  if (!existsSync(TIME)) return { markdown: `## Usage\n\nskipped: ${TIME} (Debian package \`time\`) is not installed\n`, summary: null };
  const dir = tempDir('usage');
  progress(`usage: generating ${fmtInt(sessions)} sessions × 10 turns`);
  const { gitdir, raw, commits } = await generateSessions(dir, { sessions });
  const jq = run('bash', ['-c', 'command -v jq'], { stdout: 'pipe' }).stdout.toString().trim() !== '';
  const files = readdirSync(raw).map((f) => join(raw, f));
  const ctxUsage = `'${NODE}' '${CTX_BIN}' --store '${gitdir}' usage --json > /dev/null`;
  const jqSum = `jq -n '[inputs | select(.type == "assistant") | .message.usage.output_tokens] | add' ${files.map((f) => `'${f}'`).join(' ')}`;
  // the figures agree: ctx's total output tokens are jq's sum
  const total = JSON.parse(run(NODE, [CTX_BIN, '--store', gitdir, 'usage', '--json'], { stdout: 'pipe' }).stdout.toString().trim().split('\n').at(-1));
  if (jq && Number(run('bash', ['-c', jqSum], { stdout: 'pipe' }).stdout.toString()) !== total.output_tokens) throw new Error('usage: ctx and jq disagree on the output tokens');
  const variants = {
    'ctx usage, cold (no cache)': () => measured('bash', ['-c', `rm -rf '${gitdir}/ctx/usage' && ${ctxUsage}`]),
    'ctx usage, warm (cached)': () => measured('bash', ['-c', ctxUsage]),
    'git log --all --format=%T': () => measured('bash', ['-c', `git --git-dir '${gitdir}' log --all --format=%T > /dev/null`]),
    ...(jq ? { 'jq over the raw transcripts': () => measured('bash', ['-c', `${jqSum} > /dev/null`]) } : {}),
    'node -e 0': () => measured(NODE, ['-e', '0']),
  };
  const cpu = Object.fromEntries(Object.keys(variants).map((k) => [k, []]));
  const wall = Object.fromEntries(Object.keys(variants).map((k) => [k, []]));
  for (let i = 0; i < n + 1; i++) {
    progress(`usage: round ${i + 1} of ${n + 1}`);
    for (const [k, fn] of Object.entries(variants)) {
      const t = performance.now();
      const m = fn();
      if (i === 0) continue; // warm-up round
      cpu[k].push(m.cpu);
      wall[k].push(performance.now() - t);
    }
  }
  const med = Object.fromEntries(Object.keys(cpu).map((k) => [k, median(cpu[k])]));
  const git = med['git log --all --format=%T'];
  const rows = Object.keys(cpu).map((k) => [k, fmtMs(med[k]), fmtMs(median(wall[k])), fmtRatio(med[k] / git), jq ? fmtRatio(med[k] / med['jq over the raw transcripts']) : '–']);
  const summary = { sessions, commits, cold: med['ctx usage, cold (no cache)'], warm: med['ctx usage, warm (cached)'], git, jq: jq ? med['jq over the raw transcripts'] : null };
  return {
    markdown: [
      `## Usage: \`ctx usage\` over ${fmtInt(sessions)} sessions (\`usage.mjs\`)\n`,
      `A packed store of ${fmtInt(sessions)} Claude Code sessions, ${fmtInt(commits)} commits (a user line and an assistant line recording its usage each, ~1 KB), ` +
        'written by `git fast-import` (bench/sessions-gen.mjs). **cold**: the usage cache (`ctx/usage/`) deleted before each run; **warm**: cached. ' +
        `Peers over the same data: \`git log --all\` (the walk alone, no blob read) and ${jq ? 'jq summing the usage of the raw transcript files' : 'jq (skipped: not on PATH)'}. ` +
        `CPU (user + sys of the process tree) and wall, median of ${n} interleaved rounds after one warm-up round.\n`,
      table(['run', 'ms CPU', 'ms wall', '/ git log', '/ jq'], rows),
      '',
    ].join('\n'),
    summary,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await benchUsage();
  process.stdout.write(r.markdown);
  const { cleanup } = await import('./lib.mjs');
  cleanup();
}
