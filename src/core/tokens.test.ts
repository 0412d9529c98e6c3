// Token counting is linear whatever the input: long runs of one character class are counted in
// chunks; everything else exactly as the tokenizer counts it.
import { describe, expect, it } from 'vitest';
import { RUN, boundedCount, loadTokenizer } from './tokens.js';

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
