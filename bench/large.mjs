// A 200 MB transcript: `ctx import` of it, then `ctx materialize --stop root` cold (no cache) and
// cached, each with CPU time and peak RSS from GNU time, the output checked byte for byte. Four of
// its eight lines are ~50 MB tool results, so their artifacts are chunked (ctx.maxBlobSize, 32 MiB by
// default): memory is compared with the largest chunk and the output's size.
import { closeSync, existsSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { CTX_BIN, FIXED_ENV, NODE, fmtInt, git, progress, run, table, tempDir } from './lib.mjs';

const TIME = '/usr/bin/time';
const MIB = 2 ** 20;

/** CPU ms (user + sys) and peak RSS (bytes) of a command, from GNU time. */
function measured(cmd, args, env = {}, input) {
  const r = run(TIME, ['-f', 'CTXBENCH %U %S %M', cmd, ...args], { env, input });
  const m = /CTXBENCH ([\d.]+) ([\d.]+) (\d+)/.exec(r.stderr);
  if (!m) throw new Error(`no rusage from ${TIME}: ${r.stderr.slice(-300)}`);
  return { cpu: (Number(m[1]) + Number(m[2])) * 1000, rss: Number(m[3]) * 1024 };
}

/** Eight lines: short prompts, and ~50 MB tool results (one word repeated: a worst case for nothing but size). */
function transcript(file, size) {
  const fd = openSync(file, 'w');
  try {
    for (let i = 0; i < 8; i++) {
      const content = i % 2 ? `${'word '.repeat(Math.floor(size / 4 / 5))}${i}` : `prompt ${i}`;
      writeSync(fd, `${JSON.stringify({ type: 'user', uuid: `u-${i}`, message: { role: 'user', content } })}\n`);
    }
  } finally {
    closeSync(fd);
  }
  return statSync(file).size;
}

export async function benchLarge({ size = 200_000_000 } = {}) {
  if (!existsSync(TIME)) return { markdown: `## Large transcript\n\nskipped: ${TIME} (Debian package \`time\`) is not installed\n` };
  const dir = tempDir('large');
  const file = join(dir, 'large.jsonl');
  const bytes = transcript(file, size);
  const repo = join(dir, 'store.git');
  const out = join(dir, 'out.jsonl');
  const env = { ...FIXED_ENV, CTX_ENGINE: 'git' };
  progress(`large: import a ${(bytes / 1e6).toFixed(0)} MB transcript`);
  const rows = [];
  const row = (what, m) => rows.push([what, fmtInt(Math.round(m.cpu)), (m.rss / MIB).toFixed(0), (m.rss / bytes).toFixed(2)]);
  const imported = measured(NODE, [CTX_BIN, '--store', repo, 'import', 'claude-code', file, '-b', 'big'], env);
  row('`ctx import claude-code` (git engine)', imported);
  // native git storing the same bytes as one blob: the floor an import of them is compared with
  const native = join(dir, 'native.git');
  git(native, ['init', '-q', '--bare']);
  row('`git hash-object -w FILE` (native, one blob)', measured('git', ['--git-dir', native, 'hash-object', '-w', file]));
  // the same transcript captured live: one Stop hook of a session ctx has not seen yet
  const hooked = join(dir, 'hooked.git');
  const event = JSON.stringify({ session_id: 'big-session', transcript_path: file, hook_event_name: 'Stop', cwd: dir });
  progress('large: capture it with one Stop hook');
  row('`ctx hook claude-code` (Stop, the whole transcript new)', measured(NODE, [CTX_BIN, '--store', hooked, 'hook', 'claude-code'], env, event));
  const commits = Number(git(repo, ['rev-list', '--count', 'big']).stdout.toString().trim());
  const chunk = Math.max(...git(repo, ['cat-file', '--batch-all-objects', '--batch-check=%(objectsize)']).stdout.toString().trim().split('\n').map(Number));
  for (const label of ['cold', 'cached']) {
    progress(`large: materialize, ${label}`);
    if (label === 'cold') rmSync(join(repo, 'ctx', 'cache'), { recursive: true, force: true });
    row(`\`ctx materialize big --stop root -o FILE\`, ${label}`, measured(NODE, [CTX_BIN, '--store', repo, 'materialize', 'big', '--stop', 'root', '-o', out], env));
    if (Buffer.compare(readFileSync(out), readFileSync(file)) !== 0) throw new Error(`large: materialize (${label}) did not reproduce the transcript`);
    rmSync(out);
  }
  rmSync(dir, { recursive: true, force: true });
  const target = 250 * MIB; // 2 × the largest chunk (32 MiB) plus a fixed overhead
  return {
    summary: { importCpu: imported.cpu, importRss: imported.rss, chunk, target },
    markdown: [
      '## Large transcript: 200 MB, imported and materialized\n',
      `A Claude Code transcript of ${fmtInt(bytes)} bytes in 8 lines (4 tool results of ~50 MB), imported with the git engine into ${commits} commits; ` +
        `the largest object is ${(chunk / MIB).toFixed(1)} MiB (artifacts over ctx.maxBlobSize are stored as chunks). Then materialized with the chain ` +
        'cache deleted (cold) and again (cached), each output compared with the file byte for byte. One run each; CPU is user + sys of the whole ' +
        'process tree (GNU time), RSS its peak.\n',
      table(['process', 'CPU ms', 'peak RSS MiB', 'RSS / transcript size'], rows),
      '',
      `Import target: peak RSS ≤ ${(target / MIB).toFixed(0)} MiB (2 × the largest chunk plus a fixed overhead): ` +
        `${imported.rss <= target ? '**met**' : '**missed**'} (${(imported.rss / MIB).toFixed(0)} MiB).`,
      '',
    ].join('\n'),
  };
}
