// Token estimation: a BPE tokenizer (cl100k_base, src/core/bpe.ts) loaded on first use, and the
// characters/4 heuristic. meta.json's token_count uses the repo's estimator (`ctx.tokenCount`,
// cl100k_base unless set to chars/4): it is part of every commit id, so a tokenizer that cannot
// load is an error there, never a silent switch to another estimator.
import { CtxError, UsageError } from '../errors/index.js';
import { bpeCounter } from './bpe.js';
import { DIGIT, classOf } from './char-class.js';

/** Counts the tokens of a message's texts, taken together. */
export interface TokenCounter {
  /** `cl100k_base` or `chars/4` */
  readonly name: TokenCounterName;
  count(texts: readonly string[]): number;
  /** A running count: texts added a few at a time give what `count` gives them all at once. */
  tally?(): Tally;
}

export interface Tally {
  add(texts: readonly string[]): void;
  total(): number;
}

/** The counter's running count; one without (a caller's own) counts every text added, at the end. */
export function tallyOf(counter: TokenCounter): Tally {
  if (counter.tally) return counter.tally();
  const all: string[] = [];
  return { add: (texts) => void all.push(...texts), total: () => counter.count(all) };
}

/**
 * One long text handed over a piece at a time (`each` calls `take` for each, in order), added as the
 * whole text would be: it is cut only at a space between two ASCII letters, where both estimators
 * count the parts as the whole (cl100k_base's pre-tokenizer ends a piece before such a space and
 * looks neither behind nor past the letter after it; no long run of one class spans it).
 */
export function addInPieces(tally: Tally, each: (take: (piece: string) => void) => void): void {
  let carry = '';
  each((piece) => {
    const text = carry + piece;
    const cut = lastCut(text);
    if (cut === -1) carry = text;
    else {
      tally.add([text.slice(0, cut)]);
      carry = text.slice(cut);
    }
  });
  if (carry !== '') tally.add([carry]);
}

const isAsciiLetter = (c: number) => (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);

/** The last index of a space between two ASCII letters, or -1. */
function lastCut(text: string): number {
  for (let i = text.lastIndexOf(' ', text.length - 2); i > 0; i = text.lastIndexOf(' ', i - 1)) {
    if (isAsciiLetter(text.charCodeAt(i - 1)) && isAsciiLetter(text.charCodeAt(i + 1))) return i;
  }
  return -1;
}

export const TOKEN_COUNTERS = ['cl100k_base', 'chars/4'] as const;
export type TokenCounterName = (typeof TOKEN_COUNTERS)[number];

export function checkTokenCounter(name: string): TokenCounterName {
  if (!(TOKEN_COUNTERS as readonly string[]).includes(name)) throw new UsageError(`unknown token estimator '${name}' (${TOKEN_COUNTERS.join(', ')})`);
  return name as TokenCounterName;
}

/** The characters/4 heuristic, rounded up. */
export function tokensFromChars(chars: number): number {
  return Math.ceil(chars / 4);
}

/** chars/4 over all texts at once, so it equals tokensFromChars of their total length. */
export const charsPerToken: TokenCounter = {
  name: 'chars/4',
  count: (texts) => tokensFromChars(texts.reduce((n, t) => n + t.length, 0)),
  tally() {
    let chars = 0;
    return { add: (texts) => void (chars = texts.reduce((n, t) => n + t.length, chars)), total: () => tokensFromChars(chars) };
  },
};

let tokenizer: Promise<TokenCounter> | undefined;

/**
 * The BPE tokenizer, loaded once per process: cl100k_base's ranks as one serialized table (built into
 * dist/ by build.mjs from gpt-tokenizer's), opened without parsing, so a writing process pays ~1 ms
 * for it, not the ~80 ms gpt-tokenizer takes to build its maps. Counts equal gpt-tokenizer's.
 */
export function loadTokenizer(): Promise<TokenCounter> {
  tokenizer ??= import('./cl100k-ranks.js').then(
    ({ rankTable }) => {
      const bpe = bpeCounter(rankTable());
      const count = (texts: readonly string[]) => texts.reduce((n, t) => n + boundedCount(t, bpe), 0);
      return {
        name: 'cl100k_base' as const,
        count,
        tally() {
          let n = 0;
          return { add: (texts) => void (n += count(texts)), total: () => n };
        },
      } satisfies TokenCounter;
    },
    (e: Error) => {
      throw new CtxError(`the tokenizer (cl100k_base ranks) cannot load: ${e.message.split('\n')[0]}; reinstall ctx, or set ctx.tokenCount to chars/4`);
    },
  );
  return tokenizer;
}

/**
 * Byte-pair encoding is quadratic in the length of one pre-tokenized piece: 100,000 × `A` took 13 s,
 * a megabyte over ten minutes. A run of one character class (letters, punctuation, white space)
 * longer than RUN is counted in RUN-character chunks, so counting is linear whatever the input. Text
 * without such a run (every transcript of the corpus) is counted exactly as before.
 */
export const RUN = 256;
// made on first use: a pattern of Unicode classes costs a parse where it is made, and most text has no long run
let longRun: RegExp | undefined;

export function boundedCount(text: string, bpe: (t: string) => number): number {
  if (!hasLongRun(text)) return bpe(text);
  const LONG_RUN = (longRun ??= new RegExp(`\\p{L}{${RUN + 1},}|[^\\s\\p{L}\\p{N}]{${RUN + 1},}|\\s{${RUN + 1},}`, 'gu'));
  LONG_RUN.lastIndex = 0;
  let n = 0;
  let at = 0;
  for (const m of text.matchAll(LONG_RUN)) {
    if (m.index! > at) n += bpe(text.slice(at, m.index));
    const run = [...m[0]];
    for (let i = 0; i < run.length; i += RUN) n += bpe(run.slice(i, i + RUN).join(''));
    at = m.index! + m[0].length;
  }
  return at < text.length ? n + bpe(text.slice(at)) : n;
}

/** Whether some run of one class (digits aside: pieces hold at most three) is longer than RUN characters; one pass, no regex (a regex scan cost more than the tokenizer). */
function hasLongRun(text: string): boolean {
  let last = 0;
  let run = 0;
  for (let i = 0; i < text.length; i++) {
    let code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) code = text.codePointAt(i++)!;
    const k = classOf(code);
    run = k === last && k !== DIGIT ? run + 1 : 1;
    last = k;
    if (run > RUN) return true;
  }
  return false;
}

export function tokenCounter(name: TokenCounterName): Promise<TokenCounter> {
  return name === 'chars/4' ? Promise.resolve(charsPerToken) : loadTokenizer();
}
