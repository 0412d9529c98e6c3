// The runtimes the hook and import benchmarks run, one entry each: a transcript to start from, a
// ~10 KB turn of whole lines to append, and the hook input the runtime gives `ctx hook`. Adding a
// runtime to the benchmarks is one entry here.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CORPUS_FILE, ROOT, prng, prose } from './lib.mjs';

const CORPUS = resolve(ROOT, '../shared/corpus');

/** Cut points: each the last line end within `step` bytes of the previous one (the next one past a longer line). */
export function cuts(bytes, from, step, count) {
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

/**
 * A real transcript: its first half is the session so far; each turn is the next ~`step` bytes of whole
 * lines copied from its middle (the hook reads bytes, it does not care whose they are).
 */
function corpusRuntime(file) {
  return (n, step) => {
    const bytes = readFileSync(file);
    const from = bytes.indexOf(10, bytes.length >> 1) + 1;
    const points = [from, ...cuts(bytes, from, step, n)];
    if (points.length < n + 1) throw new Error(`${file}: too short for ${n} turns of ${step} bytes`);
    return { base: bytes.subarray(0, from), turn: (i) => bytes.subarray(points[i], points[i + 1]) };
  };
}

/** Gemini CLI's JSONL: the fixture session, then generated turns (a prompt and a ~`step`-byte reply each). */
function geminiTurns(n, step) {
  const rand = prng(7);
  const line = (o) => `${JSON.stringify(o)}\n`;
  const turn = (i) =>
    Buffer.from(
      line({ id: `u${i}`, timestamp: '2026-01-10T09:00:01.000Z', type: 'user', content: [{ text: `question ${i}: ${prose(rand, 200)}` }] }) +
        line({ id: `g${i}`, timestamp: '2026-01-10T09:00:02.000Z', type: 'gemini', content: prose(rand, step - 500), model: 'gemini-2.5-pro' }),
    );
  const fixture = readFileSync(join(ROOT, 'fixtures/gemini-cli/session-2026-01-10T09-00-aaaa1111.jsonl'));
  // the session so far: the fixture and 100 turns (~1 MB)
  const base = Buffer.concat([fixture, ...Array.from({ length: 100 }, (_, i) => turn(1000 + i))]);
  const turns = Array.from({ length: n }, (_, i) => turn(i));
  return { base, turn: (i) => turns[i] };
}

/**
 * name: the runtime; file: the transcript's name; transcript(n, step): { base, turn(i) };
 * input(file, cwd): the hook's input, on stdin ({ stdin }) or as an argument ({ arg }); branch: the chain it lands on.
 */
export const RUNTIMES = [
  {
    name: 'claude-code',
    session: '967e501d-aa48-4eab-a21f-b17058bd78f0',
    file: '967e501d-aa48-4eab-a21f-b17058bd78f0.jsonl',
    transcript: corpusRuntime(CORPUS_FILE),
    input: (file, cwd) => ({ stdin: JSON.stringify({ session_id: '967e501d-aa48-4eab-a21f-b17058bd78f0', transcript_path: file, hook_event_name: 'Stop', cwd }) }),
    branch: 'claude/967e501d-aa48-4eab-a21f-b17058bd78f0',
  },
  {
    name: 'codex',
    file: 'rollout-2025-09-24T19-22-20-01997e76-d124-7592-9cac-2ec05abbca08.jsonl',
    transcript: corpusRuntime(join(CORPUS, 'codex/jnarowski__agentcmd__rollout-2025-09-24T19-22-20-01997e76-d124-7592-9cac-2ec05abbca08.jsonl')),
    // Codex's notify program gets the JSON as its last argument
    input: (file, cwd) => ({ arg: JSON.stringify({ type: 'agent-turn-complete', 'thread-id': '01997e76-d124-7592-9cac-2ec05abbca08', 'turn-id': 't', cwd, transcript_path: file }) }),
    branch: 'codex/01997e76-d124-7592-9cac-2ec05abbca08',
  },
  {
    name: 'gemini-cli',
    file: 'session-2026-01-10T09-00-aaaa1111.jsonl',
    transcript: geminiTurns,
    input: (file, cwd) => ({ stdin: JSON.stringify({ session_id: 'aaaa1111-2222-4333-8444-555566667777', transcript_path: file, cwd, hook_event_name: 'AfterAgent', timestamp: '2026-01-10T09:00:09.000Z' }) }),
    branch: 'gemini/aaaa1111-2222-4333-8444-555566667777',
  },
];
