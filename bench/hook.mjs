// Benchmark: one `ctx hook claude-code` process for a Stop event, as Claude Code runs it after each
// turn: the 2.3 MB corpus transcript, ~10 KB new since the last checkpoint, whole process timed,
// side by side with `node -e 0` (node's own start-up) and `ctx --version` (ctx's start-up floor).
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CORPUS_FILE, CTX_BIN, NODE, cleanup, ctx, fmtMs, git, progress, rounds, run, snapshotBuild, table, tempDir } from './lib.mjs';

const SESSION = '967e501d-aa48-4eab-a21f-b17058bd78f0';

/** Cut points: each the last line end within `step` bytes of the previous one (the next one past a longer line). */
function cuts(bytes, from, step, count) {
  const out = [];
  let at = from;
  for (let i = 0; i < count; i++) {
    let nl = bytes.lastIndexOf(10, at + step - 1);
    if (nl < at) nl = bytes.indexOf(10, at);
    if (nl < 0) break;
    at = nl + 1;
    out.push(at);
  }
  return out;
}

export async function benchHook({ n = 20, step = 10_000 } = {}) {
  if (!existsSync(CORPUS_FILE)) throw new Error(`hook benchmark needs ${CORPUS_FILE}`);
  const bytes = readFileSync(CORPUS_FILE);
  const dir = tempDir('hook');
  const store = join(dir, 'store.git');
  const transcript = join(dir, `${SESSION}.jsonl`);
  const warmup = 1;
  // the whole transcript is captured first; each round then appends ~10 KB of whole lines, copied
  // from the middle of the same transcript (the hook reads bytes, it does not care whose they are)
  const from = bytes.indexOf(10, bytes.length >> 1) + 1;
  const points = [from, ...cuts(bytes, from, step, n + warmup)];
  if (points.length < n + warmup + 1) throw new Error('corpus transcript too short for the hook benchmark');
  writeFileSync(transcript, bytes);
  const input = JSON.stringify({ session_id: SESSION, transcript_path: transcript, hook_event_name: 'Stop', cwd: dir });
  const hook = () => ctx(['--store', store, 'hook', 'claude-code'], { input });
  hook();
  // the same rounds into a store whose token_count is characters/4: what the tokenizer's load costs
  const charsStore = join(dir, 'chars.git');
  const charsTranscript = join(dir, 'chars', `${SESSION}.jsonl`);
  mkdirSync(join(dir, 'chars'));
  writeFileSync(charsTranscript, bytes);
  const charsInput = JSON.stringify({ session_id: SESSION, transcript_path: charsTranscript, hook_event_name: 'Stop', cwd: dir });
  const charsHook = () => ctx(['--store', charsStore, 'hook', 'claude-code'], { input: charsInput });
  ctx(['init', charsStore]);
  git(charsStore, ['config', 'ctx.tokenCount', 'chars/4']);
  charsHook();
  const sizes = [];
  const variants = {
    'node -e 0': () => run(NODE, ['-e', '0']).ms,
    'node bin/ctx --version': () => run(NODE, [CTX_BIN, '--version']).ms,
    'ctx hook claude-code, Stop, nothing new': () => hook().ms,
    'ctx hook claude-code, Stop, ~10 KB new': (i) => {
      appendFileSync(transcript, bytes.subarray(points[i], points[i + 1]));
      sizes.push(points[i + 1] - points[i]);
      return hook().ms;
    },
    'ctx hook claude-code, Stop, ~10 KB new, ctx.tokenCount chars/4': (i) => {
      appendFileSync(charsTranscript, bytes.subarray(points[i], points[i + 1]));
      return charsHook().ms;
    },
  };
  progress(`hook: ${Object.keys(variants).length} variants × ${n + warmup} interleaved rounds`);
  const r = await rounds({ n, warmup, variants });
  for (const [s, t] of [[store, transcript], [charsStore, charsTranscript]]) {
    if (existsSync(join(s, 'ctx', 'hook.log'))) throw new Error(`hook benchmark: the hook logged failures:\n${readFileSync(join(s, 'ctx', 'hook.log'), 'utf8')}`);
    const materialized = ctx(['--store', s, 'materialize', `claude/${SESSION}`, '--stop', 'root'], { stdout: 'pipe' }).stdout;
    if (Buffer.compare(materialized, readFileSync(t)) !== 0) throw new Error('hook benchmark: a chain does not reproduce its transcript');
  }
  const commits = Number(git(store, ['rev-list', '--count', `claude/${SESSION}`]).stdout.toString().trim());

  const floor = r['node -e 0'].median;
  const hk = r['ctx hook claude-code, Stop, ~10 KB new'];
  const ver = r['node bin/ctx --version'].median;
  const rows = Object.entries(r).map(([k, s]) => [k, fmtMs(s.median), k === 'node -e 0' ? '' : fmtMs(s.median - floor), `${fmtMs(s.min)}–${fmtMs(s.max)}`]);
  const avg = Math.round(sizes.slice(warmup).reduce((a, b) => a + b, 0) / n);
  return {
    markdown: [
      '## Hook latency: one `ctx hook claude-code` process per Stop\n',
      `The 2.3 MB corpus transcript (\`${CORPUS_FILE.split('/').pop()}\`), captured whole first; ` +
        `each round appends ~${step / 1000} KB of whole lines (${avg.toLocaleString('en-US')} bytes on average, copied from the file's middle) and fires Stop ` +
        `(hook JSON on stdin), ${n} interleaved rounds (+${warmup} warm-up), medians in ms. Afterwards the branch held ${commits} commits ` +
        'and `materialize --stop root` reproduced the file byte for byte; hook.log stayed empty.\n',
      table(['process', 'median ms', '− node ms', 'min–max ms'], rows),
      '',
      `- Stop with ~10 KB new: ${fmtMs(hk.median)} ms whole process (target ≤ 100 ms: ${hk.median <= 100 ? '**met**' : '**missed**'}); ` +
        `node's start-up (\`node -e 0\`) is ${fmtMs(floor)} ms of it (${Math.round((floor / hk.median) * 100)}%), ` +
        `ctx's own start-up (\`--version\` − node) ${fmtMs(ver - floor)} ms, the capture itself ${fmtMs(hk.median - ver)} ms; ` +
        `with \`ctx.tokenCount chars/4\` (no tokenizer to load) ${fmtMs(r['ctx hook claude-code, Stop, ~10 KB new, ctx.tokenCount chars/4'].median)} ms.`,
      '',
    ].join('\n'),
    summary: { median: hk.median, floor, ver },
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  // `node bench/hook.mjs`: this benchmark alone, on a copy of the build
  snapshotBuild();
  try {
    process.stdout.write((await benchHook()).markdown + '\n');
  } finally {
    cleanup();
  }
}
