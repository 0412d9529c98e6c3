// Compaction: the pure pipeline's invariants (synthetic and corpus sessions), and `ctx compact` on real repos.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compactMessages, extractiveSummary, lastTurnsStart, protectedIndexes, SUMMARY_HEADER } from '../src/core/compaction.js';
import { claudeCode } from '../src/formats/claude-code.js';
import { CLAUDE_CONTINUATION } from '../src/formats/claude-code-compaction.js';
import type { Block, NeutralMessage } from '../src/core/neutral.js';
import { CORPUS, FIXED_ENV, ctx, describeCorpus, itCorpus, newStore, refSnapshot, tempDir } from './helpers.js';

const BIG = join(CORPUS, 'claude-code', 'randlee__claude-history__simple-967e501d-session.jsonl');
const VIEWER = join(CORPUS, 'claude-code', 'd-kimuson__claude-code-viewer__fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl');
// the pinned commit's messages, kept instead of summarized (its artifact's 11 neutral messages: 17 lines, assistant lines of one message merged)
const PINNED_MESSAGES = 11;
const ALL = ['dedupe', 'prune-tool-outputs', 'summarize', 'truncate'] as const;

const text = (role: NeutralMessage['role'], t: string): NeutralMessage => ({ role, content: [{ type: 'text', text: t }] });
const call = (id: string, name: string, input: unknown, t?: string): NeutralMessage => ({
  role: 'assistant',
  content: [...(t ? [{ type: 'text' as const, text: t }] : []), { type: 'tool_call', id, name, input }],
});
const result = (id: string, content: string, is_error?: boolean): NeutralMessage => ({ role: 'tool', content: [{ type: 'tool_result', call_id: id, content, ...(is_error ? { is_error } : {}) }] });

/** 19 messages, 4 turns: a repeated read, a large output, a failed call, a pinned message, an unanswered call at the end. */
const SESSION: NeutralMessage[] = [
  text('system', 'You are a careful engineer.'), // 0
  text('user', 'Task: fix the parser bug'), // 1 first task
  call('c1', 'Read', { file_path: '/src/a.ts' }, 'Reading the parser'), // 2
  result('c1', 'AAAA'), // 3
  call('c2', 'Read', { file_path: '/src/a.ts' }), // 4 same read
  result('c2', 'AAAA'), // 5 same result: deduped
  call('c3', 'Bash', { command: 'cat big.log' }), // 6
  result('c3', 'x'.repeat(10000)), // 7 large: pruned
  call('c4', 'Bash', { command: 'npm test' }), // 8 failed: kept
  result('c4', 'tests failed', true), // 9
  text('assistant', 'Decided to rewrite the tokenizer'), // 10
  text('user', 'second prompt'), // 11
  text('assistant', 'a pinned note'), // 12 pinned
  text('user', 'third prompt'), // 13
  call('c5', 'Edit', { file_path: '/src/b.ts', old: 'a', new: 'b' }), // 14
  result('c5', 'ok'), // 15
  text('assistant', 'done'), // 16
  text('user', 'last prompt'), // 17 last turn
  call('c6', 'Read', { path: '/src/c.ts' }), // 18 no result
];

const blocks = (ms: readonly NeutralMessage[]) => ms.flatMap((m) => m.content);

/** No tool result without its call, no call without its result; returns the number of pairs. */
function pairs(ms: readonly NeutralMessage[]): number {
  const calls = blocks(ms).filter((b): b is Extract<Block, { type: 'tool_call' }> => b.type === 'tool_call').map((b) => b.id);
  const results = blocks(ms).filter((b): b is Extract<Block, { type: 'tool_result' }> => b.type === 'tool_result').map((b) => b.call_id);
  expect(new Set(results)).toEqual(new Set(calls));
  expect(results.length).toBe(calls.length);
  return calls.length;
}

/** `want` appear in `got`, in order, unchanged. */
function subsequence(got: readonly NeutralMessage[], want: readonly NeutralMessage[]) {
  let at = 0;
  for (const w of want) {
    while (at < got.length && JSON.stringify(got[at]) !== JSON.stringify(w)) at++;
    expect(at, `missing: ${JSON.stringify(w).slice(0, 120)}`).toBeLessThan(got.length);
    at++;
  }
}

function corpusMessages(file: string): NeutralMessage[] {
  return claudeCode.toNeutral!(claudeCode.parse(readFileSync(file), { lastOfFile: true }));
}

describe('compaction pipeline (pure)', () => {
  it('protects the system prompt, the first task, the last turn, pinned messages, failed and unanswered calls', () => {
    expect(lastTurnsStart(SESSION, 1)).toBe(17);
    expect([...protectedIndexes(SESSION, 1, new Set([12]))].sort((a, b) => a - b)).toEqual([0, 1, 8, 9, 12, 17, 18]);
  });

  it('every stage: dedupe 1, prune 1, summarize 12 into one message, normalize answers the open call', async () => {
    const seen: NeutralMessage[][] = [];
    const out = await compactMessages(SESSION, { stages: [...ALL], keepTurns: 1, pinned: new Set([12]), summarizer: async (m) => (seen.push(m), extractiveSummary(m, SESSION)) });
    expect(out.report.map((r) => [r.stage, r.changed, r.messages, r.skipped ?? false])).toEqual([
      ['dedupe', 1, 19, false],
      ['prune-tool-outputs', 1, 19, false],
      ['summarize', 12, 8, false],
      ['truncate', 0, 8, true], // no budget: nothing to truncate to
      ['normalize', 1, 9, false],
    ]);
    expect(seen[0].length).toBe(12);
    // the deduped and pruned results went to the summarizer as placeholders
    expect(JSON.stringify(seen[0][3])).toContain('same result as tool call c1');
    expect(JSON.stringify(seen[0][5])).toContain('8400 characters pruned');
    const m = out.messages;
    expect(m.map((x) => x.role)).toEqual(['system', 'user', 'user', 'assistant', 'tool', 'assistant', 'user', 'assistant', 'tool']);
    subsequence(m, [SESSION[0], SESSION[1], SESSION[8], SESSION[9], SESSION[12], SESSION[17], SESSION[18]]);
    expect(pairs(m)).toBe(2); // c4 with its failure, c6 with the placeholder normalize added
    expect(m[8].content[0]).toMatchObject({ type: 'tool_result', call_id: 'c6', is_error: true });
    const summary = (m[2].content[0] as { text: string }).text;
    expect(summary).toBe(
      `${SUMMARY_HEADER} (12 messages):\n\n` +
        'Task: Task: fix the parser bug\n\n' +
        'Decisions:\n- Decided to rewrite the tokenizer\n- done\n\n' +
        'Files touched:\n- /src/a.ts\n- /src/b.ts\n\n' +
        'Open items:\n- Bash c4: failed: tests failed\n- Read c6: no result',
    );
  });

  it('an external summary replaces exactly the unprotected messages; keep-turns 2 keeps the third prompt too', async () => {
    const out = await compactMessages(SESSION, { stages: ['summarize'], keepTurns: 2, summarizer: async () => 'SUMMARY' });
    // kept: 0, 1, 8, 9, 13..18 and the summary; normalize adds c6's result
    expect(out.messages.length).toBe(1 + 2 + 2 + 6 + 1);
    subsequence(out.messages, SESSION.slice(13));
    expect(out.report[0].changed).toBe(9);
  });

  it('truncate drops the oldest unprotected groups, whole, until under budget; protected messages stay even over it', async () => {
    const some = await compactMessages(SESSION, { stages: ['truncate'], keepTurns: 1, budget: 500 });
    expect(some.report[0].changed).toBe(6); // c1, c2 and c3 with their results
    expect(some.report[0].tokens).toBeLessThanOrEqual(500);
    expect(pairs(some.messages)).toBe(3);
    const all = await compactMessages(SESSION, { stages: ['truncate'], keepTurns: 1, budget: 0, pinned: new Set([12]) });
    expect(all.messages.length).toBe(7 + 1);
    subsequence(all.messages, [SESSION[0], SESSION[1], SESSION[8], SESSION[9], SESSION[12], SESSION[17], SESSION[18]]);
  });

  it('stages after the context fits the budget are skipped', async () => {
    const out = await compactMessages(SESSION, { stages: [...ALL], keepTurns: 1, budget: 100000 });
    expect(out.report.slice(0, 4).every((r) => r.skipped)).toBe(true);
    expect(out.messages.length).toBe(20);
  });

  itCorpus('corpus sessions: exact counts, and every invariant', async () => {
    const cases = [
      { file: VIEWER, n: 345, protectedCount: 188, counts: [345, 345, 192, 192, 192], changed: [2, 2, 154, 0, 0], pairs: 167 - 0 },
      { file: BIG, n: 209, protectedCount: 7, counts: [209, 209, 10, 10, 11], changed: [0, 19, 200, 0, 1], pairs: 0 },
    ];
    for (const c of cases) {
      const input = corpusMessages(c.file);
      expect(input.length).toBe(c.n);
      const pinned = new Set([40, 41]);
      const keep = protectedIndexes(input, 3);
      expect(keep.size).toBe(c.protectedCount);
      const out = await compactMessages(input, { stages: [...ALL], keepTurns: 3, budget: 20000, pinned });
      expect(out.report.map((r) => r.messages)).toEqual(c.counts);
      expect(out.report.map((r) => r.changed)).toEqual(c.changed);
      const protectedMsgs = [...protectedIndexes(input, 3, pinned)].sort((a, b) => a - b).map((i) => input[i]);
      subsequence(out.messages, protectedMsgs);
      expect(out.messages.filter((m) => m.role === 'system').length).toBe(input.filter((m) => m.role === 'system').length);
      pairs(out.messages);
    }
  });
});

function imported(file: string, branch: string): string {
  const s = newStore();
  expect(ctx(s, ['import', 'claude-code', file, '-b', branch], { env: FIXED_ENV }).code).toBe(0);
  return s;
}
const lines = (b: Buffer) => b.toString('utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
const texts = (b: Buffer) => b.toString('utf8').split('\n').filter(Boolean);

/**
 * How each line after the head stands to the transcript's own lines: the same bytes, the same but
 * for its parentUuid, or the same but for tool results' content; also, in order, and the parent links whole.
 */
function keptLines(artifact: Buffer, transcript: string, head: number) {
  const original = readFileSync(transcript, 'utf8').split('\n').filter(Boolean);
  const at = new Map(original.map((l, i) => [JSON.parse(l).uuid as string, i]));
  const got = texts(artifact);
  const all = lines(artifact);
  const uuids = new Set(all.map((l) => l.uuid));
  expect(all.filter((l) => l.parentUuid !== null && !uuids.has(l.parentUuid))).toEqual([]);
  const kinds = { verbatim: 0, relinked: 0, results: 0, other: 0 };
  const order: number[] = [];
  got.slice(head).forEach((text, k) => {
    const line = all[head + k];
    const i = at.get(line.uuid);
    if (i === undefined) return kinds.other++;
    order.push(i);
    const orig = JSON.parse(original[i]);
    if (text === original[i]) kinds.verbatim++;
    else if (text === JSON.stringify({ ...orig, parentUuid: line.parentUuid })) kinds.relinked++;
    else if (JSON.stringify({ ...orig, message: { ...orig.message, content: line.message.content } }) === text) kinds.results++;
    else kinds.other++;
  });
  expect(order).toEqual([...order].sort((a, b) => a - b));
  return { kinds, first: got[head] === undefined ? undefined : all[head], original: (l: { uuid: string }) => JSON.parse(original[at.get(l.uuid)!]) };
}

describeCorpus('ctx compact', () => {
  it('claude-code-v1: Claude Code’s own shape, a boundary, the summary alone, then the kept messages as their transcript lines; --stop root is the original', () => {
    const s = imported(VIEWER, 'v');
    const r = ctx(s, ['--json', 'compact', 'v', '--policy', 'dedupe,prune-tool-outputs,summarize,truncate', '--budget', '20000', '--keep-turns', '3'], { env: FIXED_ENV });
    expect(r.code, r.stderr).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j).toMatchObject({ format: 'claude-code-v1', messages_before: 345, messages_after: 190, caught_up: [] });
    expect(j.compacted.length).toBe(2);
    const show = JSON.parse(ctx(s, ['--json', 'show', 'v']).stdout);
    // the summary line and the 240 lines of the 189 kept messages (Claude Code writes a line per block)
    expect(show.meta).toMatchObject({ type: 'compaction', checkpoint: 'compaction', format: 'claude-code-v1', message_count: 241 });
    expect(show.meta.source).toMatchObject({ kind: 'ctx-compact', of: j.parent, policy: 'dedupe,prune-tool-outputs,summarize,truncate', messages_before: 345 });
    const bytes = ctx(s, ['materialize', 'v']).bytes;
    const out = lines(bytes);
    expect(out.length).toBe(242);
    expect(out[0]).toMatchObject({ type: 'system', subtype: 'compact_boundary', parentUuid: null, isSidechain: false, sessionId: 'fe5e1c67-53e7-4862-81ae-d0e013e3270b' });
    expect(out[1]).toMatchObject({ type: 'user', isCompactSummary: true, parentUuid: out[0].uuid });
    // the summary says only what was summarized: none of the kept turns' text
    const summary = out[1].message.content as string;
    expect(summary.startsWith(`${CLAUDE_CONTINUATION}\n\n${SUMMARY_HEADER} (156 messages):\n\nTask: <command-message>orchestrator is running…`)).toBe(true);
    expect(summary).not.toContain('# Context');
    // 232 lines byte for byte, 8 whose parent was summarized hang from the kept line before them
    const kept = keptLines(bytes, VIEWER, 2);
    expect(kept.kinds).toEqual({ verbatim: 232, relinked: 8, results: 0, other: 0 });
    // the first task, first after the summary, hangs from it
    expect(kept.first).toMatchObject({ type: 'user', parentUuid: out[1].uuid });
    expect(kept.original(kept.first!).parentUuid).toBe(null);
    // read back, the kept messages are the transcript's own, and every call has its result
    const back = claudeCode.toNeutral!(claudeCode.parse(bytes));
    expect(back.length).toBe(190);
    const input = new Map(corpusMessages(VIEWER).map((m) => [m.ids?.uuid, m]));
    expect(back.slice(1).filter((m) => JSON.stringify(m) !== JSON.stringify(input.get(m.ids?.uuid))).length).toBe(0);
    expect(pairs(back)).toBe(91);
    expect(ctx(s, ['materialize', 'v', '--stop', 'root']).bytes.equals(readFileSync(VIEWER))).toBe(true);
    expect(ctx(s, ['verify', 'v']).code).toBe(0);
    expect(ctx(s, ['log', 'v']).stdout.split('\n').filter(Boolean).length).toBe(3);
  });

  it('a chain compacted twice: the root walk still skips both synthetic compactions; a real compaction is kept in place', () => {
    const s = imported(BIG, 'big');
    expect(ctx(s, ['compact', 'big', '--policy', 'summarize'], { env: FIXED_ENV }).code).toBe(0);
    expect(ctx(s, ['compact', 'big', '--policy', 'dedupe,summarize', '--keep-turns', '1'], { env: FIXED_ENV }).code).toBe(0);
    expect(ctx(s, ['materialize', 'big', '--stop', 'root']).bytes.equals(readFileSync(BIG))).toBe(true);
    // the second compaction keeps the first one's summary (its first task) as it was, after its own summary
    const out = lines(ctx(s, ['materialize', 'big']).bytes);
    expect(out.map((l) => [l.subtype ?? l.type, l.isCompactSummary === true])).toEqual([['compact_boundary', false], ['user', true], ['user', true], ['user', false]]);
    expect(out.slice(1).map((l) => l.parentUuid)).toEqual(out.slice(0, 3).map((l) => l.uuid));
    expect(out[3].message.content).toBe('<local-command-stdout>Bye!</local-command-stdout>');
    expect(ctx(s, ['log', 'big']).stdout.split('\n').filter(Boolean).length).toBe(16);
  });

  it('claude-code-v1, prune only: no summary line; pruned results are rewritten in their own lines, nothing else', () => {
    const s = imported(BIG, 'big');
    const r = ctx(s, ['--json', 'compact', 'big', '--policy', 'prune-tool-outputs'], { env: FIXED_ENV });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).stages.map((x: { changed: number }) => x.changed)).toEqual([4, 0]);
    const bytes = ctx(s, ['materialize', 'big']).bytes;
    const out = lines(bytes);
    expect(out.length).toBe(67);
    expect(out.filter((l) => l.isCompactSummary === true && !readFileSync(BIG, 'utf8').includes(l.uuid))).toEqual([]);
    const kept = keptLines(bytes, BIG, 1);
    expect(kept.kinds).toEqual({ verbatim: 57, relinked: 5, results: 4, other: 0 });
    // the corpus' own compaction summary opens the context: it hangs from the new boundary
    expect(kept.first).toMatchObject({ isCompactSummary: true, parentUuid: out[0].uuid });
    // a pruned result: its first and last 800 characters around the placeholder, every other field as written
    const pruned = out.filter((l) => Array.isArray(l.message?.content) && l.message.content.some((b: { content?: unknown }) => typeof b.content === 'string' && b.content.includes('characters pruned]')));
    expect(pruned.length).toBe(4);
    for (const l of pruned) {
      const orig = kept.original(l);
      const was = orig.message.content[0];
      const full = typeof was.content === 'string' ? was.content : was.content.map((b: { text: string }) => b.text).join('\n');
      expect(l.message.content[0]).toEqual({ ...was, content: `${full.slice(0, 800)}\n[ctx compact: ${full.length - 1600} characters pruned]\n${full.slice(-800)}` });
      expect(l.toolUseResult).toEqual(orig.toolUseResult);
    }
    expect(ctx(s, ['materialize', 'big', '--stop', 'root']).bytes.equals(readFileSync(BIG))).toBe(true);
  });

  it('claude-code-v1, a call still waiting for its result: the error result normalize gives it is a tool_result line after the call', () => {
    // the transcript as it stood while the last Bash call ran: cut right after the tool_use line
    const src = readFileSync(BIG);
    const all = texts(src);
    const at = all.findLastIndex((l, i) => {
      const o = JSON.parse(l);
      const use = o.type === 'assistant' && o.message.content.find((b: { type: string }) => b.type === 'tool_use');
      return use && all.slice(i + 1).some((x) => x.includes(`"tool_use_id":"${use.id}"`));
    });
    const file = join(tempDir(), 'live.jsonl');
    writeFileSync(file, all.slice(0, at + 1).map((l) => `${l}\n`).join(''));
    const s = imported(file, 'live');
    const r = ctx(s, ['--json', 'compact', 'live', '--policy', 'summarize', '--keep-turns', '1'], { env: FIXED_ENV });
    expect(r.code, r.stderr).toBe(0);
    const bytes = ctx(s, ['materialize', 'live']).bytes;
    const out = lines(bytes);
    const call = JSON.parse(all[at]);
    const use = call.message.content.find((b: { type: string }) => b.type === 'tool_use');
    expect(out[out.length - 2].uuid).toBe(call.uuid);
    expect(out[out.length - 1]).toMatchObject({
      parentUuid: call.uuid,
      isSidechain: false,
      sessionId: call.sessionId,
      type: 'user',
      message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: '[ctx compact: no result was recorded for this call]', is_error: true }] },
    });
    expect(keptLines(bytes, file, 2).kinds.other).toBe(1);
    pairs(claudeCode.toNeutral!(claudeCode.parse(bytes)));
  });

  it('a pinned commit’s entries are kept: its prompt is in the compacted context, as its own line, only when pinned', () => {
    const summaryOf = (pin: boolean) => {
      const s = imported(BIG, 'big');
      const log = ctx(s, ['--json', 'log', 'big']).stdout.trim().split('\n').map((l) => JSON.parse(l));
      // newest first: the first prompt after the corpus' own compaction, far from the last turn
      // (a typed prompt, whose words are in its line: a command's summary is written `/model opus`,
      // the turn going on after the compaction `continued: …`)
      const target = log.slice(1, log.findIndex((r) => r.type === 'compaction')).reverse().find((r) => r.summary && !/^([/!]|continued: )/.test(r.summary));
      if (pin) expect(ctx(s, ['annotate', target.id, '--pin'], { env: FIXED_ENV }).code).toBe(0);
      const r = ctx(s, ['--json', 'compact', 'big', '--policy', 'summarize', '--keep-turns', '1'], { env: FIXED_ENV });
      expect(r.code, r.stderr).toBe(0);
      const out = lines(ctx(s, ['materialize', 'big']).bytes);
      // the summary line says what was summarized; the pinned commit's lines follow it as they are
      const summary = out[1].message.content as string;
      const kept = out.slice(2).map((l) => JSON.stringify(l.message.content)).join('\n');
      return { target, summary, kept, json: JSON.parse(r.stdout) };
    };
    const plain = summaryOf(false);
    const pinned = summaryOf(true);
    const prompt = String(plain.target.summary).slice(0, 40);
    expect(prompt.length).toBeGreaterThan(20);
    expect([plain.summary.includes(prompt), plain.kept.includes(prompt)]).toEqual([false, false]);
    expect([pinned.summary.includes(prompt), pinned.kept.includes(prompt)]).toEqual([false, true]);
    expect(pinned.json.messages_after - plain.json.messages_after).toBe(PINNED_MESSAGES);
  });

  it('bureau-agent-v1: the compacted messages as the format’s own array; --summarizer gets the messages on stdin', () => {
    const s = imported(VIEWER, 'v');
    const dir = tempDir();
    const cbor = join(dir, 'v.cbor');
    expect(ctx(s, ['materialize', 'v', '--format', 'bureau-agent-v1', '-o', cbor]).code).toBe(0);
    expect(ctx(s, ['checkpoint', '-b', 'b', '--format', 'bureau-agent-v1', cbor], { env: FIXED_ENV }).code).toBe(0);
    const r = ctx(s, ['--json', 'compact', 'b', '--summarizer', 'node -e "let n=0;process.stdin.on(\'data\',b=>n+=b.length).on(\'end\',()=>console.log(JSON.stringify({bytes:n})))"', '--keep-turns', '3'], { env: FIXED_ENV });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ format: 'bureau-agent-v1', messages_before: 345, messages_after: 190 });
    const msgs = JSON.parse(ctx(s, ['materialize', 'b', '--format', 'openai-chat-v1']).stdout);
    const summary = msgs.find((m: { content?: unknown }) => typeof m.content === 'string' && m.content.startsWith(SUMMARY_HEADER));
    expect(summary.content).toMatch(/\{"bytes":\d+\}/);
    expect(ctx(s, ['materialize', 'b', '--stop', 'root']).bytes.equals(readFileSync(cbor))).toBe(true);
  });

  it('--summary-file, a failing summarizer (nothing written), usage errors, and a moved branch', () => {
    const s = imported(VIEWER, 'v');
    const f = join(tempDir(), 'summary.txt');
    writeFileSync(f, 'We fixed the viewer.\n');
    const before = refSnapshot(s);
    const bad = ctx(s, ['compact', 'v', '--summarizer', 'echo oops >&2; exit 3'], { env: FIXED_ENV });
    expect([bad.code, bad.stderr.trim()]).toEqual([1, 'ctx: summarizer exited with 3: oops']);
    expect(refSnapshot(s)).toBe(before);
    expect(ctx(s, ['compact', 'v'], { env: FIXED_ENV }).code).toBe(2);
    expect(ctx(s, ['compact', 'v', '--policy', 'squash'], { env: FIXED_ENV }).code).toBe(2);
    expect(ctx(s, ['compact', 'nope', '--policy', 'summarize'], { env: FIXED_ENV }).code).toBe(4);
    expect(ctx(s, ['compact', 'v', '--summary-file', f], { env: FIXED_ENV }).code).toBe(0);
    const summary = lines(ctx(s, ['materialize', 'v']).bytes)[1].message.content as string;
    expect(summary).toContain('We fixed the viewer.');
  });
});
