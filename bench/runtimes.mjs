// The runtimes the hook and import benchmarks run, one entry each: a transcript to start from, a
// ~10 KB turn of whole lines to append (or, for opencode, the whole session after the turn), and the
// hook input the runtime gives `ctx hook`. Adding a runtime to the benchmarks is one entry here.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CORPUS_FILE, ROOT, prng, prose } from './lib.mjs';

const CORPUS = resolve(ROOT, '../shared/corpus');

/**
 * Cut points: each the last line end within `step` bytes of the previous one (the next one past a longer
 * line), moved past a last line that `holds` (one the hook keeps back until what follows it is written).
 */
export function cuts(bytes, from, step, count, holds = () => false) {
  const out = [];
  let at = from;
  for (let i = 0; i < count; i++) {
    let nl = bytes.lastIndexOf(10, at + step - 1);
    if (nl < at) nl = bytes.indexOf(10, at);
    while (nl >= 0 && holds(bytes.subarray(bytes.lastIndexOf(10, nl - 1) + 1, nl))) nl = bytes.indexOf(10, nl + 1);
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
function corpusRuntime(file, holds) {
  return (n, step) => {
    const bytes = readFileSync(file);
    const from = bytes.indexOf(10, bytes.length >> 1) + 1;
    const points = [from, ...cuts(bytes, from, step, n, holds)];
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

/** A fixture session, then generated turns: `make(k, rand, step)` is turn k's bytes (turns 0-99 the session so far, ~1 MB). */
function generatedTurns(fixture, make) {
  return (n, step) => {
    const rand = prng(7);
    const all = Array.from({ length: 100 + n }, (_, k) => Buffer.from(make(k, rand, step)));
    return { base: Buffer.concat([readFileSync(join(ROOT, fixture)), ...all.slice(0, 100)]), turn: (i) => all[100 + i] };
  };
}

const line = (o) => `${JSON.stringify(o)}\n`;
const hex = (n, w) => n.toString(16).padStart(w, '0');
const iso = (ms) => new Date(ms).toISOString();

/** pi's session entries: a prompt and a ~`step`-byte reply a turn, each entry's parentId the one before it (the fixture ends at a1000017). */
function piTurn(k, rand, step) {
  const t = 1768035800000 + k * 2000;
  const user = `b${hex(2 * k, 7)}`;
  const reply = `b${hex(2 * k + 1, 7)}`;
  return (
    line({ type: 'message', id: user, parentId: k === 0 ? 'a1000017' : `b${hex(2 * k - 1, 7)}`, timestamp: iso(t), message: { role: 'user', content: [{ type: 'text', text: `question ${k}: ${prose(rand, 200)}` }], timestamp: t } }) +
    line({ type: 'message', id: reply, parentId: user, timestamp: iso(t + 1000), message: { role: 'assistant', content: [{ type: 'text', text: prose(rand, step - 700) }], api: 'anthropic-messages', provider: 'anthropic', model: 'claude-sonnet-4-5', usage: { input: 120, output: 30, cacheRead: 0, cacheWrite: 0, totalTokens: 150 }, stopReason: 'stop', timestamp: t + 1000 } })
  );
}

const COPILOT_SESSION = 'c43f2d03-c92b-4cd0-88e1-4992a3e56d3e';
/**
 * Copilot CLI's events: the previous turn's agentStop `hook.end`, a prompt, a ~`step`-byte reply,
 * and this turn's agentStop `hook.start`, the line Copilot writes before it runs the hook (so the
 * hook sees the file end there, as the split expects).
 */
function copilotTurn(k, rand, step) {
  const t = Date.parse('2026-11-27T16:00:00.000Z') + k * 2000;
  const id = (kind) => `00000000-0000-4000-8000-${hex(k * 8 + kind, 12)}`;
  const prevStart = `00000000-0000-4000-8000-${hex((k - 1) * 8 + 5, 12)}`;
  const ev = (kind, type, data, dt, parent) => line({ type, data, id: id(kind), timestamp: iso(t + dt), parentId: parent });
  const interactionId = id(6);
  return (
    (k === 0 ? '' : ev(0, 'hook.end', { hookInvocationId: `hook-${k - 1}`, hookType: 'agentStop', success: true }, 0, prevStart)) +
    ev(1, 'user.message', { content: `question ${k}: ${prose(rand, 200)}`, messageId: id(7), interactionId }, 10, id(0)) +
    ev(2, 'assistant.turn_start', { turnId: '0', interactionId }, 20, id(1)) +
    ev(3, 'assistant.message', { messageId: `m-${k}`, model: 'mock-model', content: prose(rand, step - 1500), toolRequests: [], interactionId, turnId: '0' }, 900, id(2)) +
    ev(4, 'assistant.turn_end', { turnId: '0' }, 910, id(3)) +
    ev(5, 'hook.start', { hookInvocationId: `hook-${k}`, hookType: 'agentStop', input: { sessionId: COPILOT_SESSION, transcriptPath: 'events.jsonl', stopReason: 'end_turn', stop_hook_active: false, timestamp: t + 920, cwd: '/home/alice/proj' } }, 920, id(4))
  );
}

const OPENCODE_SESSION = 'ses_de24204f2ffeqCSPjCnRuLtBoU';
/** One opencode message (what `opencode export` and the plugin give): its info and parts, ids that sort after the fixture's. */
function opencodeMessage(n, role, info, parts) {
  const id = `msg_21dc${hex(n, 8)}BenchGenerated`;
  return { info: { ...info, role, id, sessionID: OPENCODE_SESSION }, parts: parts.map((p, j) => ({ ...p, id: `prt_21dc${hex(n * 4 + j, 8)}BenchGenerated`, sessionID: OPENCODE_SESSION, messageID: id })) };
}

/**
 * opencode keeps no file it appends to: its hook input is the whole session document (what ctx's
 * plugin reads from opencode after a turn), so the transcript is that document, rewritten whole each
 * turn (`rewrite`): turn(i) is the document after turn i, which adds a prompt and a ~`step`-byte reply.
 */
function opencodeTurns(n, step) {
  const rand = prng(7);
  const doc = JSON.parse(readFileSync(join(ROOT, 'fixtures/opencode/session.json'), 'utf8'));
  const tokens = { total: 15, input: 10, output: 5, reasoning: 0, cache: { write: 0, read: 0 } };
  const turn = (k) => {
    const t = 1795795360000 + k * 2000;
    const user = opencodeMessage(2 * k, 'user', { time: { created: t }, agent: 'build', model: { providerID: 'mock', modelID: 'mock-model' }, summary: { diffs: [] } }, [{ type: 'text', text: `question ${k}: ${prose(rand, 200)}` }]);
    const reply = opencodeMessage(2 * k + 1, 'assistant', { parentID: user.info.id, mode: 'build', agent: 'build', path: { cwd: '/home/alice/proj', root: '/' }, cost: 0, tokens, modelID: 'mock-model', providerID: 'mock', time: { created: t + 1000, completed: t + 1500 }, finish: 'stop' }, [
      { type: 'step-start' },
      { type: 'text', text: prose(rand, step - 2700), time: { start: t + 1100, end: t + 1400 } },
      { reason: 'stop', type: 'step-finish', tokens, cost: 0 },
    ]);
    return [user, reply];
  };
  const turns = Array.from({ length: 100 + n }, (_, k) => turn(k));
  // as opencode prints a session (JSON.stringify with two spaces), the bytes ctx's chain gives back
  const encode = (count) => Buffer.from(`${JSON.stringify({ info: doc.info, messages: [...doc.messages, ...turns.slice(0, count).flat()] }, null, 2)}\n`);
  return { base: encode(100), turn: (i) => encode(100 + i + 1) };
}

/** The text Claude Code's Stop hook input gives as last_assistant_message: the last user or assistant line's text blocks, when it is an assistant's (undefined when none). */
function lastAssistantText(file) {
  const lines = readFileSync(file, 'utf8').split('\n');
  for (let i = lines.length - 1; i >= 0; i--) {
    if (lines[i] === '') continue;
    const e = JSON.parse(lines[i]);
    if (e.type === 'user') return undefined;
    if (e.type !== 'assistant' || !Array.isArray(e.message?.content)) continue;
    return e.message.content.filter((b) => b.type === 'text').map((b) => b.text).join('\n').trim() || undefined;
  }
  return undefined;
}

/**
 * name: the runtime; file: the transcript's name; transcript(n, step): { base, turn(i) }: turn(i) is
 * appended to the file, or, with `rewrite`, replaces it (a runtime whose hook is given the whole
 * session); input(file, cwd): the hook's input, on stdin ({ stdin }: a string, or a function called
 * before each hook when the input changes with the file) or as an argument ({ arg }); branch: the
 * chain it lands on.
 */
export const RUNTIMES = [
  {
    name: 'claude-code',
    session: '967e501d-aa48-4eab-a21f-b17058bd78f0',
    file: '967e501d-aa48-4eab-a21f-b17058bd78f0.jsonl',
    // a compact_boundary line is captured with the summary written after it: a turn never ends on one
    transcript: corpusRuntime(CORPUS_FILE, (line) => line.includes('"subtype":"compact_boundary"')),
    // as Claude Code gives it: the last assistant message's text, which the hook finds in the transcript before capturing
    input: (file, cwd) => ({ stdin: () => JSON.stringify({ session_id: '967e501d-aa48-4eab-a21f-b17058bd78f0', transcript_path: file, hook_event_name: 'Stop', cwd, last_assistant_message: lastAssistantText(file) }) }),
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
  {
    name: 'pi',
    // the corpus's pi session (1.3 KB) is too short to cut turns from: the fixture and generated turns
    file: '2026-01-10T09-00-00-000Z_019a0001-aaaa-7bbb-8ccc-000000000001.jsonl',
    transcript: generatedTurns('fixtures/pi/2026-01-10T09-00-00-000Z_019a0001-aaaa-7bbb-8ccc-000000000001.jsonl', piTurn),
    // what ctx's extension writes after each prompt
    input: (file, cwd) => ({ stdin: JSON.stringify({ event: 'agent_end', session_file: file, session_id: '019a0001-aaaa-7bbb-8ccc-000000000001', cwd }) }),
    branch: 'pi/019a0001-aaaa-7bbb-8ccc-000000000001',
  },
  {
    name: 'copilot',
    file: 'events.jsonl',
    transcript: generatedTurns('fixtures/copilot/events.jsonl', copilotTurn),
    input: (file, cwd) => ({ stdin: JSON.stringify({ sessionId: COPILOT_SESSION, timestamp: 1795795000000, cwd, transcriptPath: file, stopReason: 'end_turn', stop_hook_active: false }) }),
    branch: `copilot/${COPILOT_SESSION}`,
  },
  {
    name: 'opencode',
    file: 'session.json',
    transcript: opencodeTurns,
    rewrite: true,
    // ctx's plugin: the event, the session id, and the whole session document as opencode's client gives it
    input: (file, cwd) => ({ stdin: () => `{"hook_event_name":"session.idle","session_id":"${OPENCODE_SESSION}","cwd":${JSON.stringify(cwd)},"session":${readFileSync(file, 'utf8')}}` }),
    branch: `opencode/${OPENCODE_SESSION}`,
  },
];
