// Benchmark: `ctx blame` of a 2,000-line file whose history is 300 code commits, 200 of them linked
// (a `Ctx-Context:` trailer) to the context commit of the session turn whose Edit calls wrote their
// lines; the other 100 and the first are a person's. Beside it, `git blame --porcelain HEAD` of the
// same file and `node -e 0` (node's start). Warm store: the content index is built by one untimed
// run. CPU is user + sys of the whole process tree (bash's times, to the millisecond), in interleaved rounds.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CTX_BIN, FIXED_ENV, NODE, baselineBin, fmtInt, fmtMs, fmtRatio, median, progress, prng, run, table, tempDir } from './lib.mjs';
import { measured } from './resume.mjs';

const TIME = '/usr/bin/time';
const SESSION = '00000000-0000-4000-8000-00000000b1a3';
const CODE_ENV = { GIT_AUTHOR_NAME: 'Alice', GIT_AUTHOR_EMAIL: 'alice@example.com', GIT_COMMITTER_NAME: 'Alice', GIT_COMMITTER_EMAIL: 'alice@example.com', GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };

const codeGit = (dir, args, input) => execFileSync('git', ['-C', dir, ...args], { encoding: 'utf8', input, env: { ...process.env, ...CODE_ENV }, stdio: ['pipe', 'pipe', 'pipe'], maxBuffer: 1 << 28 });

/** A Claude Code transcript: one turn per linked commit, a prompt and one Edit per line it changed. */
function transcript(cwd, turns) {
  const out = [];
  let n = 0;
  let parent = null;
  const push = (type, message) => {
    const uuid = `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`;
    out.push(JSON.stringify({ parentUuid: parent, isSidechain: false, userType: 'external', cwd, sessionId: SESSION, version: '2.1.330', gitBranch: 'main', type, message, uuid, timestamp: new Date(Date.UTC(2026, 0, 2, 9, 0, 0, n)).toISOString() }));
    parent = uuid;
  };
  turns.forEach((edits, t) => {
    push('user', { role: 'user', content: `Change ${edits.length} lines, round ${t}.` });
    edits.forEach(([old, neu], j) => {
      const id = `toolu_${t}_${j}`;
      push('assistant', { model: 'claude-opus-4-5', id: `msg_${t}_${j}`, type: 'message', role: 'assistant', content: [{ type: 'tool_use', id, name: 'Edit', input: { file_path: join(cwd, 'src/big.ts'), old_string: old, new_string: neu } }], stop_reason: null });
      push('user', { role: 'user', content: [{ tool_use_id: id, type: 'tool_result', content: 'ok' }] });
    });
  });
  return out.join('\n') + '\n';
}

function setup({ lines, commits, linked, perCommit, seed = 21 }) {
  const dir = tempDir('blame');
  const code = join(dir, 'app');
  const store = join(dir, 'store.git');
  mkdirSync(join(code, 'src'), { recursive: true });
  codeGit(code, ['init', '-q', '-b', 'main']);
  const rand = prng(seed);
  const file = Array.from({ length: lines }, (_, i) => `export const v0_${i} = compute(0, ${i}); // first version of line ${i}`);
  // which commits are the agent's: `linked` of commits 1..commits-1, spread evenly
  const agent = new Set(Array.from({ length: linked }, (_, k) => 1 + Math.floor((k * (commits - 1)) / linked)));
  const changes = [];
  for (let c = 1; c < commits; c++) {
    const slots = new Set();
    while (slots.size < perCommit) slots.add(Math.floor(rand() * lines));
    changes.push({ c, edits: [...slots].map((i) => [i, `  const v${c}_${i} = compute(${c}, ${i}); // changed in commit ${c}`]) });
  }
  // the session first: its turn k wrote the k-th agent commit's lines
  const turns = [];
  const cur = [...file];
  for (const ch of changes) {
    const edits = ch.edits.map(([i, text]) => {
      const e = [cur[i], text];
      cur[i] = text;
      return e;
    });
    if (agent.has(ch.c)) turns.push(edits);
  }
  const tf = join(dir, `${SESSION}.jsonl`);
  writeFileSync(tf, transcript(code, turns));
  run(NODE, [CTX_BIN, 'init', store], { env: FIXED_ENV });
  run(NODE, [CTX_BIN, '--store', store, 'import', 'claude-code', tf, '-b', 'agent'], { env: FIXED_ENV });
  const contexts = execFileSync('git', ['--git-dir', store, 'rev-list', '--reverse', 'agent'], { encoding: 'utf8' }).trim().split('\n');
  if (contexts.length !== turns.length) throw new Error(`blame benchmark: ${contexts.length} context commits for ${turns.length} turns`);
  // then the code history: the first version, then each change, the agent's with its trailer
  writeFileSync(join(code, 'src/big.ts'), file.join('\n') + '\n');
  codeGit(code, ['add', '.']);
  codeGit(code, ['commit', '-q', '-m', 'First version']);
  let turn = 0;
  for (const ch of changes) {
    for (const [i, text] of ch.edits) file[i] = text;
    writeFileSync(join(code, 'src/big.ts'), file.join('\n') + '\n');
    const message = agent.has(ch.c) ? `Change ${ch.c}\n\nCtx-Context: ctx-${contexts[turn++]}\n` : `Change ${ch.c} by hand\n`;
    codeGit(code, ['commit', '-q', '-a', '-F', '-'], message);
  }
  return { dir, code, store };
}

export async function benchLinksBlame({ lines = 2000, commits = 300, linked = 200, perCommit = 10, n = Number(process.env.BENCH_ROUNDS ?? 5) } = {}) {
  if (!existsSync(TIME)) return { markdown: `## ctx blame\n\nskipped: ${TIME} (Debian package \`time\`) is not installed\n`, summary: null };
  progress(`blame: a ${fmtInt(lines)}-line file, ${commits} commits, ${linked} linked`);
  const { code, store } = setup({ lines, commits, linked, perCommit });
  const env = { ...FIXED_ENV, CTX_STORE: store };
  const blame = () => run(NODE, [CTX_BIN, 'blame', 'src/big.ts', '--json'], { env, cwd: code, stdout: 'pipe' });
  // warm: the content index built, and the answer checked
  const records = blame().stdout.toString().trim().split('\n').map((l) => JSON.parse(l));
  const counts = { linked: 0, matched: 0, human: 0 };
  for (const r of records) counts[r.how]++;
  if (records.length !== lines) throw new Error(`blame benchmark: ${records.length} lines blamed, not ${lines}`);
  const time = (args, extra = {}) => measured('env', ['-C', code, ...Object.entries({ ...extra }).map(([k, v]) => `${k}=${v}`), ...args]);
  const variants = {
    'node -e 0': () => measured(NODE, ['-e', '0']),
    'git blame --porcelain HEAD -- src/big.ts': () => time(['git', 'blame', '--porcelain', 'HEAD', '--', 'src/big.ts']),
    'ctx blame src/big.ts': () => time([NODE, CTX_BIN, 'blame', 'src/big.ts'], { CTX_STORE: store }),
    'ctx blame src/big.ts --json': () => time([NODE, CTX_BIN, 'blame', 'src/big.ts', '--json'], { CTX_STORE: store }),
  };
  // BENCH_BASELINE=DIR: another build's ctx blame in the same rounds, its output checked against this one's
  if (process.env.BENCH_BASELINE) {
    const bin = baselineBin(process.env.BENCH_BASELINE);
    const theirs = run(NODE, [bin, 'blame', 'src/big.ts', '--json'], { env, cwd: code, stdout: 'pipe' }).stdout.toString();
    if (theirs !== blame().stdout.toString()) throw new Error('blame benchmark: the baseline build blames differently');
    variants['ctx blame src/big.ts (baseline)'] = () => time([NODE, bin, 'blame', 'src/big.ts'], { CTX_STORE: store });
  }
  const cpu = Object.fromEntries(Object.keys(variants).map((k) => [k, []]));
  progress(`blame: ${Object.keys(variants).length} variants × ${n + 1} interleaved rounds`);
  for (let i = 0; i < n + 1; i++)
    for (const [k, fn] of Object.entries(variants)) {
      const m = fn();
      if (i > 0) cpu[k].push(m.cpu);
    }
  const med = Object.fromEntries(Object.entries(cpu).map(([k, v]) => [k, median(v)]));
  const node = med['node -e 0'];
  const git = med['git blame --porcelain HEAD -- src/big.ts'];
  const ctxMs = med['ctx blame src/big.ts'];
  const budget = 1.5 * git + node;
  const rows = Object.entries(med).map(([k, v]) => [k, fmtMs(v), k === 'node -e 0' ? '' : fmtRatio(v / git)]);
  return {
    markdown: [
      '## ctx blame: a 2,000-line file, 300 commits, 200 linked\n',
      `A ${fmtInt(lines)}-line file, its first version and ${commits - 1} commits each changing ${perCommit} random lines; ${linked} of them carry a ` +
        '`Ctx-Context:` trailer naming the context commit of the session turn whose Edit calls wrote those lines (one imported Claude Code session, ' +
        `${linked} turns). Warm store (the content index built by a first run). ctx gave ${fmtInt(counts.linked)} lines to the context, ` +
        `${fmtInt(counts.human)} to human, ${fmtInt(counts.matched)} matched. CPU of the whole process tree (user + sys), median of ${n} interleaved rounds.\n`,
      table(['process', 'ms CPU', '/ git blame'], rows),
      '',
      `- ctx blame ${fmtMs(ctxMs)} ms CPU against 1.5 × git blame + node's start = ${fmtMs(budget)} ms (target: ${ctxMs <= budget ? '**met**' : '**missed**'}); ` +
        `ctx − node = ${fmtMs(ctxMs - node)} ms, ${fmtRatio((ctxMs - node) / git)} git blame.`,
      '',
    ].join('\n'),
    summary: { ctx: ctxMs, git, node, budget, counts },
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { snapshotBuild, cleanup } = await import('./lib.mjs');
  // as run.mjs does: every node start would read the CA bundle it names first (~70 ms)
  delete process.env.NODE_EXTRA_CA_CERTS;
  snapshotBuild();
  try {
    process.stdout.write((await benchLinksBlame()).markdown + '\n');
  } finally {
    cleanup();
  }
}
