// Character classes of cl100k_base's pre-tokenizer: letters (\p{L}), numbers (\p{N}), white space
// (\s), the rest. ASCII from a table; any other code point asked of one-class patterns once, then
// remembered (a pattern of several Unicode property classes costs a large compile per process).
export const LETTER = 1;
export const DIGIT = 2;
export const SPACE = 3;
export const OTHER = 4;

// made on the first non-ASCII character: a Unicode class costs a parse where its pattern is made
let is: { letter: RegExp; digit: RegExp; space: RegExp } | undefined;
const ASCII = Uint8Array.from({ length: 128 }, (_, c) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122) ? LETTER : c >= 48 && c <= 57 ? DIGIT : c === 32 || (c >= 9 && c <= 13) ? SPACE : OTHER);
const wide = new Map<number, number>();

/** The class of a code point (a lone surrogate is one of the rest, as a `u` pattern sees it). */
export function classOf(code: number): number {
  if (code < 128) return ASCII[code];
  let k = wide.get(code);
  if (k === undefined) {
    const ch = String.fromCodePoint(code);
    is ??= { letter: /\p{L}/u, digit: /\p{N}/u, space: /\s/u };
    k = is.letter.test(ch) ? LETTER : is.digit.test(ch) ? DIGIT : is.space.test(ch) ? SPACE : OTHER;
    wide.set(code, k);
  }
  return k;
}
