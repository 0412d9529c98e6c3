// A store of many context commits over many principals, written by one `git fast-import` stream
// (~15 s for 100,000 commits here), for `ctx resolve`'s test and benchmark. Commits follow the format
// (canonical meta.json, author, trailers); times come from a seeded generator with ties (the same
// millisecond) and clock skew (a commit older than its parent), and every tenth branch is a fork.
import { spawnSync } from 'node:child_process';
import { closeSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { prng } from './lib.mjs';

const LINE = '{"type":"user","message":{"role":"user","content":"hi"}}\n';
// every commit holds the same one-line artifact: its BLAKE3
const ARTIFACT = 'blake3:97508384c2870f4e838fa8c69a7fee4669258fc884caea6a360b15903d792e25';
export const T0 = Date.parse('2026-11-01T00:00:00.000Z');
export const SPAN = 30 * 24 * 3600 * 1000;

/**
 * `git init --bare` at `gitdir`, then `commits` commits on chains of `chain` commits by
 * `principals` principals. Returns every commit: { principal, t, depth, oid, branch }.
 */
export function generateTimeline(gitdir, { commits, principals = 50, chain = 1000, seed = 7 }) {
  const rand = prng(seed);
  const pick = (n) => Math.floor(rand() * n);
  spawnSync('git', ['init', '--bare', '-q', gitdir], { stdio: 'ignore' });
  // the stream goes to a file in pieces (a million commits is ~600 MB of it), then to fast-import
  const streamFile = join(gitdir, 'gen-stream');
  const fd = openSync(streamFile, 'w');
  let pending = '';
  const emit = (text) => {
    pending += text;
    if (pending.length > 1 << 22) {
      writeSync(fd, pending);
      pending = '';
    }
  };
  emit(`blob\nmark :1\ndata ${Buffer.byteLength(LINE)}\n${LINE}\n`);
  const out = [];
  let mark = 1;
  for (let b = 0; out.length < commits; b++) {
    const branch = `agent/${String(b).padStart(4, '0')}`;
    const owner = `principal-${String(pick(principals)).padStart(2, '0')}`;
    // every tenth branch forks another at one of its commits
    let parent = null;
    if (b % 10 === 9 && out.length) parent = out[pick(out.length)];
    let t = parent ? parent.t + pick(60_000) : T0 + pick(SPAN);
    let depth = parent ? parent.depth + 1 : 0;
    const n = Math.min(chain, commits - out.length);
    for (let i = 0; i < n; i++) {
      const principal = rand() < 0.1 ? `principal-${String(pick(principals)).padStart(2, '0')}` : owner;
      // mostly forward; 5% in the same millisecond as the commit before, 2% before it (clock skew)
      const r = rand();
      const at = r < 0.05 ? t : r < 0.07 ? t - pick(300_000) : t + 1 + pick(120_000);
      t = Math.max(t, at);
      const meta = {
        artifact: ARTIFACT,
        artifact_size: Buffer.byteLength(LINE),
        checkpoint: 'explicit',
        created_at: new Date(at).toISOString(),
        format: 'claude-code-v1',
        machine: 'box',
        message_count: 1,
        principal,
        session_id: branch,
        summary: '',
        template: 'agent',
        token_count: 1,
        type: 'delta',
        v: 1,
      };
      const metaText = JSON.stringify(meta) + '\n';
      const who = `${principal} <${principal}@box> ${Math.floor(at / 1000)} +0000`;
      const msg = `delta: 1 messages\n\nCtx-Type: delta\nCtx-Format: claude-code-v1\nCtx-Session: ${branch}\nCtx-Template: agent\n`;
      mark++;
      emit(
        `commit refs/heads/${branch}\nmark :${mark}\nauthor ${who}\ncommitter ${who}\ndata ${Buffer.byteLength(msg)}\n${msg}` +
          (parent ? `from :${parent.mark}\n` : '') +
          `M 100644 :1 delta.jsonl\nM 100644 inline meta.json\ndata ${Buffer.byteLength(metaText)}\n${metaText}\n`,
      );
      const c = { principal, t: at, depth, oid: '', branch, mark };
      out.push(c);
      parent = c;
      depth++;
    }
  }
  writeSync(fd, pending);
  closeSync(fd);
  const marks = join(gitdir, 'gen-marks');
  const input = openSync(streamFile, 'r');
  const r = spawnSync('git', ['--git-dir', gitdir, 'fast-import', '--quiet', `--export-marks=${marks}`], { stdio: [input, 'ignore', 'pipe'] });
  closeSync(input);
  rmSync(streamFile);
  if (r.status !== 0) throw new Error(`fast-import: ${r.stderr}`);
  const oids = new Map(readFileSync(marks, 'utf8').trim().split('\n').map((l) => l.slice(1).split(' ')).map(([m, o]) => [Number(m), o]));
  rmSync(marks);
  for (const c of out) {
    c.oid = oids.get(c.mark);
    delete c.mark;
  }
  writeFileSync(join(gitdir, 'HEAD'), 'ref: refs/heads/agent/0000\n');
  return out;
}

/** What resolve must answer, by a linear scan: the latest (time, depth, id) at or before `t`, or null. */
export function linearResolve(all, principal, t) {
  let best = null;
  for (const c of all) {
    if (c.principal !== principal || c.t > t) continue;
    if (!best || c.t > best.t || (c.t === best.t && (c.depth > best.depth || (c.depth === best.depth && c.oid > best.oid)))) best = c;
  }
  return best;
}

export { prng, LINE };
