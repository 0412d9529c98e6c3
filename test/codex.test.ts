// Codex CLI rollouts: every corpus file (and the two shapes in fixtures/codex) imports and comes back
// byte for byte on both engines; prompts split turns; `compacted` lines become compaction commits.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { splitRollout } from '../src/runtimes/codex/split.js';
import { codexRollout } from '../src/formats/codex-rollout.js';
import type { NeutralMessage } from '../src/core/neutral.js';
import { ENGINES, FIXTURES, corpusFiles, ctx, describeCorpus, fsck, git, itCorpus, newStore, objectCount, refSnapshot, tempDir } from './helpers.js';

const ENV = { CTX_PRINCIPAL: 'corpus', CTX_MACHINE: 'ci', CTX_NOW: '2026-01-02T03:04:05.678Z' };
const LEGACY = join(FIXTURES, 'codex', 'legacy-rollout-2025-08-20T13-20-47-c27a914d-5f3b-4c1e-9a2d-7e8f6b5a4c3d.jsonl');
const COMPACTED = join(FIXTURES, 'codex', 'rollout-2025-11-20T09-00-00-0a1b2c3d-4e5f-7a8b-9c0d-1e2f3a4b5c6d.jsonl');
// written by codex 0.169 (`codex exec`, then `codex exec resume`), long instructions shortened and paths renamed
const RESUMED = join(FIXTURES, 'codex', 'rollout-2026-11-22T21-04-49-01a20513-6ef2-75e0-a186-7b61e34882c3.jsonl');

// [commits, compactions, session]. The corpus counts are the typed prompts (user messages that are
// not <environment_context>/instructions injections): 1, 13 (SOURCES.md: "13 user turns"), 1, 1.
const EXPECTED: Record<string, [number, number, string]> = {
  'AcidicSoil__codex-session-view__rollout-2025-11-17T15-30-28-019a93b9-f380-7600-98ff-940e6b99603c.jsonl': [1, 0, '019a93b9-f380-7600-98ff-940e6b99603c'],
  'jnarowski__agentcmd__rollout-2025-09-24T19-22-20-01997e76-d124-7592-9cac-2ec05abbca08.jsonl': [13, 0, '01997e76-d124-7592-9cac-2ec05abbca08'],
  'jnarowski__agentcmd__rollout-2025-09-25T15-12-14-019982b8-3422-79e0-8b3b-05abaf4f3c3e.jsonl': [1, 0, '019982b8-3422-79e0-8b3b-05abaf4f3c3e'],
  'kvsankar__agent-history__real_sessions-codex-session-01.jsonl': [1, 0, '019e9625-802f-7e91-840a-cfe88d14117a'],
  [basename(LEGACY)]: [2, 0, 'c27a914d-5f3b-4c1e-9a2d-7e8f6b5a4c3d'],
  [basename(COMPACTED)]: [5, 1, '0a1b2c3d-4e5f-7a8b-9c0d-1e2f3a4b5c6d'],
  [basename(RESUMED)]: [2, 0, '01a20513-6ef2-75e0-a186-7b61e34882c3'],
};
const files = [...corpusFiles('codex'), LEGACY, COMPACTED, RESUMED];

describe.each(ENGINES)('codex import with the %s engine', (engine) => {
  const env = { ...ENV, CTX_ENGINE: engine };

  itCorpus('imports every rollout and materializes --stop root byte-identical', () => {
    expect(files.map((f) => basename(f)).sort()).toEqual(Object.keys(EXPECTED).sort());
    const store = newStore();
    for (const file of files) {
      const [commits, compactions, session] = EXPECTED[basename(file)];
      const imported = ctx(store, ['import', 'codex', file], { env });
      expect([imported.code, imported.stderr]).toEqual([0, '']);
      expect(imported.stdout).toMatch(new RegExp(`^codex/${session}\tctx-[0-9a-f]{12}\t${commits} commits\n$`));
      const root = ctx(store, ['materialize', `codex/${session}`, '--stop', 'root', '--verify'], { env });
      expect(root.code).toBe(0);
      expect(root.bytes.equals(readFileSync(file))).toBe(true);
      const log = ctx(store, ['log', `codex/${session}`, '--json'], { env }).stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
      expect(log).toHaveLength(commits);
      expect(log.filter((r) => r.type === 'compaction')).toHaveLength(compactions);
      expect(new Set(log.map((r) => r.format))).toEqual(new Set([file === LEGACY ? 'codex-rollout-v0' : 'codex-rollout-v1']));
      // again: nothing new, nothing written
      const again = ctx(store, ['import', 'codex', file], { env });
      expect([again.code, again.stdout]).toEqual([0, `codex/${session}\t${log[0].id.slice(0, 16)}\t0 commits\n`]);
    }
    expect(fsck(store)).toEqual({ code: 0, output: '' });
    expect(ctx(store, ['verify', '--all'], { env }).stdout).toMatch(/^ok \d+ commits\n$/);
  });

  it('starts the default materialization at the compacted line', () => {
    const store = newStore();
    expect(ctx(store, ['import', 'codex', COMPACTED, '-b', 'c'], { env }).code).toBe(0);
    const source = readFileSync(COMPACTED);
    const lines = source.toString('utf8').split('\n');
    expect(JSON.parse(lines[14]).type).toBe('compacted');
    const start = Buffer.byteLength(lines.slice(0, 14).join('\n')) + 1;
    const tip = ctx(store, ['materialize', 'c'], { env });
    expect(tip.bytes.equals(source.subarray(start))).toBe(true);
  });
});

describe('importing onto a branch that holds a rollout', () => {
  it('refuses a file that does not extend it: one line, exit 1, nothing written', () => {
    const store = newStore();
    expect(ctx(store, ['import', 'codex', COMPACTED, '-b', 'x'], { env: ENV }).code).toBe(0);
    const before = [refSnapshot(store), objectCount(store)];
    const r = ctx(store, ['import', 'codex', RESUMED, '-b', 'x'], { env: ENV });
    expect([r.code, r.stdout, r.stderr]).toEqual([1, '', `ctx: ${RESUMED} is not an extension of x: the transcript changed\n`]);
    expect([refSnapshot(store), objectCount(store)]).toEqual(before);
  });
});

describe('splitRollout', () => {
  it('splits the newer shape at prompts, keeping turn openers with their prompt', () => {
    const { sessionId, segments } = splitRollout(new Uint8Array(readFileSync(COMPACTED)));
    expect(sessionId).toBe('0a1b2c3d-4e5f-7a8b-9c0d-1e2f3a4b5c6d');
    expect(segments.map((s) => [s.kind, s.lines, s.messageCount, s.prompt])).toEqual([
      ['delta', 9, 3, 'Add a --done flag to todo list.'],
      ['delta', 5, 1, 'Now write tests for it.'],
      ['compaction', 2, 0, 'compacted: The user asked for a --done flag on `todo list`; it was added in src/cli.py. Tests for it were being written; pytest passes (3 tests).'],
      ['delta', 1, 1, undefined],
      ['delta', 3, 2, 'Thanks. Which files changed?'],
    ]);
    expect(segments[2].timestamp).toBe('2025-11-20T09:05:30.001Z');
  });

  it('splits the older shape (bare items after a header line) at prompts', () => {
    const { sessionId, segments } = splitRollout(new Uint8Array(readFileSync(LEGACY)));
    expect(sessionId).toBe('c27a914d-5f3b-4c1e-9a2d-7e8f6b5a4c3d');
    expect(segments.map((s) => [s.kind, s.lines, s.messageCount, s.prompt, s.timestamp])).toEqual([
      ['delta', 12, 3, 'The todo list command prints nothing when todos.txt starts with a blank line.', '2025-08-20T13:20:47.060Z'],
      ['delta', 6, 2, 'Fix it.', undefined],
    ]);
  });

  it("files a resumed thread's settings with the turn they open: a turn's segment does not depend on what follows it", () => {
    const bytes = new Uint8Array(readFileSync(RESUMED));
    const lines = Buffer.from(bytes).toString('utf8').split('\n');
    expect(JSON.parse(lines[19]).payload.type).toBe('thread_settings_applied');
    const turn1 = Buffer.byteLength(lines.slice(0, 19).join('\n')) + 1;
    const whole = splitRollout(bytes).segments;
    expect(whole.map((s) => [s.start, s.end, s.lines, s.messageCount, s.prompt])).toEqual([
      [0, turn1, 19, 4, 'say hi'],
      [turn1, bytes.length, 15, 2, 'second prompt'],
    ]);
    expect(splitRollout(bytes.subarray(0, turn1)).segments.map((s) => [s.start, s.end])).toEqual([[0, turn1]]);
  });

  itCorpus('takes the request of an IDE-extension prompt as its summary, and tiles every corpus file', () => {
    for (const file of corpusFiles('codex')) {
      const input = new Uint8Array(readFileSync(file));
      const { segments } = splitRollout(input);
      let at = 0;
      for (const s of segments) {
        expect(s.start).toBe(at);
        at = s.end;
      }
      expect(at).toBe(input.length);
    }
    const ide = corpusFiles('codex').find((f) => basename(f).includes('2025-09-24'))!;
    const prompts = splitRollout(new Uint8Array(readFileSync(ide))).segments.map((s) => s.prompt);
    expect(prompts.every((p) => p && !p.startsWith('# Context from my IDE setup'))).toBe(true);
  });
});

describeCorpus('the two engines', () => {
  it('write identical commit ids for every rollout', () => {
    const tips = ENGINES.map((engine) => {
      const store = newStore();
      return files.map((file, i) => {
        expect(ctx(store, ['import', 'codex', file, '-b', `c/${i}`], { env: { ...ENV, CTX_ENGINE: engine } }).code).toBe(0);
        return git(store, ['rev-parse', `c/${i}`]).trim();
      });
    });
    expect(tips[1]).toEqual(tips[0]);
  });
});

describe('codex-rollout-v1 as neutral messages', () => {
  const read = (bytes: Uint8Array) => codexRollout.toNeutral!(codexRollout.parse(bytes));
  const texts = (ms: NeutralMessage[], role: string) => ms.filter((m) => m.role === role).map((m) => m.content.map((b) => (b.type === 'text' ? b.text : b.type)).join('|'));

  it('reads the thread system prompt (session_meta.base_instructions) as the first message', () => {
    const messages = read(readFileSync(RESUMED));
    expect(messages[0]).toEqual({ role: 'system', content: [{ type: 'text', text: 'You are Codex, a coding agent running in the Codex CLI. Be precise, safe and helpful.' }], timestamp: '2026-11-22T21:04:49.423Z', origin: { runtime: 'codex', kind: 'preamble' } });
    expect(texts(messages, 'user').filter((t) => !t.startsWith('<'))).toEqual(['say hi', 'second prompt']);
    expect(messages.map((m) => m.role)).toEqual(['system', 'system', 'user', 'user', 'assistant', 'tool', 'assistant', 'user', 'assistant', 'tool', 'assistant']);
    // the system prompt, the skills and the environment are Codex's own (docs/format.md 8.3); the rest is the conversation
    expect(messages.map((m) => m.origin?.kind ?? null)).toEqual(['preamble', 'preamble', 'preamble', ...Array(8).fill(null)]);
  });

  it('reads a prompt recorded only as a user_message event, and a prompt recorded both ways once', () => {
    const lines = readFileSync(COMPACTED, 'utf8').split('\n').filter(Boolean);
    const prompts = ['Add a --done flag to todo list.', 'Now write tests for it.'];
    expect(texts(read(readFileSync(COMPACTED)), 'user').filter((t) => !t.startsWith('<'))).toEqual([...prompts, 'Thanks. Which files changed?']);
    // without the response items of the two prompts, their events say them
    const eventsOnly = lines.filter((l) => !(JSON.parse(l).payload?.role === 'user' && prompts.includes(JSON.parse(l).payload.content[0].text)));
    expect(eventsOnly).toHaveLength(lines.length - 2);
    expect(texts(read(Buffer.from(eventsOnly.join('\n') + '\n')), 'user').filter((t) => !t.startsWith('<'))).toEqual([...prompts, 'Thanks. Which files changed?']);
    // an event after its item, or before it: one message
    const swapped = [...lines];
    [swapped[2], swapped[3]] = [swapped[3], swapped[2]];
    expect(texts(read(Buffer.from(swapped.join('\n') + '\n')), 'user').filter((t) => !t.startsWith('<'))).toEqual([...prompts, 'Thanks. Which files changed?']);
  });

  it('writes neutral messages as a rollout it reads back: system prompt, prompts, calls and their outputs', () => {
    const messages: NeutralMessage[] = [
      { role: 'system', content: [{ type: 'text', text: 'Be brief.' }] },
      { role: 'user', content: [{ type: 'text', text: 'list files' }], timestamp: '2026-01-01T00:00:00.000Z' },
      { role: 'assistant', content: [{ type: 'thinking', text: 'ls it' }, { type: 'text', text: 'Listing.' }, { type: 'tool_call', id: 'c1', name: 'shell', input: { cmd: 'ls' } }] },
      { role: 'tool', content: [{ type: 'tool_result', call_id: 'c1', content: 'a.txt' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'One file: a.txt.' }] },
    ];
    const bytes = codexRollout.fromNeutral!(messages);
    const T = '2026-01-01T00:00:00.000Z';
    expect(Buffer.from(bytes).toString('utf8')).toBe(
      [
        { timestamp: T, type: 'session_meta', payload: { id: '', timestamp: T, cwd: '', originator: 'ctx', cli_version: '', source: 'exec', model_provider: '', base_instructions: { text: 'Be brief.' } } },
        { timestamp: T, type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'list files' }] } },
        { timestamp: T, type: 'event_msg', payload: { type: 'user_message', message: 'list files', images: [] } },
        { timestamp: T, type: 'response_item', payload: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Listing.' }] } },
        { timestamp: T, type: 'response_item', payload: { type: 'function_call', name: 'shell', arguments: '{"cmd":"ls"}', call_id: 'c1' } },
        { timestamp: T, type: 'response_item', payload: { type: 'function_call_output', call_id: 'c1', output: 'a.txt' } },
        { timestamp: T, type: 'response_item', payload: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'One file: a.txt.' }] } },
      ].map((l) => `${JSON.stringify(l)}\n`).join(''),
    );
    const back = read(bytes).map(({ timestamp: _t, ...m }) => m);
    // base_instructions are the thread's system prompt: Codex's own preamble once written there
    expect(back).toEqual([{ ...messages[0], origin: { runtime: 'codex', kind: 'preamble' } }, { role: 'user', content: [{ type: 'text', text: 'list files' }] }, { role: 'assistant', content: [{ type: 'text', text: 'Listing.' }, messages[2].content[2]] }, messages[3], messages[4]]);
  });
});

describe('codex re-import beside a hook', () => {
  it('while a hook captures the session: exit 3, nothing written; once it is done, what is new is imported', () => {
    const store = newStore();
    const bytes = readFileSync(RESUMED);
    const { segments } = splitRollout(bytes);
    const file = join(tempDir(), basename(RESUMED));
    writeFileSync(file, bytes.subarray(0, segments[1].start));
    expect(ctx(store, ['import', 'codex', file], { env: ENV })).toMatchObject({ code: 0, stderr: '' });
    writeFileSync(file, bytes);
    const session = '01a20513-6ef2-75e0-a186-7b61e34882c3';
    // the lock a hook holds while it captures the session (held by a live process: this one)
    const lock = join(store, 'ctx', 'hooks', `${session}.lock`);
    mkdirSync(join(store, 'ctx', 'hooks'), { recursive: true });
    writeFileSync(lock, `ctx-lock pid=${process.pid} boot=- start=-\n`);
    const before = [refSnapshot(store), objectCount(store)];
    const held = ctx(store, ['import', 'codex', file], { env: ENV });
    expect([held.code, held.stdout, held.stderr.split('\n')[0]]).toEqual([3, '', `ctx: a ctx hook is capturing session ${session}; import again when it is done`]);
    expect([refSnapshot(store), objectCount(store)]).toEqual(before);
    rmSync(lock);
    const again = ctx(store, ['import', 'codex', file], { env: ENV });
    expect([again.code, again.stderr]).toEqual([0, '']);
    expect(again.stdout).toMatch(new RegExp(`^codex/${session}\tctx-[0-9a-f]{12}\t1 commits\n$`));
  });
});
