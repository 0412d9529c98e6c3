// `ctx clone` against `git clone --bare` of the same remote, served by `git http-backend` on 127.0.0.1
// (test/git-http-server.ts, `uploadpack.allowFilter` on), whole and with --filter=blob:none: wall time
// and disk (the objects directory). Then `ctx push` against `git push` of the same refs into a fresh
// repo, and when everything is up to date (node's start is the difference to expect), CPU and wall,
// BENCH_BASELINE's build in the same rounds. The store is 1,000 generated sessions × 10 turns
// (BENCH_CLONE_SESSIONS; 10,000 is opt-in: its generation takes minutes, so BENCH_CLONE_REMOTE=DIR keeps
// the generated store there for the next run; BENCH_CLONE_ROUNDS, default 3; BENCH_CLONE_CLONE=0 the pushes only).
import { buildSync } from 'esbuild';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CTX_BIN, FIXED_ENV, NODE, ROOT, baselineBin, cpuRun, ctx, fmtInt, fmtMs, fmtRatio, median, progress, run, table, tempDir } from './lib.mjs';
import { generateSessions } from './sessions-gen.mjs';

const du = (dir) => Number(run('du', ['-sb', join(dir, 'objects')], { stdout: 'pipe' }).stdout.toString().split('\t')[0]);
const mb = (b) => `${(b / 1e6).toFixed(1)} MB`;

/**
 * The served store: generated once into BENCH_CLONE_REMOTE (a directory kept between runs; 10,000 sessions take
 * minutes to generate) when set, else into this run's temp dir. Pushes go to other repos beside it, never into it.
 */
async function servedStore(dir, sessions) {
  const served = process.env.BENCH_CLONE_REMOTE ? join(process.env.BENCH_CLONE_REMOTE, String(sessions)) : join(dir, 'served');
  const gitdir = join(served, 'store.git');
  const record = join(served, 'generated.json');
  if (existsSync(record)) {
    progress(`clone: reusing ${fmtInt(sessions)} generated sessions in ${served}`);
    return { served, gitdir, ...JSON.parse(readFileSync(record, 'utf8')) };
  }
  rmSync(served, { recursive: true, force: true });
  mkdirSync(served, { recursive: true });
  progress(`clone: generating ${fmtInt(sessions)} sessions × 10 turns with git fast-import`);
  const t0 = performance.now();
  const { commits } = await generateSessions(served, { sessions, raw: false });
  const generated = performance.now() - t0;
  run('git', ['--git-dir', gitdir, 'config', 'uploadpack.allowFilter', 'true']);
  writeFileSync(record, JSON.stringify({ commits, generated }));
  return { served, gitdir, commits, generated };
}

export async function benchClone({ sessions = Number(process.env.BENCH_CLONE_SESSIONS ?? 1000), n = Number(process.env.BENCH_CLONE_ROUNDS ?? 3) } = {}) {
  const dir = tempDir('clone');
  const serverJs = join(ROOT, 'bench', 'out', `git-http-server-clone-${process.pid}.mjs`);
  mkdirSync(join(ROOT, 'bench', 'out'), { recursive: true });
  buildSync({ entryPoints: [join(ROOT, 'test', 'git-http-server.ts')], outfile: serverJs, format: 'esm', platform: 'node', logLevel: 'error' });
  const { startGitServer, createServedRepo } = await import(pathToFileURL(serverJs).href);
  const { served, gitdir, commits, generated } = await servedStore(dir, sessions);
  const server = await startGitServer(served);
  const url = `${server.url}/store.git`;
  let k = 0;
  const into = () => join(dir, `c${++k}`);
  try {
    // BENCH_CLONE_CLONE=0: the pushes only (one ctx clone, untimed, as their source)
    const clones = process.env.BENCH_CLONE_CLONE !== '0';
    const variants = {
      'git clone --bare': (d) => run('git', ['clone', '-q', '--bare', url, d]).ms,
      'ctx clone': (d) => ctx(['clone', url, d]).ms,
      'git clone --bare --filter=blob:none': (d) => run('git', ['clone', '-q', '--bare', '--filter=blob:none', url, d]).ms,
      'ctx clone --filter=blob:none': (d) => ctx(['clone', '--filter=blob:none', url, d]).ms,
    };
    if (!clones) for (const v of Object.keys(variants)) if (v !== 'ctx clone') delete variants[v];
    const wall = Object.fromEntries(Object.keys(variants).map((v) => [v, []]));
    const disk = {};
    // the pushes below go from a whole ctx clone: a store as a user has it
    let source = null;
    for (let i = 0; i < (clones ? n : 1); i++) {
      progress(`clone: round ${i + 1} of ${n}`);
      for (const [v, fn] of Object.entries(variants)) {
        const d = into();
        wall[v].push(fn(d));
        disk[v] ??= du(d);
        if (v === 'ctx clone' && source === null) source = d;
        else rmSync(d, { recursive: true, force: true });
      }
    }
    const med = Object.fromEntries(Object.entries(wall).map(([v, xs]) => [v, median(xs)]));
    const cloneRows = !clones ? [] : Object.keys(variants).map((v) => [v, fmtMs(med[v]), mb(disk[v]), fmtRatio(med[v] / med[v.startsWith('ctx') ? v.replace('ctx clone', 'git clone --bare') : v])]);

    // push: the same refs into a fresh served repo, then again with nothing to send; CPU (user + sys) of
    // the pushing process tree from bash's `times` (the server's receive-pack is the same for both and not in it)
    progress('clone: push against git push');
    // BENCH_BASELINE=DIR: another build's ctx push in the same rounds
    const tools = [
      ['git', null],
      ['ctx', CTX_BIN],
      ...(process.env.BENCH_BASELINE ? [['ctx (baseline)', baselineBin(process.env.BENCH_BASELINE)]] : []),
    ];
    const pushed = Object.fromEntries([...tools.flatMap(([tool]) => [`${tool} push`, `${tool} push, up to date`]), 'node -e 0'].map((v) => [v, { cpu: [], ms: [] }]));
    const record = (v, r) => (pushed[v].cpu.push(r.cpu), pushed[v].ms.push(r.ms));
    // BENCH_CLONE_PUSH=0: clones only (git's send-pack matches each pushed ref against every ref: 10,000 new branches take it the best part of an hour)
    for (let i = 0; i < (process.env.BENCH_CLONE_PUSH === '0' ? 0 : n); i++) {
      for (const [tool, bin] of tools) {
        const remote = `t${tools.findIndex(([t]) => t === tool)}r${i}`;
        const name = `push-${process.pid}-${remote}.git`;
        const repo = createServedRepo(server.root, name);
        // both push to a named remote, so both write the remote-tracking refs
        ctx(['--store', source, 'remote', 'add', remote, `${server.url}/${name}`]);
        const push = bin === null ? () => cpuRun('git', ['--git-dir', source, 'push', '-q', remote, 'refs/heads/*:refs/heads/*']) : () => cpuRun(NODE, [bin, '--store', source, 'push', remote], { env: FIXED_ENV });
        // a first push: no commit scanned before (the scan's cache of clean commits, ctx/scan/, emptied)
        rmSync(join(source, 'ctx', 'scan'), { recursive: true, force: true });
        record(`${tool} push`, push());
        // cpuRun does not see an exit code: the served repo must hold every branch
        const held = run('git', ['--git-dir', repo, 'for-each-ref', '--format=%(refname)', 'refs/heads/'], { stdout: 'pipe' }).stdout.toString().trim().split('\n').length;
        if (held !== sessions) throw new Error(`${tool} push left ${held} of ${sessions} branches on the server`);
        record(`${tool} push, up to date`, push());
        rmSync(join(server.root, name), { recursive: true, force: true });
        // and its 1,000 remote-tracking refs: left there, each round's pushes would carry all the rounds' before
        run('git', ['--git-dir', source, 'remote', 'remove', remote]);
      }
      record('node -e 0', cpuRun(NODE, ['-e', '0'], { env: FIXED_ENV }));
    }
    const pm = Object.fromEntries(Object.entries(pushed).filter(([, x]) => x.ms.length).map(([v, x]) => [v, { cpu: median(x.cpu), ms: median(x.ms) }]));
    const pushRows = Object.entries(pm).map(([v, x]) => {
      const peer = v.startsWith('ctx') ? pm[v.replace(/^ctx( \(baseline\))?/, 'git')] : null;
      return [v, fmtMs(x.cpu), peer ? `${x.cpu >= peer.cpu ? '+' : '−'}${fmtMs(Math.abs(x.cpu - peer.cpu))}` : '', fmtMs(x.ms), peer ? fmtRatio(x.ms / peer.ms) : ''];
    });
    const summary = { sessions, commits, clone: med, disk, push: pm };
    return {
      markdown: [
        `## Clone and push: ${fmtInt(sessions)} sessions over HTTP (\`clone.mjs\`)\n`,
        `${fmtInt(sessions)} generated Claude Code sessions, ${fmtInt(commits)} commits (meta.json and a ~1 KB delta each; generated in ${fmtMs(generated)} ms with \`git fast-import\`, then \`git gc\`), ` +
          'served by `git http-backend` on 127.0.0.1 (test/git-http-server.ts) with `uploadpack.allowFilter`. Wall time (a whole process each, server included), ' +
          `median of ${n} interleaved rounds, each into a new directory; disk is \`du -sb objects/\` of the clone. A partial ctx clone also fetches every meta.json (one more fetch), so it holds more than git's.\n`,
        ...(cloneRows.length ? [table(['clone', 'ms wall', 'disk', '/ git clone'], cloneRows), ''] : []),
        ...(pushRows.length
          ? [
            `Push of the ${fmtInt(sessions)} branches from a ctx clone into a fresh served repo, each through a named remote (\`git push NAME 'refs/heads/*:refs/heads/*'\` against \`ctx push NAME\`, which lists the remote first and scans what is new for secrets, its cache of clean commits emptied before each round), then again with everything up to date; \`node -e 0\` is node's start. CPU (user + sys) of the pushing process tree from bash's \`times\` (the server's side, the same for both, is not in it) and wall, median of ${n} interleaved rounds${process.env.BENCH_BASELINE ? `; (baseline) is the build in BENCH_BASELINE (${process.env.BENCH_BASELINE}), in the same rounds` : ''}.\n`,
            table(['push', 'ms CPU', 'CPU over git', 'ms wall', 'wall / git'], pushRows),
            '',
          ]
          : []),
      ].join('\n'),
      summary,
    };
  } finally {
    await server.close();
    rmSync(serverJs, { force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await benchClone();
  process.stdout.write(r.markdown);
  const { cleanup } = await import('./lib.mjs');
  cleanup();
}
