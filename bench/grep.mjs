// Find: `ctx grep` and `ctx files` over a generated store of 100 sessions (50,000 commits by
// default; BENCH_GREP_COMMITS, BENCH_GREP_MB for the artifacts' total, 50 MB by default: the issue's
// 500 MB is BENCH_GREP_MB=500), written by one `git fast-import` stream: Claude Code lines of prose,
// a rare phrase in one commit of 1,000, a Read of src/auth.ts in one of 200. Beside it, the same
// search by native git over the same blobs (`git grep` over every commit's tree) and by `rg` over
// the raw transcript files (when rg is on PATH; it is not installed for this). CPU is user + sys of
// the whole process tree (GNU time), in interleaved rounds.
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { CTX_BIN, NODE, fastImportRepo, fmtInt, fmtMs, fmtRatio, median, progress, prng, prose, table, tempDir } from './lib.mjs';
import { measured } from './resume.mjs';

const TIME = '/usr/bin/time';
export const NEEDLE = 'quokka lattice';

/** The store and the raw transcripts: `sessions` chains of Claude Code lines, `mb` MB of artifacts in all. */
export function generate(dir, { sessions, commits, mb, seed = 11 }) {
  const rand = prng(seed);
  const gitdir = join(dir, 'store.git');
  const raw = join(dir, 'raw');
  mkdirSync(raw);
  const { emit, finish } = fastImportRepo(gitdir, join(dir, 'stream'));
  const perCommit = Math.max(256, Math.floor((mb * 1e6) / commits));
  let mark = 0;
  let n = 0;
  for (let s = 0; s < sessions; s++) {
    const session = `00000000-0000-4000-8000-${String(s).padStart(12, '0')}`;
    const branch = `claude/${session}`;
    const file = openSync(join(raw, `${session}.jsonl`), 'w');
    const count = Math.floor(commits / sessions) + (s < commits % sessions ? 1 : 0);
    let parent = 0;
    for (let i = 0; i < count; i++, n++) {
      const at = new Date(Date.parse('2026-11-01T00:00:00Z') + n * 1000).toISOString();
      const text = `${n % 1000 === 500 ? `${NEEDLE} ` : ''}${prose(rand, perCommit - 160)}`;
      let lines = JSON.stringify({ type: 'user', sessionId: session, timestamp: at, message: { role: 'user', content: text } }) + '\n';
      if (n % 200 === 100) lines += JSON.stringify({ type: 'assistant', sessionId: session, timestamp: at, message: { id: `m${n}`, role: 'assistant', content: [{ type: 'tool_use', id: `t${n}`, name: 'Read', input: { file_path: '/repo/src/auth.ts' } }] } }) + '\n';
      writeSync(file, lines);
      const meta = JSON.stringify({ artifact: `blake3:${'0'.repeat(64)}`, artifact_size: Buffer.byteLength(lines), checkpoint: 'import', created_at: at, format: 'claude-code-v1', machine: 'box', message_count: lines.split('\n').length - 1, principal: 'bench', session_id: session, summary: '', template: 'claude-code', token_count: 1, type: 'delta', v: 1 }) + '\n';
      const who = `bench <bench@box> ${Math.floor(Date.parse(at) / 1000)} +0000`;
      const msg = `delta: 1 messages\n\nCtx-Type: delta\nCtx-Format: claude-code-v1\nCtx-Session: ${session}\nCtx-Template: claude-code\n`;
      mark++;
      emit(
        `commit refs/heads/${branch}\nmark :${mark}\nauthor ${who}\ncommitter ${who}\ndata ${Buffer.byteLength(msg)}\n${msg}` +
          (parent ? `from :${parent}\n` : '') +
          `M 100644 inline delta.jsonl\ndata ${Buffer.byteLength(lines)}\n${lines}\nM 100644 inline meta.json\ndata ${Buffer.byteLength(meta)}\n${meta}\n`,
      );
      parent = mark;
    }
    closeSync(file);
  }
  finish('refs/heads/claude/00000000-0000-4000-8000-000000000000');
  return { gitdir, raw, bytes: n * perCommit };
}

const sh = (script) => measured('bash', ['-c', script]);

export async function benchGrep({ sessions = 100, commits = Number(process.env.BENCH_GREP_COMMITS ?? 50_000), mb = Number(process.env.BENCH_GREP_MB ?? 50), n = 2 } = {}) {
  if (!existsSync(TIME)) return { markdown: `## Find\n\nskipped: ${TIME} (Debian package \`time\`) is not installed\n`, summary: null };
  const dir = tempDir('grep');
  progress(`grep: generating ${fmtInt(sessions)} sessions, ${fmtInt(commits)} commits, ${mb} MB of artifacts`);
  const { gitdir, raw } = generate(dir, { sessions, commits, mb });
  const rg = spawnSync('rg', ['--version'], { stdio: 'ignore' }).status === 0;
  const ctx = (args) => `'${NODE}' '${CTX_BIN}' --store '${gitdir}' ${args} > /dev/null; true`;
  // every commit's tree, 5,000 at a time (git grep takes trees as arguments); it exits 1 without a match
  const gitGrep = (flags, pattern) => `git --git-dir '${gitdir}' rev-list --all | xargs -n 5000 git --git-dir '${gitdir}' grep -c ${flags} -e '${pattern}' > /dev/null; true`;
  const cases = [
    { label: `rare phrase (\`${NEEDLE}\`, 1 commit in 1,000)`, pattern: NEEDLE, flags: '-F' },
    { label: 'common word (`refresh`, most commits: every artifact parsed)', pattern: 'refresh', flags: '-F' },
  ];
  const hits = (pattern) => spawnSync(NODE, [CTX_BIN, '--store', gitdir, 'grep', '-F', pattern], { encoding: 'utf8', maxBuffer: 1 << 30 }).stdout.split('\n').length - 1;
  const out = ['## Find: `ctx grep` and `ctx files`\n'];
  out.push(
    `A packed store of ${fmtInt(sessions)} Claude Code sessions, ${fmtInt(commits)} commits, ${mb} MB of artifacts (BENCH_GREP_COMMITS, BENCH_GREP_MB; the issue's size is 500). ` +
      '**git grep**: `git rev-list --all | xargs git grep -F` (the same blobs, every commit\'s tree, in batches of 5,000). ' +
      `**rg**: ${rg ? '`rg -F` over the raw transcript files' : 'skipped (rg is not on PATH)'}. CPU of the whole process tree (user + sys), median of ${n} interleaved rounds.\n`,
  );
  const rows = [];
  const summary = {};
  for (const c of cases) {
    progress(`grep: ${c.pattern}`);
    const variants = {
      ctx: () => sh(ctx(`grep -F '${c.pattern}'`)),
      ...(commits <= 10_000 ? { 'ctx (isomorphic-git)': () => sh(`CTX_ENGINE=isogit ${ctx(`grep -F '${c.pattern}'`)}`) } : {}),
      git: () => sh(gitGrep(c.flags, c.pattern)),
      ...(rg ? { rg: () => sh(`rg -c -F '${c.pattern}' '${raw}' > /dev/null; true`) } : {}),
    };
    const cpu = Object.fromEntries(Object.keys(variants).map((k) => [k, []]));
    const rss = { ctx: [] };
    for (let i = 0; i < n + 1; i++)
      for (const [k, fn] of Object.entries(variants)) {
        if (k.includes('isomorphic') && i > 1) continue; // slow: one timed round
        const m = fn();
        if (i === 0) continue;
        cpu[k].push(m.cpu);
        if (k === 'ctx') rss.ctx.push(m.rss);
      }
    const med = Object.fromEntries(Object.entries(cpu).map(([k, v]) => [k, median(v)]));
    summary[c.pattern] = { ctx: med.ctx, git: med.git, rg: med.rg ?? null, ratio: med.ctx / med.git };
    rows.push([c.label, fmtInt(hits(c.pattern)), fmtMs(med.ctx), med['ctx (isomorphic-git)'] === undefined ? 'not timed above 10,000 commits' : fmtMs(med['ctx (isomorphic-git)']), fmtMs(med.git), rg ? fmtMs(med.rg) : 'skipped', fmtRatio(med.ctx / med.git), `${Math.round(median(rss.ctx) / 1024)} MiB`]);
  }
  out.push(table(['search', 'hits', 'ctx grep ms CPU', 'isomorphic-git', 'git grep', 'rg', 'ctx / git grep', 'ctx peak RSS'], rows));
  progress('grep: ctx files');
  const files = [];
  for (let i = 0; i < n + 1; i++) {
    const m = sh(ctx('files src/auth.ts'));
    if (i) files.push(m.cpu);
  }
  const touches = spawnSync(NODE, [CTX_BIN, '--store', gitdir, 'files', 'src/auth.ts'], { encoding: 'utf8', maxBuffer: 1 << 30 }).stdout.split('\n').length - 1;
  summary.files = median(files);
  out.push(`\n\`ctx files src/auth.ts\` (${fmtInt(touches)} Read calls found): ${fmtMs(summary.files)} ms CPU.\n`);
  return { markdown: out.join('\n') + '\n', summary };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await benchGrep();
  process.stdout.write(r.markdown);
  const { cleanup } = await import('./lib.mjs');
  cleanup();
}
