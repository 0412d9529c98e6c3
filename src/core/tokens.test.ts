// Token counting is linear whatever the input: long runs of one character class are counted in
// chunks; everything else exactly as the tokenizer counts it.
import { describe, expect, it } from 'vitest';
import { RUN, boundedCount, charsPerToken, loadTokenizer, tallyOf } from './tokens.js';

describe('boundedCount', () => {
  it('text without a run longer than RUN goes to the tokenizer whole', () => {
    const seen: string[] = [];
    const text = `${'x'.repeat(RUN)} and ${'='.repeat(RUN)}a${' '.repeat(RUN)}b`;
    expect(boundedCount(text, (t) => (seen.push(t), 7))).toBe(7);
    expect(seen).toEqual([text]);
  });

  it('a long run is counted in RUN-character chunks, between the text around it', () => {
    const seen: string[] = [];
    const text = `head ${'é'.repeat(RUN * 2 + 3)} tail ${'-'.repeat(RUN + 1)}`;
    boundedCount(text, (t) => (seen.push(t), 1));
    expect(seen).toEqual(['head ', 'é'.repeat(RUN), 'é'.repeat(RUN), 'é'.repeat(3), ' tail ', '-'.repeat(RUN), '-']);
  });

  it('a megabyte of one character with the real tokenizer: exact, chunk by chunk', async () => {
    const { count } = await loadTokenizer();
    const one = count(['A'.repeat(RUN)]);
    expect(count(['A'.repeat(4096 * RUN)])).toBe(4096 * one);
    expect(count(['hello world'])).toBe(2);
  });
});

describe('tally', () => {
  // meta.json counts a large artifact entry by entry: the running count must be the count of all texts at once
  it.each([['chars/4'], ['cl100k_base']])('%s: texts added a few at a time count as all at once', async (name) => {
    const counter = name === 'chars/4' ? charsPerToken : await loadTokenizer();
    const texts = ['abc', 'de', 'hello world', '', 'é✓ x', 'A'.repeat(RUN * 3 + 1), 'f'];
    const tally = tallyOf(counter);
    for (const t of texts) tally.add([t]);
    expect(tally.total()).toBe(counter.count(texts));
    // a counter of a caller's own, without a running count: every text counted at the end
    const own = tallyOf({ name: counter.name, count: counter.count });
    for (const t of texts) own.add([t]);
    expect(own.total()).toBe(counter.count(texts));
    // chars/4 rounds the total up once, not each text: 3 + 2 chars are 2 tokens, not 1 + 1
    if (name === 'chars/4') expect([tally.total(), charsPerToken.count(['abc']) + charsPerToken.count(['de'])]).toEqual([Math.ceil(texts.join('').length / 4), 2]);
  });
});
