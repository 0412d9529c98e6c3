// The web view's start page on a generated store of 1,000 sessions (10 turns each, written by one
// `git fast-import` stream, forks every 10th): the time from navigation to the sessions page drawn
// (its own mark, body[data-ready="/"]) in headless chromium, and the CPU `ctx serve` spends on
// GET /api/sessions (read from /proc before and after; with nothing kept, then with its cache)
// beside `git for-each-ref` of the same refs with their tips' subjects (GNU time), as the peer.
// Interleaved rounds, the first discarded.
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, openSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { fmtInt, fmtMs, fmtRatio, median, progress, table, tempDir } from './lib.mjs';
import { measured } from './resume.mjs';
import { cpuOf, serve, stop } from './serve.mjs';

const CHROMIUM = '/usr/bin/chromium';
const SESSIONS = Number(process.env.BENCH_WEB_SESSIONS ?? 1000);
const TURNS = 10;
const ROUNDS = 5;
const PEER_RUNS = 20;
const PROJECTS = ['/work/api', '/work/web', '/work/cli', '/work/docs'];
const MODELS = ['claude-opus-4-5', 'claude-sonnet-4-5'];

/** The store: SESSIONS Claude Code chains of TURNS commits (a prompt, an answer with usage, cwd and model); every 10th session has a fork from its 5th turn with 2 turns of its own. */
export function generate(dir) {
  const gitdir = join(dir, 'store.git');
  spawnSync('git', ['init', '--bare', '-q', gitdir], { stdio: 'ignore' });
  const streamFile = join(dir, 'stream');
  const fd = openSync(streamFile, 'w');
  let pending = '';
  const emit = (text) => {
    pending += text;
    if (pending.length > 1 << 22) (writeSync(fd, pending), (pending = ''));
  };
  let mark = 0;
  let n = 0;
  const commit = (branch, session, parent, turn, s) => {
    const at = new Date(Date.parse('2026-11-01T00:00:00Z') + n++ * 1000).toISOString();
    const base = { sessionId: session, cwd: PROJECTS[s % PROJECTS.length], timestamp: at };
    const lines =
      JSON.stringify({ ...base, type: 'user', uuid: `u${n}`, message: { role: 'user', content: `session ${s} turn ${turn}: look at src/mod${turn}.ts and fix the bug` } }) +
      '\n' +
      JSON.stringify({ ...base, type: 'assistant', uuid: `a${n}`, message: { id: `m${n}`, role: 'assistant', model: MODELS[s % 2], content: [{ type: 'text', text: 'Done: the loop skipped blank lines.' }], usage: { input_tokens: 1200, output_tokens: 80 } } }) +
      '\n';
    const meta = JSON.stringify({ artifact: `blake3:${'0'.repeat(64)}`, artifact_size: Buffer.byteLength(lines), checkpoint: 'import', created_at: at, format: 'claude-code-v1', machine: 'box', message_count: 2, principal: 'bench', session_id: session, summary: `session ${s} turn ${turn}: look at src/mod${turn}.ts and fix the bug`, template: 'claude-code', token_count: 40, type: 'delta', v: 1 }) + '\n';
    const who = `bench <bench@box> ${Math.floor(Date.parse(at) / 1000)} +0000`;
    const msg = `session ${s} turn ${turn}\n\nCtx-Type: delta\nCtx-Format: claude-code-v1\nCtx-Session: ${session}\nCtx-Template: claude-code\n`;
    mark++;
    emit(
      `commit refs/heads/${branch}\nmark :${mark}\nauthor ${who}\ncommitter ${who}\ndata ${Buffer.byteLength(msg)}\n${msg}` +
        (parent ? `from :${parent}\n` : '') +
        `M 100644 inline delta.jsonl\ndata ${Buffer.byteLength(lines)}\n${lines}\nM 100644 inline meta.json\ndata ${Buffer.byteLength(meta)}\n${meta}\n`,
    );
    return mark;
  };
  let refs = 0;
  for (let s = 0; s < SESSIONS; s++) {
    const session = `00000000-0000-4000-8000-${String(s).padStart(12, '0')}`;
    let parent = 0;
    let fifth = 0;
    for (let t = 0; t < TURNS; t++) {
      parent = commit(`claude/s${s}`, session, parent, t, s);
      if (t === 4) fifth = parent;
    }
    refs++;
    if (s % 10 === 0) {
      // git fast-import moves a branch only forward: the fork starts from a mark
      let p = fifth;
      for (let t = 0; t < 2; t++) p = commit(`review/s${s}`, session, p, 100 + t, s);
      refs++;
    }
  }
  writeSync(fd, pending);
  closeSync(fd);
  const input = openSync(streamFile, 'r');
  const r = spawnSync('git', ['--git-dir', gitdir, 'fast-import', '--quiet'], { stdio: [input, 'ignore', 'pipe'] });
  closeSync(input);
  if (r.status !== 0) throw new Error(`fast-import: ${r.stderr}`);
  spawnSync('git', ['--git-dir', gitdir, 'gc', '--quiet'], { stdio: 'ignore' });
  return { gitdir, refs, commits: n };
}

export async function benchWeb() {
  if (!existsSync(CHROMIUM)) return { markdown: `## ctx serve: the sessions page\n\nskipped: ${CHROMIUM} (Debian package \`chromium\`) is not installed\n`, summary: null };
  const { chromium } = await import('playwright-core');
  const dir = tempDir('web');
  progress(`web: generating ${fmtInt(SESSIONS)} sessions of ${TURNS} turns`);
  const { gitdir, refs, commits } = generate(dir);
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const page = [];
  const endpoint = [];
  const warm = [];
  const peer = [];
  let drawn = 0;
  try {
    for (let i = 0; i <= ROUNDS; i++) {
      progress(`web: round ${i}/${ROUNDS}`);
      // nothing kept from the round before: the first request reads every commit's meta.json
      rmSync(join(gitdir, 'ctx', 'cache'), { recursive: true, force: true });
      const s = await serve(gitdir);
      try {
        // the endpoint's CPU on a server just started
        const before = cpuOf(s.proc.pid);
        const body = await (await fetch(`${s.url}api/sessions`)).text();
        await new Promise((done) => setTimeout(done, 200)); // the request's git processes reaped
        const spent = cpuOf(s.proc.pid) - before;
        const listed = body.trimEnd().split('\n').length;
        if (listed !== refs) throw new Error(`web: /api/sessions listed ${listed} sessions, the store has ${refs} branches`);
        // and again on the same server: each tip's facts now kept in ctx/cache/sessions.json
        const again = cpuOf(s.proc.pid);
        await (await fetch(`${s.url}api/sessions`)).text();
        await new Promise((done) => setTimeout(done, 200));
        const spentAgain = cpuOf(s.proc.pid) - again;
        // one for-each-ref is under GNU time's 10 ms resolution: PEER_RUNS of them in one shell, divided
        const m = measured('bash', ['-c', `for i in $(seq ${PEER_RUNS}); do git --git-dir '${gitdir}' for-each-ref '--format=%(refname) %(objectname) %(committerdate:iso-strict) %(subject)' refs/heads/ > /dev/null; done`]);
        // the page: navigation to the sessions drawn (the facts kept, as after any earlier listing)
        const tab = await browser.newPage({ viewport: { width: 1400, height: 900 } });
        const errors = [];
        tab.on('pageerror', (e) => errors.push(e.message));
        const start = performance.now();
        await tab.goto(s.url);
        await tab.waitForFunction(() => document.body.dataset.ready === '/', null, { timeout: 120_000 });
        const ms = performance.now() - start;
        drawn = await tab.locator('li.session').count();
        if (errors.length || drawn !== refs) throw new Error(`web: the page drew ${drawn} sessions of ${refs}, errors: ${errors.join('; ')}`);
        await tab.close();
        if (i > 0) {
          page.push(ms);
          endpoint.push(spent);
          warm.push(spentAgain);
          peer.push(m.cpu / PEER_RUNS);
        }
      } finally {
        await stop(s.proc);
      }
    }
  } finally {
    await browser.close();
  }
  const summary = { sessions: refs, commits, page: median(page), endpoint: median(endpoint), warm: median(warm), peer: median(peer) };
  const markdown = [
    `## ctx serve: the sessions page on ${fmtInt(SESSIONS)} sessions\n`,
    `A generated store of ${fmtInt(SESSIONS)} Claude Code sessions of ${TURNS} turns and a fork of 2 turns from every 10th (${fmtInt(refs)} branches, ${fmtInt(commits)} commits, packed). ` +
      '**page**: navigation to the sessions page drawn in headless chromium (its own mark, `body[data-ready="/"]`), after those two requests; ' +
      '**/api/sessions CPU**: user + sys of the server process and its git processes for the list (every commit\'s meta.json once, the tip\'s and root\'s artifacts), from /proc, ' +
      'as the first request of a server just started with `<store>/ctx/cache` deleted (its modules loaded on the way, every commit\'s meta.json read) and **again** on the same server (each tip\'s facts kept in `ctx/cache/sessions.json` by the first: the refs, the commit-graph\'s history and that file); ' +
      `**git for-each-ref**: the same refs with their tips' ids, times and subjects, the floor of any listing (GNU time over ${PEER_RUNS} runs in one shell, divided). ` +
      `Medians of ${ROUNDS} interleaved rounds, the first discarded.\n`,
    table(
      ['', 'ms'],
      [
        ['sessions page drawn', fmtMs(summary.page)],
        ['/api/sessions, nothing kept, server CPU', fmtMs(summary.endpoint)],
        ['/api/sessions again, server CPU', fmtMs(summary.warm)],
        ['git for-each-ref, process CPU', fmtMs(summary.peer)],
        ['endpoint again / for-each-ref', fmtRatio(summary.warm / summary.peer)],
      ],
    ),
    '',
  ].join('\n');
  return { markdown, summary };
}
