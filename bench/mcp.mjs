// `ctx mcp`: tools/call latency with the server warm, on the find benchmark's store of 100 sessions
// (grep.mjs's generator; BENCH_MCP_COMMITS, BENCH_MCP_MB). Beside each tool, in the same interleaved
// rounds, what answers the same question without a server: the CLI process (`ctx grep`, `ctx
// materialize`) and native git over the same blobs (`git grep` over every commit's tree; `git
// cat-file` of the chain's artifacts). Wall-clock ms: a tool call is what an agent waits for.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CTX_BIN, FIXED_ENV, NODE, fmtInt, fmtMs, fmtRatio, median, progress, table, tempDir } from './lib.mjs';
import { NEEDLE, generate } from './grep.mjs';

const p99 = (xs) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil(xs.length * 0.99) - 1)];
const wall = (cmd, args) => {
  const t = performance.now();
  const r = spawnSync(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, ...FIXED_ENV } });
  if (r.status !== 0 && r.status !== 1) throw new Error(`${cmd} ${args.join(' ')}: ${r.stderr}`);
  return performance.now() - t;
};

export async function benchMcp({ sessions = 100, commits = Number(process.env.BENCH_MCP_COMMITS ?? 10_000), mb = Number(process.env.BENCH_MCP_MB ?? 10), rounds = 5, calls = 10 } = {}) {
  const dir = tempDir('mcp');
  progress(`mcp: generating ${fmtInt(sessions)} sessions, ${fmtInt(commits)} commits, ${mb} MB of artifacts`);
  // the generator's raw transcripts imported as a user would (its own store has placeholder hashes)
  const { raw } = generate(dir, { sessions, commits, mb });
  const gitdir = join(dir, 'imported.git');
  progress('mcp: ctx import of the 100 transcripts, then git gc');
  for (const r of [[NODE, [CTX_BIN, 'init', gitdir]], [NODE, [CTX_BIN, '--store', gitdir, 'import', 'claude-code', raw]], ['git', ['--git-dir', gitdir, 'gc', '--quiet']]]) {
    const done = spawnSync(r[0], r[1], { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, ...FIXED_ENV } });
    if (done.status !== 0) throw new Error(`${r[1].join(' ')}: ${done.stderr}`);
  }
  const branch = spawnSync('git', ['--git-dir', gitdir, 'for-each-ref', '--format=%(refname:short)', '--count=1', 'refs/heads/'], { encoding: 'utf8' }).stdout.trim();
  const transport = new StdioClientTransport({ command: NODE, args: [CTX_BIN, '--store', gitdir, 'mcp'], env: { ...process.env, ...FIXED_ENV }, stderr: 'ignore' });
  const client = new Client({ name: 'ctx-bench', version: '1.0.0' });
  await client.connect(transport);
  const tool = async (name, args) => {
    const t = performance.now();
    const r = await client.callTool({ name, arguments: args });
    if (r.isError) throw new Error(`${name}: ${r.content[0].text}`);
    return { ms: performance.now() - t, r };
  };
  const gitGrep = `git --git-dir '${gitdir}' rev-list --all | xargs -n 5000 git --git-dir '${gitdir}' grep -c -F -e '${NEEDLE}' > /dev/null; true`;
  const catFile = `git --git-dir '${gitdir}' log --format=%H:delta.jsonl '${branch}' | git --git-dir '${gitdir}' cat-file --batch > /dev/null`;
  const cases = [
    { label: `search, rare phrase (\`${NEEDLE}\`: every commit scanned)`, name: 'search', args: { pattern: NEEDLE, fixed: true, limit: 50 }, peers: { 'ctx grep': () => wall(NODE, [CTX_BIN, '--store', gitdir, 'grep', '-F', NEEDLE]), 'git grep': () => wall('bash', ['-c', gitGrep]) } },
    { label: 'search, common word (`refresh`: stops at limit 50)', name: 'search', args: { pattern: 'refresh', fixed: true, limit: 50 }, peers: {} },
    { label: `read, the last 20 messages of a ${fmtInt(Math.floor(commits / sessions))}-commit session as markdown`, name: 'read', args: { id: branch, last: 20 }, peers: { 'ctx materialize': () => wall(NODE, [CTX_BIN, '--store', gitdir, 'materialize', branch, '--format', 'markdown']), 'git cat-file': () => wall('bash', ['-c', catFile]) } },
  ];
  const hits = (await tool('search', cases[0].args)).r.structuredContent.hits.length;
  // one call of each before timing: the server's modules and the store's packs are loaded
  for (const c of cases) await tool(c.name, c.args);
  const times = cases.map((c) => ({ mcp: [], peers: Object.fromEntries(Object.keys(c.peers).map((k) => [k, []])) }));
  for (let round = 0; round < rounds; round++) {
    progress(`mcp: round ${round + 1} of ${rounds}`);
    for (const [i, c] of cases.entries()) {
      for (let k = 0; k < calls; k++) times[i].mcp.push((await tool(c.name, c.args)).ms);
      for (const [name, fn] of Object.entries(c.peers)) times[i].peers[name].push(fn());
    }
  }
  await client.close();
  const rows = cases.map((c, i) => {
    const t = times[i];
    const peer = Object.entries(t.peers).map(([k, v]) => `${k} ${fmtMs(median(v))}`);
    const first = Object.values(t.peers)[0];
    return [c.label, fmtMs(median(t.mcp)), fmtMs(p99(t.mcp)), peer.join('; ') || '—', first ? fmtRatio(median(first) / median(t.mcp)) : '—'];
  });
  const markdown = [
    '## `ctx mcp`: tools/call with the server warm\n',
    `One \`ctx mcp\` server on a packed store of ${fmtInt(sessions)} Claude Code sessions, ${fmtInt(commits)} commits, ${mb} MB of artifacts (BENCH_MCP_COMMITS, BENCH_MCP_MB), driven by the SDK's own client over stdio. ` +
      `Wall-clock ms per call: median and p99 of ${rounds * calls} calls (${rounds} rounds of ${calls}), each round followed by one run of each peer (median of ${rounds}): the CLI process that answers the same question, and native git over the same blobs. The rare phrase has ${hits} hits.\n`,
    table(['call', 'median ms', 'p99 ms', 'peers (median ms, same rounds)', 'CLI process / tools/call'], rows),
  ].join('\n');
  const summary = Object.fromEntries(cases.map((c, i) => [c.label.split(',')[0] + (i === 1 ? ' common' : ''), { median: median(times[i].mcp), p99: p99(times[i].mcp), peers: Object.fromEntries(Object.entries(times[i].peers).map(([k, v]) => [k, median(v)])) }]));
  return { markdown, summary };
}
