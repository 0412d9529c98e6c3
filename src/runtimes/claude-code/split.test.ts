import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BadInputError } from '../../errors/index.js';
import { splitTranscript, splitTranscriptFile, type TranscriptSegment } from './split.js';

// the corpus is ../shared beside the clone, as on CI: without it the corpus suite is skipped, saying why; with CI set it fails
const CORPUS = fileURLToPath(new URL('../../../../shared/corpus/claude-code', import.meta.url));
const HAS_CORPUS = existsSync(CORPUS);
const SKIP_CORPUS = !HAS_CORPUS && !process.env.CI;
const FIXTURE = fileURLToPath(new URL('../../../fixtures/claude-code/compacted-session.jsonl', import.meta.url));
const RANDLEE = 'randlee__claude-history__simple-967e501d-session.jsonl';

const bytes = (text: string) => new TextEncoder().encode(text);
const text = (input: Uint8Array, s: TranscriptSegment) => new TextDecoder().decode(input.subarray(s.start, s.end));

/** Segments must tile the input: contiguous, non-empty, whole lines, concatenating back to the input. */
function expectTiling(input: Uint8Array, segments: TranscriptSegment[]) {
  let at = 0;
  for (const s of segments) {
    expect(s.start).toBe(at);
    expect(s.end).toBeGreaterThan(s.start);
    if (s.end < input.length) expect(input[s.end - 1]).toBe(0x0a);
    at = s.end;
  }
  expect(at).toBe(input.length);
  const joined = Buffer.concat(segments.map((s) => input.subarray(s.start, s.end)));
  expect(joined.equals(input)).toBe(true);
}

// [segments, compactions]. Checked with an independent Python count of typed prompts (user lines not
// isSidechain/isMeta/isCompactSummary, with text, not a command echo, interruption or task notice):
// randlee has 12 such prompts + 1 compaction + the prompt-less continuation after it = 14.
// Subagent files are all isSidechain, so one segment each.
const EXPECTED: Record<string, [number, number]> = {
  'Crazytieguy__alignment-hive__6f2580aa-3095-45b7-8d4e-dd8cac7eeffe.jsonl': [8, 0],
  'd-kimuson__claude-code-viewer__5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl': [1, 0],
  'd-kimuson__claude-code-viewer__fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl': [2, 0],
  'iansherr__claude-code-log__-Users-dain-workspace-claude-code-log-sample__0d3a8e6f-290f-4105-a327-a2496e5e2a83.jsonl': [7, 0],
  'iansherr__claude-code-log__-Users-dain-workspace-claude-code-log-sample__37f83ec9-f2ea-42a9-925e-0d5c105cb6e8.jsonl': [6, 0],
  'iansherr__claude-code-log__-Users-dain-workspace-claude-code-log-sample__4e27c414-a885-46a0-b5c8-d58e1417377d.jsonl': [1, 0],
  'iansherr__claude-code-log__-Users-dain-workspace-claude-code-log-sample__62b71fe7-2de1-4d37-83e3-fddac2e2c43a.jsonl': [0, 0],
  'iansherr__claude-code-log__-Users-dain-workspace-claude-code-log-sample__fe869ecb-c176-478f-9734-7e4b8ef12cff.jsonl': [3, 0],
  'iansherr__claude-code-log__-Users-dain-workspace-coderabbit-review-helper__agent-668b5ac2.jsonl': [1, 0],
  'iansherr__claude-code-log__-Users-dain-workspace-coderabbit-review-helper__cb2e607c-c758-415a-8b45-c49e4631906a.jsonl': [5, 0],
  'iansherr__claude-code-log__-experiments-ideas__03eb5929-52b3-4b13-ada3-b93ae35806b8.jsonl': [8, 0],
  'iansherr__claude-code-log__-experiments-worktrees__ef958aa1-0e93-49f0-bb71-150f63befcd1.jsonl': [3, 0],
  'iansherr__claude-code-log__-experiments-worktrees__ef958aa1-0e93-49f0-bb71-150f63befcd1__subagents__agent-a4ca7529859c158c2.jsonl': [1, 0],
  'jnarowski__agentcmd__full-session-five.jsonl': [1, 0],
  'kvsankar__agent-history__real_sessions-claude-session-01.jsonl': [1, 0],
  [RANDLEE]: [14, 1],
  'randlee__claude-history__simple-967e501d-subagents-agent-aae161c.jsonl': [1, 0],
  'randlee__claude-history__simple-967e501d-subagents-agent-acompact-a94287.jsonl': [1, 0],
  'randlee__claude-history__simple-967e501d-subagents-agent-aprompt_suggestion-aafb27.jsonl': [1, 0],
};

describe.skipIf(SKIP_CORPUS)(`splitTranscript on the Claude Code corpus${SKIP_CORPUS ? ' (skipped: ../shared/corpus not found)' : ''}`, () => {
  const files = HAS_CORPUS ? readdirSync(CORPUS).filter((f) => f.endsWith('.jsonl')).sort() : [];

  it('is at ../shared/corpus', () => {
    expect(HAS_CORPUS, `${CORPUS} not found`).toBe(true);
  });

  const read = (file: string) => new Uint8Array(readFileSync(join(CORPUS, file)));

  it('has an expectation for every corpus file', () => {
    expect(files).toEqual(Object.keys(EXPECTED).sort());
  });

  it.each(files)('%s: segments tile the file, with the expected counts', (file) => {
    const input = read(file);
    const segments = splitTranscript(input);
    expectTiling(input, segments);
    const compactions = segments.filter((s) => s.kind === 'compaction').length;
    expect([segments.length, compactions]).toEqual(EXPECTED[file]);
  });

  it('finds the one compaction in the randlee session: boundary line, then the summary line', () => {
    const input = read(RANDLEE);
    const segments = splitTranscript(input);
    const compactions = segments.filter((s) => s.kind === 'compaction');
    expect(compactions).toHaveLength(1);
    const [compaction] = compactions;
    // Lines 465 (compact_boundary) and 466 (isCompactSummary): `head -n 464 | wc -c` and `head -n 466 | wc -c`.
    expect(compaction).toMatchObject({ start: 1320207, end: 1334353, lines: 2, messageCount: 1 });
    expect(compaction.timestamp).toBe('2026-02-02T05:51:31.604Z');
    expect(compaction.sessionId).toBe('967e501d-aa48-4eab-a21f-b17058bd78f0');
    const [boundary, summary] = text(input, compaction).split('\n').map((l) => (l ? JSON.parse(l) : undefined));
    expect(boundary).toMatchObject({ type: 'system', subtype: 'compact_boundary' });
    expect(summary).toMatchObject({ type: 'user', isCompactSummary: true });
    // The turn that was cut off continues without a prompt.
    const after = segments[segments.indexOf(compaction) + 1];
    expect(after).toMatchObject({ kind: 'delta', start: 1334353 });
    expect(after.prompt).toBeUndefined();
  });

  // its speed is measured by `npm run bench` beside native git, never timed here
  it('splits the 2.3 MB randlee session read whole and read a line at a time the same way', () => {
    const input = read(RANDLEE);
    expect(splitTranscriptFile(join(CORPUS, RANDLEE)).segments).toEqual(splitTranscript(input));
  });
});

describe('splitTranscript on fixtures/claude-code/compacted-session.jsonl', () => {
  it('gives two prompts, a compaction, the rest of the cut-off turn, and a third prompt', () => {
    const input = new Uint8Array(readFileSync(FIXTURE));
    const segments = splitTranscript(input);
    expectTiling(input, segments);
    expect(segments.map((s) => [s.kind, s.lines, s.messageCount, s.prompt])).toEqual([
      ['delta', 7, 4, 'The `todo list` command prints nothing when todos.txt starts with a blank line. Can you find out why?'],
      ['delta', 3, 3, 'Fix it.'],
      ['compaction', 2, 1, undefined],
      ['delta', 2, 1, undefined],
      ['delta', 3, 2, 'Thanks. Which files did you change?'],
    ]);
    expect(new Set(segments.map((s) => s.sessionId))).toEqual(new Set(['3f6c2a9e-8b1d-4e57-a0c4-5d2e9b7f1a83']));
    expect(segments[4].timestamp).toBe('2026-03-04T09:15:05.039Z');
  });
});

const PROMPT_1 = '{"type":"user","message":{"role":"user","content":"Fix the failing test\\nin src/a.ts"},"uuid":"u1","sessionId":"s1","timestamp":"2026-01-01T10:00:00.000Z"}\n';
const TOOL_USE = '{"type":"assistant","message":{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Read","input":{"file_path":"src/a.ts"}}]},"uuid":"a1","parentUuid":"u1","sessionId":"s1","timestamp":"2026-01-01T10:00:01.000Z"}\n';
const TOOL_RESULT = '{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"export const a = 1;"}]},"uuid":"u2","parentUuid":"a1","sessionId":"s1","timestamp":"2026-01-01T10:00:02.000Z"}\n';
const ANSWER = '{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"Fixed."}]},"uuid":"a2","parentUuid":"u2","sessionId":"s1","timestamp":"2026-01-01T10:00:03.000Z"}\n';
const PROMPT_2 = '{"type":"user","message":{"role":"user","content":[{"type":"text","text":"  Thanks!  "}]},"uuid":"u3","parentUuid":"a2","sessionId":"s1","timestamp":"2026-01-01T10:01:00.000Z"}\n';

describe('splitTranscript on inline transcripts', () => {
  it('returns [] for empty input', () => {
    expect(splitTranscript(new Uint8Array())).toEqual([]);
  });

  it('starts a segment at each prompt, not at tool results', () => {
    const input = bytes(PROMPT_1 + TOOL_USE + TOOL_RESULT + ANSWER + PROMPT_2);
    const segments = splitTranscript(input);
    expectTiling(input, segments);
    const firstEnd = bytes(PROMPT_1 + TOOL_USE + TOOL_RESULT + ANSWER).length;
    expect(segments).toEqual([
      { kind: 'delta', start: 0, end: firstEnd, lines: 4, messageCount: 4, prompt: 'Fix the failing test', timestamp: '2026-01-01T10:00:03.000Z', sessionId: 's1' },
      { kind: 'delta', start: firstEnd, end: input.length, lines: 1, messageCount: 1, prompt: 'Thanks!', timestamp: '2026-01-01T10:01:00.000Z', sessionId: 's1' },
    ]);
  });

  it('puts lines before the first prompt into the first segment', () => {
    const summary = '{"type":"summary","summary":"Earlier work","leafUuid":"x"}\n';
    const snapshot = '{"type":"file-history-snapshot","messageId":"u1","snapshot":{"messageId":"u1","trackedFileBackups":{},"timestamp":"2026-01-01T09:59:59.000Z"},"isSnapshotUpdate":false}\n';
    const segments = splitTranscript(bytes(summary + snapshot + PROMPT_1 + ANSWER + PROMPT_2));
    expect(segments.map((s) => [s.lines, s.prompt])).toEqual([[4, 'Fix the failing test'], [1, 'Thanks!']]);
  });

  it('does not split at sidechain user lines', () => {
    const sideUser = '{"type":"user","isSidechain":true,"message":{"role":"user","content":"Search the repo for TODOs"},"uuid":"s-u1","sessionId":"s1"}\n';
    const sideText = '{"type":"user","isSidechain":true,"message":{"role":"user","content":[{"type":"text","text":"More"}]},"uuid":"s-u2","sessionId":"s1"}\n';
    const segments = splitTranscript(bytes(PROMPT_1 + TOOL_USE + sideUser + sideText + TOOL_RESULT));
    expect(segments.map((s) => [s.lines, s.messageCount])).toEqual([[5, 5]]);
  });

  it('does not split at isMeta user lines', () => {
    const caveat = '{"type":"user","isMeta":true,"message":{"role":"user","content":"<local-command-caveat>Caveat: ...</local-command-caveat>"},"uuid":"m1","sessionId":"s1"}\n';
    const metaText = '{"type":"user","isMeta":true,"message":{"role":"user","content":[{"type":"text","text":"Caveat"}]},"uuid":"m2","sessionId":"s1"}\n';
    const segments = splitTranscript(bytes(PROMPT_1 + ANSWER + caveat + metaText));
    expect(segments).toHaveLength(1);
    expect(segments[0].lines).toBe(4);
  });

  it('keeps a final line without a newline in the last segment', () => {
    const input = bytes(PROMPT_1 + ANSWER + PROMPT_2.trimEnd());
    const segments = splitTranscript(input);
    expectTiling(input, segments);
    expect(segments[1]).toMatchObject({ end: input.length, lines: 1, prompt: 'Thanks!' });
  });

  it('keeps JSON lines that are not objects, counting them as lines only', () => {
    const input = bytes(PROMPT_1 + '42\n[1,2]\nnull\n');
    expect(splitTranscript(input)).toEqual([
      { kind: 'delta', start: 0, end: input.length, lines: 4, messageCount: 1, prompt: 'Fix the failing test', timestamp: '2026-01-01T10:00:00.000Z', sessionId: 's1' },
    ]);
  });

  it('throws BadInputError naming the line and byte of a broken line', () => {
    const input = bytes(PROMPT_1 + '{"type":"assistant",\n' + ANSWER);
    expect(() => splitTranscript(input)).toThrow(BadInputError);
    expect(() => splitTranscript(input)).toThrow(`line 2 is not JSON (byte ${bytes(PROMPT_1).length})`);
  });

  it('makes a compaction of the boundary, lines up to the summary, and the summary', () => {
    const boundary = '{"type":"system","subtype":"compact_boundary","content":"Conversation compacted","uuid":"b1","parentUuid":null,"logicalParentUuid":"a2","sessionId":"s1","timestamp":"2026-01-01T11:00:00.000Z","compactMetadata":{"trigger":"manual","preTokens":1000}}\n';
    const hook = '{"type":"progress","data":{"type":"hook_progress","hookEvent":"SessionStart"},"uuid":"p1","parentUuid":"b1","sessionId":"s1","timestamp":"2026-01-01T11:00:00.500Z"}\n';
    const summary = '{"type":"user","isCompactSummary":true,"isVisibleInTranscriptOnly":true,"message":{"role":"user","content":"This session is being continued..."},"uuid":"c1","parentUuid":"p1","sessionId":"s1","timestamp":"2026-01-01T11:00:01.000Z"}\n';
    const input = bytes(PROMPT_1 + ANSWER + boundary + hook + summary + ANSWER + PROMPT_2);
    const segments = splitTranscript(input);
    expectTiling(input, segments);
    expect(segments.map((s) => [s.kind, s.lines, s.prompt])).toEqual([
      ['delta', 2, 'Fix the failing test'],
      ['compaction', 3, undefined],
      ['delta', 1, undefined],
      ['delta', 1, 'Thanks!'],
    ]);
    expect(segments[1].timestamp).toBe('2026-01-01T11:00:01.000Z');
  });

  it('makes a boundary with no summary before the next prompt a compaction of one line', () => {
    const boundary = '{"type":"system","subtype":"compact_boundary","uuid":"b1","sessionId":"s1"}\n';
    const segments = splitTranscript(bytes(PROMPT_1 + boundary + PROMPT_2));
    expect(segments.map((s) => [s.kind, s.lines])).toEqual([['delta', 1], ['compaction', 1], ['delta', 1]]);
  });

  it('keeps a long prompt\'s first line whole, up to 500 chars', () => {
    const long = 'x'.repeat(80);
    const line = `{"type":"user","message":{"role":"user","content":[{"type":"image","source":{}},{"type":"text","text":"\\n\\n  ${long}\\nsecond line"}]}}\n`;
    expect(splitTranscript(bytes(line))[0].prompt).toBe(long);
    const longer = `{"type":"user","message":{"role":"user","content":"${'x'.repeat(600)}"}}\n`;
    expect(splitTranscript(bytes(longer))[0].prompt).toBe('x'.repeat(500));
  });
});
