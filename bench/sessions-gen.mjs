// A generated store of Claude Code sessions written by one `git fast-import` stream: each turn a
// commit (a user line and an assistant line that records its usage, as Claude Code writes them),
// for the usage and clone benchmarks; the raw transcripts beside it for peers that read files.
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { createBLAKE3 } from 'hash-wasm';
import { fastImportRepo, prng, prose } from './lib.mjs';

const MODELS = ['claude-sonnet-4-5-20250929', 'claude-opus-4-1-20250805', 'claude-haiku-4-5-20251001'];

/** `sessions` chains of `turns` commits each, `bytes` of prose a turn; returns the bare repo and the raw dir. */
export async function generateSessions(dir, { sessions, turns = 10, bytes = 1000, seed = 24, raw = true }) {
  const rand = prng(seed);
  const hasher = await createBLAKE3();
  const gitdir = join(dir, 'store.git');
  const rawDir = join(dir, 'raw');
  if (raw) mkdirSync(rawDir);
  const { emit, finish } = fastImportRepo(gitdir, join(dir, 'stream'));
  let mark = 0;
  let n = 0;
  for (let s = 0; s < sessions; s++) {
    const session = `00000000-0000-4000-8000-${String(s).padStart(12, '0')}`;
    const branch = `claude/${session}`;
    const cwd = `/home/dev/project-${s % 7}`;
    const model = MODELS[s % MODELS.length];
    const file = raw ? openSync(join(rawDir, `${session}.jsonl`), 'w') : null;
    let parent = 0;
    for (let i = 0; i < turns; i++, n++) {
      const at = new Date(Date.parse('2026-11-01T00:00:00Z') + n * 60_000).toISOString();
      const usage = { input_tokens: 3 + (n % 17), output_tokens: 50 + (n % 400), cache_read_input_tokens: 1000 * (n % 9), cache_creation_input_tokens: 100 * (n % 5) };
      const lines =
        JSON.stringify({ type: 'user', sessionId: session, cwd, timestamp: at, message: { role: 'user', content: prose(rand, bytes >> 1) } }) + '\n' +
        JSON.stringify({ type: 'assistant', sessionId: session, cwd, timestamp: at, requestId: `req_${n}`, message: { id: `msg_${n}`, role: 'assistant', model, content: [{ type: 'text', text: prose(rand, bytes >> 1) }], usage } }) + '\n';
      if (file !== null) writeSync(file, lines);
      const meta = JSON.stringify({ artifact: `blake3:${hasher.init().update(lines).digest('hex')}`, artifact_size: Buffer.byteLength(lines), checkpoint: 'import', created_at: at, format: 'claude-code-v1', machine: 'box', message_count: 2, principal: 'bench', session_id: session, summary: '', template: 'claude-code', token_count: 1, type: 'delta', v: 1 }) + '\n';
      const who = `bench <bench@box> ${Math.floor(Date.parse(at) / 1000)} +0000`;
      const msg = `delta: 2 messages\n\nCtx-Type: delta\nCtx-Format: claude-code-v1\nCtx-Session: ${session}\nCtx-Template: claude-code\n`;
      mark++;
      emit(
        `commit refs/heads/${branch}\nmark :${mark}\nauthor ${who}\ncommitter ${who}\ndata ${Buffer.byteLength(msg)}\n${msg}` +
          (parent ? `from :${parent}\n` : '') +
          `M 100644 inline delta.jsonl\ndata ${Buffer.byteLength(lines)}\n${lines}\nM 100644 inline meta.json\ndata ${Buffer.byteLength(meta)}\n${meta}\n`,
      );
      parent = mark;
    }
    if (file !== null) closeSync(file);
  }
  finish('refs/heads/claude/00000000-0000-4000-8000-000000000000');
  return { gitdir, raw: rawDir, commits: n };
}
