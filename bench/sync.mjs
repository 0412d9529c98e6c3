// Benchmark 5: push and fetch of 100 branches × 100 commits to a real local git server
// (`git http-backend` behind test/git-http-server.ts): wall time and HTTP requests, ctx with the git
// transport and with the isomorphic-git transport (PATH without git), against native git, same run.
import { buildSync } from 'esbuild';
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { NODE, ROOT, ctx, fmtInt, fmtMs, git, progress, prng, prose, run, table, tempDir } from './lib.mjs';

const BRANCHES = Number(process.env.BENCH_SYNC_BRANCHES ?? 100);
const COMMITS = Number(process.env.BENCH_SYNC_COMMITS ?? 100);

/** BRANCHES independent chains of COMMITS context-shaped commits (meta.json + a 2 KB delta), by fast-import. */
function buildRepo(dir) {
  const repo = join(dir, 'source.ctx');
  run('git', ['init', '-q', '--bare', repo]);
  const rand = prng(42);
  const parts = [];
  let mark = 0;
  const data = (s) => `data ${Buffer.byteLength(s)}\n${s}\n`;
  for (let b = 0; b < BRANCHES; b++) {
    for (let c = 0; c < COMMITS; c++) {
      const t = 1767225600 + b * COMMITS + c;
      const delta = `${JSON.stringify({ type: 'user', message: { role: 'user', content: `b${b} c${c}: ${prose(rand, 2000)}` } })}\n`;
      const meta = `${JSON.stringify({ v: 1, type: 'delta', format: 'claude-code-v1', session_id: `s${b}`, summary: '', created_at: new Date(t * 1000).toISOString() })}\n`;
      parts.push(`commit refs/heads/agent/${String(b).padStart(3, '0')}\nmark :${++mark}\ncommitter bench <bench@bench-host> ${t} +0000\n${data(`delta: 1 messages\n`)}`);
      if (c > 0) parts.push(`from :${mark - 1}\n`);
      parts.push(`M 100644 inline meta.json\n${data(meta)}M 100644 inline delta.jsonl\n${data(delta)}\n`);
    }
  }
  const stream = join(dir, 'repo.fi');
  writeFileSync(stream, parts.join(''));
  run('bash', ['-c', `git --git-dir '${repo}' fast-import --quiet < '${stream}'`]);
  return repo;
}

export async function benchSync() {
  const dir = tempDir('sync');
  progress(`sync: building ${BRANCHES} branches × ${COMMITS} commits with git fast-import`);
  const source = buildRepo(dir);
  // compiled inside the project, so that its own import of esbuild resolves
  const serverJs = join(ROOT, 'bench', 'out', `git-http-server-${process.pid}.mjs`);
  mkdirSync(join(ROOT, 'bench', 'out'), { recursive: true });
  buildSync({ entryPoints: [join(ROOT, 'test', 'git-http-server.ts')], outfile: serverJs, format: 'esm', platform: 'node', logLevel: 'error' });
  const { startGitServer, createServedRepo } = await import(pathToFileURL(serverJs).href);
  mkdirSync(join(dir, 'served'));
  const server = await startGitServer(join(dir, 'served'));
  const noGit = join(dir, 'nogit-bin');
  mkdirSync(noGit);
  symlinkSync(NODE, join(noGit, 'node'));

  const rows = [];
  let k = 0;
  const fresh = () => {
    const name = `r${++k}.git`;
    return { url: `${server.url}/${name}`, dir: createServedRepo(server.root, name) };
  };
  const measure = (label, fn) => {
    server.reset();
    const ms = fn();
    const requests = server.requests();
    rows.push([label, fmtMs(ms), fmtInt(requests)]);
    return { ms, requests };
  };
  const check = (repoDir, what) => {
    const heads = git(repoDir, ['for-each-ref', '--format=%(objectname)', 'refs/heads/', 'refs/remotes/']).stdout.toString().trim().split('\n').length;
    const commits = Number(git(repoDir, ['rev-list', '--all', '--count']).stdout.toString().trim());
    if (heads < BRANCHES || commits !== BRANCHES * COMMITS) throw new Error(`sync: ${what} holds ${heads} refs, ${commits} commits`);
  };

  try {
    const variants = [
      ['native git', null],
      ['ctx, git transport', {}],
      ['ctx, isomorphic-git transport (no git on PATH)', { PATH: noGit }],
    ];
    for (const [label, env] of variants) {
      progress(`sync: push, ${label}`);
      const target = fresh();
      const store = join(dir, `store-${k}.ctx`);
      run('git', ['clone', '-q', '--bare', '--mirror', source, store]);
      git(store, ['remote', 'remove', 'origin']);
      if (env === null) measure(`push, ${label} (\`git push --all\`)`, () => run('git', ['--git-dir', store, 'push', '-q', '--all', target.url]).ms);
      else {
        ctx(['--store', store, 'remote', 'add', 'origin', target.url], { env });
        measure(`push, ${label} (\`ctx push\`)`, () => ctx(['--store', store, 'push'], { env }).ms);
      }
      check(target.dir, `the server after ${label}`);

      progress(`sync: fetch, ${label}`);
      const into = join(dir, `into-${k}.ctx`);
      run('git', ['init', '-q', '--bare', into]);
      if (env === null) measure(`fetch into an empty repo, ${label} (\`git fetch\`)`, () => run('git', ['--git-dir', into, 'fetch', '-q', target.url, '+refs/heads/*:refs/remotes/origin/*']).ms);
      else {
        ctx(['--store', into, 'remote', 'add', 'origin', target.url], { env });
        measure(`fetch into an empty store, ${label} (\`ctx fetch\`)`, () => ctx(['--store', into, 'fetch'], { env }).ms);
      }
      check(into, `the fetched store of ${label}`);
    }
  } finally {
    await server.close();
    rmSync(serverJs, { force: true });
  }
  return {
    markdown: [
      `## 5. Sync: push and fetch ${fmtInt(BRANCHES)} branches × ${fmtInt(COMMITS)} commits (\`sync.mjs\`)\n`,
      `${fmtInt(BRANCHES * COMMITS)} commits (meta.json and a 2 KB delta each; independent chains) built with \`git fast-import\`, ` +
        'pushed to a fresh repo on a local `git http-backend` (test/git-http-server.ts, one CGI process per request), then fetched ' +
        'from it into a fresh empty repo. One run each (a whole process, wall clock); HTTP requests as counted by the server. ' +
        'ctx first lists the remote (ls-remote) to report per-ref status and refuse diverged refs before sending; the git ' +
        'transport then makes one `git push --atomic`; the isomorphic-git transport pushes and fetches one ref per call.\n',
      table(['operation', 'wall ms', 'HTTP requests'], rows),
      '',
    ].join('\n'),
  };
}
