// Claude Code's compaction shape on a small transcript: which lines are kept, which links and blocks change.
import { describe, expect, it } from 'vitest';
import { compactMessages } from '../core/compaction.js';
import { claudeCode } from './claude-code.js';
import { CLAUDE_CONTINUATION, claudeCompactLines } from './claude-code-compaction.js';

const base = { isSidechain: false, sessionId: 's', cwd: '/w' };
const user = (uuid: string, parentUuid: string | null, content: unknown) => ({ parentUuid, ...base, type: 'user', message: { role: 'user', content }, uuid });
const assistant = (uuid: string, parentUuid: string, id: string, block: unknown) => ({ parentUuid, ...base, type: 'assistant', message: { id, role: 'assistant', content: [block] }, uuid });

/** Three turns; the second calls two tools in one API message (a line per block) and gets one result. */
const TRANSCRIPT = [
  user('u0', null, 'first task'),
  assistant('a1', 'u0', 'm1', { type: 'text', text: 'looking' }),
  user('u2', 'a1', 'second prompt'),
  assistant('a3', 'u2', 'm2', { type: 'thinking', thinking: 'hmm', signature: 'sig' }),
  assistant('a4', 'a3', 'm2', { type: 'tool_use', id: 'c1', name: 'Read', input: { file_path: '/a' } }),
  assistant('a5', 'a4', 'm2', { type: 'tool_use', id: 'c2', name: 'Bash', input: { command: 'make' } }),
  user('u6', 'a5', [{ tool_use_id: 'c1', type: 'tool_result', content: 'A' }]),
  { parentUuid: 'u6', ...base, type: 'progress', uuid: 'p7' },
  assistant('a8', 'p7', 'm3', { type: 'text', text: 'done' }),
  user('u9', 'a8', 'third prompt'),
  // a result whose call the transcript never had (it was before an earlier compaction)
  user('u10', 'u9', [{ tool_use_id: 'gone', type: 'tool_result', content: 'old output' }]),
  assistant('a11', 'u10', 'm4', { type: 'text', text: 'finished' }),
];
const SOURCE = Buffer.from(TRANSCRIPT.map((l) => `${JSON.stringify(l)}\n`).join(''));
const ORIGINAL = new Map(TRANSCRIPT.map((l, i) => [l.uuid, SOURCE.toString('utf8').split('\n')[i]]));

async function compacted() {
  const input = claudeCode.toNeutral!(claudeCode.parse(SOURCE));
  const out = await compactMessages(input, { stages: ['summarize'], keepTurns: 1, summarizer: async () => 'SUMMARY' });
  const bytes = claudeCompactLines({ source: SOURCE, input, inSource: input.map(() => true), out, timestamp: '2026-01-02T03:04:05.678Z', tip: 'f'.repeat(40) });
  const texts = Buffer.from(bytes).toString('utf8').split('\n').filter(Boolean);
  return { input, out, texts, lines: texts.map((t) => JSON.parse(t)) };
}

describe('claudeCompactLines', () => {
  it('the boundary, the summary alone, then the kept lines: relinked past removed lines and around the inserted result', async () => {
    const { input, out, lines } = await compacted();
    expect(input.length).toBe(9);
    expect(out.origins).toEqual([0, -1, 3, -1, 4, 6, 7, 8]);
    const [boundary, summary] = lines;
    expect(boundary).toMatchObject({ parentUuid: null, logicalParentUuid: 'a11', isSidechain: false, sessionId: 's', cwd: '/w', type: 'system', subtype: 'compact_boundary' });
    expect(summary).toMatchObject({ parentUuid: boundary.uuid, type: 'user', isCompactSummary: true });
    expect(summary.message.content).toBe(`${CLAUDE_CONTINUATION}\n\n[ctx compact] Summary of the earlier conversation (3 messages):\n\nSUMMARY`);
    const result = lines[6];
    expect(lines.map((l) => [l.uuid, l.parentUuid])).toEqual([
      [boundary.uuid, null],
      [summary.uuid, boundary.uuid],
      ['u0', summary.uuid], // the first task hangs from the summary
      ['a3', 'u0'], // its parent u2 was summarized
      ['a4', 'a3'],
      ['a5', 'a4'],
      [result.uuid, 'a5'], // the error result for c2, after the call
      ['u6', result.uuid], // c1's result follows the inserted line
      ['u9', 'u6'], // a8 and the progress line p7 are gone
      ['u10', 'u9'],
      ['a11', 'u10'],
    ]);
    expect(result).toMatchObject({ isSidechain: false, sessionId: 's', type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'c2', content: '[ctx compact: no result was recorded for this call]', is_error: true }] } });
  });

  it('lines keep their bytes unless a link or a block changed, and then only that field', async () => {
    const { texts, lines } = await compacted();
    const same = texts.filter((t) => [...ORIGINAL.values()].includes(t)).map((t) => JSON.parse(t).uuid);
    expect(same).toEqual(['a4', 'a5', 'a11']);
    for (const uuid of ['u0', 'a3', 'u6', 'u9']) {
      const line = lines.find((l) => l.uuid === uuid);
      expect(JSON.stringify({ ...JSON.parse(ORIGINAL.get(uuid)!), parentUuid: line.parentUuid })).toBe(texts[lines.indexOf(line)]);
    }
    // the result whose call is gone became text, in its own line: the rest of the line as written
    const u10 = lines.find((l) => l.uuid === 'u10');
    expect(u10).toEqual({ ...JSON.parse(ORIGINAL.get('u10')!), message: { role: 'user', content: [{ type: 'text', text: '[tool result for call gone, whose call is not in this context]\nold output' }] } });
  });

  it('read back: the same messages the pipeline kept, every call with its result', async () => {
    const { out, texts } = await compacted();
    const back = claudeCode.toNeutral!(claudeCode.parse(Buffer.from(texts.map((t) => `${t}\n`).join(''))));
    // the summary line first, then the kept messages in the pipeline's order
    const summary = (out.messages[1].content[0] as { text: string }).text;
    expect(back[0].content).toEqual([{ type: 'text', text: `${CLAUDE_CONTINUATION}\n\n${summary}` }]);
    expect(back.slice(1).map((m) => m.content)).toEqual([out.messages[0], ...out.messages.slice(2)].map((m) => m.content));
  });
});

describe('a compaction that keeps messages from before it (withKept)', () => {
  const toBytes = (ls: unknown[]) => Buffer.from(ls.map((l) => `${JSON.stringify(l)}\n`).join(''));
  const before = toBytes([user('u0', null, 'task'), assistant('a1', 'u0', 'm1', { type: 'text', text: 'one' }), user('u2', 'a1', 'more'), assistant('a3', 'u2', 'm2', { type: 'text', text: 'kept' })]);
  const boundary = (compactMetadata: unknown) => ({ parentUuid: null, logicalParentUuid: 'a3', ...base, type: 'system', subtype: 'compact_boundary', uuid: 'b', compactMetadata });
  const summary = { parentUuid: 'b', ...base, type: 'user', isCompactSummary: true, message: { role: 'user', content: 'summary' }, uuid: 's1' };
  const after = user('u9', 's1', 'next');
  const kept = async (meta: unknown) => {
    const p = claudeCode.withKept!(toBytes([boundary(meta), summary, after]));
    return p && Buffer.from(await p(async () => before)).toString('utf8');
  };
  const lines = (ls: unknown[]) => toBytes(ls).toString('utf8');

  it('puts the lines preservedMessages lists right after the summary, bytes unchanged', async () => {
    const meta = { trigger: 'manual', preservedMessages: { anchorUuid: 's1', uuids: ['u2', 'a3'], allUuids: ['u2', 'a3'] } };
    expect(await kept(meta)).toBe(lines([boundary(meta), summary, user('u2', 'a1', 'more'), assistant('a3', 'u2', 'm2', { type: 'text', text: 'kept' }), after]));
  });

  it('a context that already holds them after its summary (a snapshot of one read this way) is given back as it is', async () => {
    const meta = { preservedMessages: { anchorUuid: 's1', uuids: ['u2', 'a3'] } };
    const whole = toBytes([boundary(meta), summary, user('u2', 'a1', 'more'), assistant('a3', 'u2', 'm2', { type: 'text', text: 'kept' }), after]);
    expect(Buffer.from(await claudeCode.withKept!(whole)!(async () => before)).equals(whole)).toBe(true);
  });

  it('walks an older preservedSegment from its tail to its head', async () => {
    const meta = { preservedSegment: { headUuid: 'a1', anchorUuid: 's1', tailUuid: 'u2' } };
    expect(await kept(meta)).toBe(lines([boundary(meta), summary, assistant('a1', 'u0', 'm1', { type: 'text', text: 'one' }), user('u2', 'a1', 'more'), after]));
  });

  it('a compaction that keeps nothing, or a context that does not start at one, is left alone (null)', async () => {
    expect(await kept({ trigger: 'auto', preTokens: 10 })).toBeNull();
    expect(claudeCode.withKept!(before)).toBeNull();
  });
});
