// The hand-written pre-tokenizer cuts text exactly where cl100k_base's pattern (SPLIT) does: over
// every transcript of the corpus, raw and as the strings its JSON holds, and over seeded mixes of the
// characters where the pattern's alternatives meet. Token counts (and so commit ids) rest on it.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { splitPieces } from '../src/core/bpe.js';
import { DIGIT, LETTER, OTHER, SPACE, classOf } from '../src/core/char-class.js';
import { CORPUS, itCorpus } from './helpers.js';

/** cl100k_base's pre-tokenizer: tiktoken's pattern, as gpt-tokenizer writes it (ctx counted with it until splitPieces). */
const SPLIT = /'(?:[sS]|[dD]|[mM]|[tT]|[lL][lL]|[vV][eE]|[rR][eE])|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s+$|\s*[\r\n]|\s+(?!\S)|\s/gu;
const byPattern = (text: string) => [...text.matchAll(SPLIT)].map((m) => m[0]);
const byHand = (text: string) => {
  const out: string[] = [];
  splitPieces(text, (start, end) => out.push(text.slice(start, end)));
  return out;
};

/** Every string a JSON value holds, keys too. */
function strings(v: unknown, out: string[]): string[] {
  if (typeof v === 'string') out.push(v);
  else if (Array.isArray(v)) for (const x of v) strings(x, out);
  else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) {
      out.push(k);
      strings(x, out);
    }
  return out;
}

describe('splitPieces', () => {
  itCorpus('cuts every corpus transcript as SPLIT does, raw and string by string', () => {
    let texts = 0;
    for (const dir of readdirSync(CORPUS, { withFileTypes: true }).filter((d) => d.isDirectory()))
      for (const name of readdirSync(join(CORPUS, dir.name))) {
        const raw = readFileSync(join(CORPUS, dir.name, name), 'utf8');
        const values: string[] = [raw];
        for (const line of raw.split('\n'))
          try {
            strings(JSON.parse(line), values);
          } catch {
            // a line that is not JSON on its own (a pretty-printed file): its raw text is compared above
          }
        if (name.endsWith('.json')) strings(JSON.parse(raw), values);
        for (const t of values) expect(byHand(t)).toEqual(byPattern(t));
        texts += values.length;
      }
    expect(texts).toBeGreaterThan(10_000);
  }, 600_000);

  it('cuts seeded mixes of the characters where its alternatives meet as SPLIT does', () => {
    // contractions, letters and digits of every plane, white space of every kind, lone surrogates
    const alphabet = ["'", 's', 'S', 'l', 'L', 'v', 'E', 'r', 'd', 'm', 't', 'x', ' ', ' ', '\t', '\n', '\r', '\v', '\f', '\u00a0', '\u2028', '\u3000', '\ufeff',
      '0', '7', '\u0663', '\u216b', '\u00bd', 'é', '中', '\u{1d400}', '\u{1d7d8}', '\u{1f600}', '\ud800', '\udc00', '.', ',', '!', '-', '"', '\u0301'];
    let seed = 42;
    const rand = (n: number) => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 8) % n;
    for (let i = 0; i < 30_000; i++) {
      let t = '';
      for (let n = rand(24); n > 0; n--) t += alphabet[rand(alphabet.length)];
      expect(byHand(t), JSON.stringify(t)).toEqual(byPattern(t));
    }
  });

  it('classes code points as \\p{L}, \\p{N} and \\s do', () => {
    for (let c = 0; c < 0x11000; c++) {
      const ch = String.fromCodePoint(c);
      const want = /\p{L}/u.test(ch) ? LETTER : /\p{N}/u.test(ch) ? DIGIT : /\s/u.test(ch) ? SPACE : OTHER;
      if (classOf(c) !== want) expect([c, classOf(c)]).toEqual([c, want]);
    }
  });
});
