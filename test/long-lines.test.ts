// A transcript line of many megabytes is read for what the import needs without ever being one
// string: its long strings cut to their heads (the split's fields), or decoded a piece at a time
// (token counts). What it stores must not change: the same checks, counts and commit ids as a
// whole JSON.parse. (Memory: npm run bench large.)
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HEAD_CHARS, LONG_STRING, LongStrings, parseHeads } from '../src/formats/jsonl.js';
import { addInPieces, charsPerToken, loadTokenizer, type TokenCounter } from '../src/core/tokens.js';
import { REQUEST_HEAD } from '../src/core/summary.js';
import { ctx, git, newStore, tempDir } from './helpers.js';

const ENV = { CTX_PRINCIPAL: 'alice', CTX_MACHINE: 'box', CTX_NOW: '2026-01-02T03:04:05.678Z', CTX_ENGINE: 'git' };
const MIB = 1024 * 1024;
const json = (v: unknown) => Buffer.from(JSON.stringify(v));
const errorOf = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    return (e as Error).name;
  }
  return 'no error';
};

/** ~2.2 MB of text whose JSON has escapes, multi-byte characters and surrogate pairs throughout, so cuts land everywhere. */
const mixed = (tail: string) => `${'héllo "quoted"\\ wörld\n\ttab 😀 end € 12345 !!! '.repeat(Math.ceil((2.2 * MIB) / 52))}${tail}`;

describe('parseHeads', () => {
  it('gives a long string as a prefix of at least HEAD_CHARS characters, everything else as JSON.parse does, at every cut offset', () => {
    for (let pad = 0; pad < 7; pad++) {
      const text = `${'x'.repeat(pad)}${mixed('!')}`;
      const line = json({ type: 'user', a: [1, 'two', { b: null }], message: { content: text }, last: 'é' });
      expect(line.length).toBeGreaterThan(LONG_STRING);
      const got = parseHeads(line) as { message: { content: string } };
      const head = got.message.content;
      // a summary reads REQUEST_HEAD characters: a head holds them all
      expect(HEAD_CHARS).toBeGreaterThan(REQUEST_HEAD);
      expect(head.length).toBeGreaterThanOrEqual(HEAD_CHARS);
      expect(head.length).toBeLessThan(text.length);
      expect(text.startsWith(head)).toBe(true);
      expect({ ...got, message: { content: text } }).toEqual(JSON.parse(line.toString()));
    }
  });

  it('a short line, or a long one without a long string, is JSON.parse exactly', () => {
    const short = json({ a: 'b'.repeat(1000) });
    expect(parseHeads(short)).toEqual({ a: 'b'.repeat(1000) });
    const many = json(Array.from({ length: 200_000 }, (_, i) => `s${i}`));
    expect(parseHeads(many)).toEqual(JSON.parse(many.toString()));
  });

  it('refuses what JSON.parse refuses inside a long string: a control character, a bad escape, bad UTF-8, no closing quote', () => {
    const long = 'a'.repeat(LONG_STRING + 10);
    const cases = [`{"a":"${long}\u0001"}`, `{"a":"${long}\\x"}`, `{"a":"${long}\\u12G4"}`, `{"a":"${long}`, `{"a":"${long}"`, `{"a":"${long}" "b"}`];
    // a bad byte at each place in a word of four bytes (the scan reads four at a time)
    for (let pad = 0; pad < 4; pad++) cases.push(`{"a":"${long}${'b'.repeat(pad)}\u001f${'c'.repeat(9)}"}`, `{"a":"${long}${'b'.repeat(pad)}\t${'c'.repeat(9)}"}`);
    for (const c of cases) expect([c.slice(-12), errorOf(() => parseHeads(Buffer.from(c)))]).toEqual([c.slice(-12), 'SyntaxError']);
    const badUtf8 = Buffer.concat([Buffer.from(`{"a":"${long}`), Buffer.from([0xc3, 0x28]), Buffer.from('"}')]);
    expect(errorOf(() => parseHeads(badUtf8))).toBe('SyntaxError');
  });
});

describe('LongStrings', () => {
  it('stands a marker for each long string; its pieces join to the string JSON.parse gives', () => {
    const long = new LongStrings();
    const text = mixed('😀');
    const line = json({ type: 'user', message: { content: [{ type: 'text', text }, { type: 'tool_result', content: text.slice(3) }] }, short: 'kept' });
    const v = long.parse(line) as { message: { content: [{ text: string }, { content: string }] }; short: string };
    expect(v.short).toBe('kept');
    const [m1, m2] = [v.message.content[0].text, v.message.content[1].content];
    expect([long.is(m1), long.is(m2), long.holds(JSON.stringify({ input: m2 })), long.is('kept'), long.holds('kept')]).toEqual([true, true, true, false, false]);
    const pieces: string[] = [];
    long.pieces(m1, (p) => pieces.push(p));
    expect(pieces.length).toBeGreaterThan(4);
    expect(pieces.join('')).toBe(text);
    expect(long.whole()).toEqual(JSON.parse(line.toString()));
    // the next line parsed replaces the markers
    long.parse(json({ a: 1 }));
    expect(long.is(m1)).toBe(false);
  });
});

describe('addInPieces', () => {
  const cases: [string, string][] = [
    ['words', 'word '.repeat(300_000)],
    ['mixed', mixed('end')],
    ['long letter runs and white space', `${'a'.repeat(5000)} ${'b'.repeat(300)}    \n\n${'c '.repeat(1000)}${'!'.repeat(700)} x ${' '.repeat(400)}y`],
    ["contractions and digits", "it's we're they'll 123456 I'd x ".repeat(20_000)],
    ['no place to cut', 'é'.repeat(100_000)],
  ];
  it.each(cases)('counts %s cut anywhere it may be cut as the whole text, with both estimators', async (_, text) => {
    for (const counter of [await loadTokenizer(), charsPerToken] as TokenCounter[]) {
      const tally = counter.tally!();
      addInPieces(tally, (take) => {
        for (let i = 0; i < text.length; i += 7919) take(text.slice(i, i + 7919));
      });
      expect([counter.name, tally.total()]).toEqual([counter.name, counter.count([text])]);
    }
  }, 60_000);
});

describe('ctx import claude-code of long lines', () => {
  /** Three long lines: a tool result, a tool's input (counted as JSON), a prompt whose white space passes the head. */
  function transcript(): string {
    const line = (o: object) => `${JSON.stringify({ sessionId: 'long-1', timestamp: '2026-01-02T00:00:00.000Z', ...o })}\n`;
    const text =
      line({ type: 'user', uuid: 'p0', message: { role: 'user', content: 'write the big file' } }) +
      line({ type: 'assistant', uuid: 'a0', message: { role: 'assistant', content: [{ type: 'tool_use', id: 't0', name: 'Write', input: { content: mixed('in') } }] } }) +
      line({ type: 'user', uuid: 'r0', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't0', content: mixed('out') }] } }) +
      line({ type: 'user', uuid: 'p1', message: { role: 'user', content: `${mixed('second prompt')}` } }) +
      line({ type: 'user', uuid: 'x0', message: { role: 'user', content: `${' '.repeat(LONG_STRING + 10)}<bash-stdout>output</bash-stdout>` } });
    const file = join(tempDir(), 'long.jsonl');
    writeFileSync(file, text);
    return file;
  }

  it('stores every byte under the commit ids and counts a whole parse gives', async () => {
    const file = transcript();
    const store = newStore();
    const r = ctx(store, ['import', 'claude-code', file, '-b', 'long'], { env: ENV });
    expect([r.code, r.stderr]).toEqual([0, '']);
    // ids as the import that parsed each line whole wrote them
    expect(git(store, ['rev-parse', 'long']).trim()).toBe(LONG_TIP);
    expect(git(store, ['log', '--format=%s', 'long'])).toBe(`${mixed('second prompt').slice(0, 72).split('\n')[0].trim()}\nwrite the big file\n`);
    const back = ctx(store, ['materialize', 'long', '--stop', 'root'], { env: ENV });
    expect(back.bytes.equals(readFileSync(file))).toBe(true);
    const metas = git(store, ['log', '--format=%H', 'long']).trim().split('\n').map((c) => JSON.parse(git(store, ['show', `${c}:meta.json`])));
    const bpe = await loadTokenizer();
    const second = bpe.count([mixed('second prompt')]);
    expect(metas.map((m) => [m.message_count, m.token_count])).toEqual([
      [2, second + bpe.count([`${' '.repeat(LONG_STRING + 10)}<bash-stdout>output</bash-stdout>`])],
      [3, bpe.count(['write the big file', 'Write', JSON.stringify({ content: mixed('in') }), mixed('out')])],
    ]);
  }, 120_000);
});

describe('live capture (ctx hook claude-code) of long lines', () => {
  it('writes the commits a whole parse of each line wrote', () => {
    const file = join(tempDir(), 's-long.jsonl');
    const line = (o: object) => `${JSON.stringify({ sessionId: 's-long', timestamp: '2026-01-02T00:00:00.000Z', ...o })}\n`;
    writeFileSync(
      file,
      line({ type: 'user', uuid: 'p0', message: { role: 'user', content: 'run it' } }) +
        line({ type: 'user', uuid: 'r0', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't0', content: mixed('out') }] } }) +
        line({ type: 'assistant', uuid: 'a0', message: { id: 'm0', model: 'claude-x', role: 'assistant', content: [{ type: 'text', text: 'done' }], usage: { input_tokens: 5, output_tokens: 2 } } }),
    );
    const store = newStore();
    const hook = ctx(store, ['hook', 'claude-code'], { env: ENV, input: JSON.stringify({ session_id: 's-long', transcript_path: file, hook_event_name: 'Stop', cwd: tempDir() }) });
    expect([hook.code, hook.stderr]).toEqual([0, '']);
    expect(git(store, ['log', '--all', '--format=%H %s'])).toBe(`${CAPTURED_TIP} run it\n`);
    expect(JSON.parse(git(store, ['show', `${CAPTURED_TIP}:meta.json`])).source).toMatchObject({ model: 'claude-x', usage: { input_tokens: 5, output_tokens: 2 } });
  }, 60_000);
});

// the tip this transcript's import wrote before long lines were read in pieces
describe('ctx import claude-code of a subagent transcript whose first line is long', () => {
  it('reads the agent from the first line and lands on its branch', () => {
    const file = join(tempDir(), 'sub.jsonl');
    const line = { type: 'user', uuid: 'u0', isSidechain: true, agentId: 'a1b2', sessionId: 's-long', message: { role: 'user', content: mixed('task') } };
    writeFileSync(file, `${JSON.stringify(line)}\n`);
    const store = newStore();
    const r = ctx(store, ['import', 'claude-code', file], { env: ENV });
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(git(store, ['for-each-ref', '--format=%(refname)', 'refs/heads/'])).toBe('refs/heads/claude/s-long.agent-a1b2\n');
  }, 60_000);
});

const LONG_TIP = '48d83d37f31b5f57dc570c14f9cbbebc7ddad742';
// the commit this transcript's capture wrote before long lines were read as their heads
const CAPTURED_TIP = 'b45e59e7c50aaa456d0b0250335397297d1c507b';
