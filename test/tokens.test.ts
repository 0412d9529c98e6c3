// ctx's cl100k_base counter (src/core/bpe.ts over a serialized rank table) counts exactly as
// gpt-tokenizer does, which wrote every token_count of existing stores: on the corpus, on seeded
// random strings, run from source and from the build (whose table is a file read at load).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { countTokens } from 'gpt-tokenizer/encoding/cl100k_base';
import ranks from 'gpt-tokenizer/bpeRanks/cl100k_base';
import { describe, expect, it } from 'vitest';
import { bpeCounter, serializeRanks } from '../src/core/bpe.js';
import { loadTokenizer } from '../src/core/tokens.js';
import { prng } from './fuzz-kit.js';
import { ROOT, corpusFiles, itCorpus } from './helpers.js';

const reference = (t: string) => countTokens(t, { disallowedSpecial: new Set<string>() });

/** Pieces that stress the pre-tokenizer and the merges: scripts, emoji, lone surrogates, special tokens, runs. */
const ALPHABET = [
  'a', 'Z', 'é', 'ß', 'ж', '日本', '한', 'ا', '🎉', '👩‍💻', '\uD800', '\uDC00', '\u0301', '0', '٣', '42', ' ', '  ', '\t', '\n', '\r\n',
  "'s", "'LL", '.', '...', '=>', '{"a":', '<|endoftext|>', '<|im_start|>', '\u00a0', '\u2028', 'tion', ' the', 'xyz', '—', '\ufeff', '\u0000',
];
function fuzzText(seed: number): string {
  const r = prng(seed);
  let s = '';
  for (let n = r.int(40); n >= 0; n--) s += r.pick(ALPHABET).repeat(r.chance(0.1) ? 1 + r.int(30) : 1);
  return s;
}

describe('cl100k_base counter', () => {
  const count = bpeCounter(serializeRanks(ranks));

  it('equals gpt-tokenizer on 3,000 seeded random strings and on edge cases', () => {
    const fixed = ['', 'hello world', 'x<|endoftext|>y', '\uD800abc', 'a\uDC00', '\uDBFF\uDFFF', "it's   \n\n  done\r\n", '1234567 89', ' '.repeat(300), 'A'.repeat(300)];
    for (const t of fixed) expect([t, count(t)]).toEqual([t, reference(t)]);
    const diffs: string[] = [];
    for (let i = 0; i < 3000; i++) {
      const t = fuzzText(i);
      if (count(t) !== reference(t)) diffs.push(JSON.stringify(t));
    }
    expect(diffs).toEqual([]);
  });

  it('a table that is not one is refused', () => {
    expect(() => bpeCounter(new Uint8Array(64))).toThrow('not a rank table');
  });

  itCorpus('equals gpt-tokenizer on every transcript of the corpus, line by line', () => {
    let lines = 0;
    for (const dir of ['claude-code', 'codex', 'gemini-cli', 'other']) {
      for (const f of corpusFiles(dir, '.json').concat(corpusFiles(dir, '.jsonl'))) {
        for (const line of readFileSync(f, 'utf8').split('\n')) {
          if (count(line) !== reference(line)) throw new Error(`${f}: ${JSON.stringify(line.slice(0, 200))}: ${count(line)} ≠ ${reference(line)}`);
          lines++;
        }
      }
    }
    expect(lines).toBeGreaterThan(1000);
  }, 120_000);

  it('from source, loadTokenizer counts as gpt-tokenizer does', async () => {
    const { count: c } = await loadTokenizer();
    expect(c(['hello world', fuzzText(7)])).toBe(reference('hello world') + reference(fuzzText(7)));
  });

  it('the build reads its table from dist/chunks/cl100k_base.ranks and counts the same', () => {
    const texts = Array.from({ length: 200 }, (_, i) => fuzzText(10_000 + i));
    const probe = `const { loadTokenizer } = await import(${JSON.stringify(pathToFileURL(join(ROOT, 'dist', 'index.js')).href)});` +
      `const t = await loadTokenizer(); process.stdout.write(JSON.stringify(JSON.parse(process.argv[1]).map((s) => t.count([s]))))`;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', probe, JSON.stringify(texts)], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toEqual(texts.map(reference));
    const table = readFileSync(join(ROOT, 'dist', 'chunks', 'cl100k_base.ranks'));
    expect(Buffer.compare(table, serializeRanks(ranks))).toBe(0);
  });
});
