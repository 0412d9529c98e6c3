// Token estimation: a BPE tokenizer (gpt-tokenizer, cl100k_base) loaded only when asked for, and the
// characters/4 heuristic, which meta.json's token_count uses (it is part of every commit id, and the
// hook must not load 1 MB of ranks per checkpoint).

/** Counts the tokens of a message's texts, taken together. */
export interface TokenCounter {
  /** `cl100k_base` or `chars/4` */
  readonly name: string;
  count(texts: readonly string[]): number;
}

/** The characters/4 heuristic, rounded up. */
export function tokensFromChars(chars: number): number {
  return Math.ceil(chars / 4);
}

/** chars/4 over all texts at once, so it equals tokensFromChars of their total length. */
export const charsPerToken: TokenCounter = {
  name: 'chars/4',
  count: (texts) => tokensFromChars(texts.reduce((n, t) => n + t.length, 0)),
};

let tokenizer: Promise<TokenCounter> | undefined;

/** The BPE tokenizer, loaded once (its ranks ship inside the package); chars/4 when it cannot load. */
export function loadTokenizer(): Promise<TokenCounter> {
  tokenizer ??= import('gpt-tokenizer/encoding/cl100k_base').then(
    ({ countTokens }) => {
      // special-token strings in a transcript (`<|endoftext|>`) are text, not an error
      const opts = { disallowedSpecial: new Set<string>() };
      return { name: 'cl100k_base', count: (texts: readonly string[]) => texts.reduce((n, t) => n + countTokens(t, opts), 0) };
    },
    () => charsPerToken,
  );
  return tokenizer;
}
