// An exact cl100k_base token counter over a compact rank table: one hash table of byte strings in
// a single buffer, opened without parsing, so counting costs a process no tokenizer load. Counts
// equal gpt-tokenizer's countTokens (special-token strings counted as text) for every input.
import { Buffer } from 'node:buffer';
import { classOf } from './char-class.js';

/** gpt-tokenizer's rank list: index = rank; a string (valid UTF-8) or the bytes of a token that is not. */
export type RankList = readonly (string | readonly number[] | undefined)[];

/**
 * cl100k_base's pre-tokenizer (tiktoken's pattern, as gpt-tokenizer writes it, test/split.test.ts's
 * SPLIT) over text where each non-ASCII code point is one ASCII character of its class: the same
 * pattern with its Unicode classes cut down to ASCII, so it compiles small.
 */
const ASCII_SPLIT = /'(?:[sS]|[dD]|[mM]|[tT]|[lL][lL]|[vV][eE]|[rR][eE])|[^\r\nA-Za-z0-9]?[A-Za-z]+|[0-9]{1,3}| ?[^\sA-Za-z0-9]+[\r\n]*|\s+$|\s*[\r\n]|\s+(?!\S)|\s/g;
/** a code point outside ASCII: a surrogate pair, or one UTF-16 unit (a lone surrogate too) */
const WIDE = /[\ud800-\udbff][\udc00-\udfff]|[^\x00-\x7f]/g;
// by class: a character of it the pattern names nowhere else
const STAND_INS = ['', 'x', '0', '\t', '#'];

/**
 * The pieces cl100k_base's pre-tokenizer matches in `text`, in order, as [start, end) offsets handed
 * to `piece`: a pattern of several Unicode property classes costs more to compile than a hook spends counting.
 */
export function splitPieces(text: string, piece: (start: number, end: number) => void): void {
  // where each surrogate pair stood in the ASCII text, to give offsets back in the text's own units
  const pairs: number[] = [];
  const ascii = text.replace(WIDE, (ch: string, at: number) => {
    if (ch.length === 2) pairs.push(at - pairs.length);
    return STAND_INS[classOf(ch.codePointAt(0)!)];
  });
  let before = 0;
  const unit = (i: number) => {
    while (before < pairs.length && pairs[before] < i) before++;
    return i + before;
  };
  for (const m of ascii.matchAll(ASCII_SPLIT)) piece(unit(m.index!), unit(m.index! + m[0].length));
}

const MAGIC = 0x42585443; // 'CTXB'
const HEADER = 5; // magic, version, ranks, slots, blob length (uint32 each)

function fnv(bytes: Uint8Array, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ bytes[i], 0x01000193);
  return h >>> 0;
}

const fatal = new TextDecoder('utf-8', { fatal: true });
function validUtf8(bytes: Uint8Array): boolean {
  try {
    fatal.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/**
 * The table as bytes: header, then the byte offsets of each rank's token in the blob (ranks+1
 * uint32), an open-addressing hash table of ranks (-1 = empty), then the blob. A token gpt-tokenizer
 * keeps as bytes yet that is valid UTF-8 is left out: gpt-tokenizer never finds it either.
 */
export function serializeRanks(list: RankList): Uint8Array {
  const enc = new TextEncoder();
  const tokens = list.map((v) => (typeof v === 'string' ? enc.encode(v) : v ? Uint8Array.from(v) : undefined));
  const kept = tokens.map((t, i) => (t && (typeof list[i] === 'string' || !validUtf8(t)) ? t : undefined));
  let slots = 1;
  while (slots < kept.length * 2) slots <<= 1;
  const blobLen = kept.reduce((n, t) => n + (t?.length ?? 0), 0);
  const out = new Uint8Array(4 * (HEADER + kept.length + 1 + slots) + blobLen);
  const u32 = new Uint32Array(out.buffer, 0, HEADER + kept.length + 1);
  const table = new Int32Array(out.buffer, 4 * (HEADER + kept.length + 1), slots).fill(-1);
  const blob = out.subarray(4 * (HEADER + kept.length + 1 + slots));
  u32.set([MAGIC, 1, kept.length, slots, blobLen]);
  let at = 0;
  kept.forEach((t, rank) => {
    u32[HEADER + rank] = at;
    if (!t) return;
    blob.set(t, at);
    at += t.length;
    // a later rank with the same bytes replaces an earlier one, as gpt-tokenizer's Map does
    for (let s = fnv(t, 0, t.length) & (slots - 1); ; s = (s + 1) & (slots - 1)) {
      const r = table[s];
      if (r === -1 || Buffer.compare(blob.subarray(u32[HEADER + r], u32[HEADER + r + 1] ?? at), t) === 0) {
        table[s] = rank;
        break;
      }
    }
  });
  u32[HEADER + kept.length] = at;
  // offsets of ranks after the last are written in order, so u32[HEADER + r + 1] is set when read above
  return out;
}

/** A counter over serialized ranks: `count(text)` is the number of cl100k_base tokens of text. */
export function bpeCounter(bytes: Uint8Array): (text: string) => number {
  const buf = bytes.byteOffset % 4 === 0 ? bytes : bytes.slice();
  const head = new Uint32Array(buf.buffer, buf.byteOffset, HEADER);
  if (head[0] !== MAGIC || head[1] !== 1) throw new Error('not a rank table');
  const [, , ranks, slots] = head;
  const offsets = new Uint32Array(buf.buffer, buf.byteOffset + 4 * HEADER, ranks + 1);
  const table = new Int32Array(buf.buffer, buf.byteOffset + 4 * (HEADER + ranks + 1), slots);
  const blob = buf.subarray(4 * (HEADER + ranks + 1 + slots));
  const mask = slots - 1;

  function rank(b: Uint8Array, start: number, end: number): number {
    const len = end - start;
    for (let s = fnv(b, start, end) & mask; ; s = (s + 1) & mask) {
      const r = table[s];
      if (r === -1) return -1;
      const o = offsets[r];
      if (offsets[r + 1] - o !== len) continue;
      let i = 0;
      while (i < len && blob[o + i] === b[start + i]) i++;
      if (i === len) return r;
    }
  }

  const enc = new TextEncoder();
  let scratch = new Uint8Array(1024);
  const starts: number[] = [];
  const pairs: number[] = [];
  /** Byte-pair merges of one piece (tiktoken's: the lowest-ranked adjacent pair first, the leftmost on a tie). */
  function merged(b: Uint8Array, n: number): number {
    starts.length = 0;
    pairs.length = 0;
    for (let i = 0; i <= n; i++) {
      starts.push(i);
      pairs.push(i < n - 1 ? rank(b, i, i + 2) : -1);
    }
    const pairRank = (i: number) => (i + 2 < starts.length ? rank(b, starts[i], starts[i + 2]) : -1);
    while (starts.length > 1) {
      let low = -1;
      let at = -1;
      for (let i = 0; i < pairs.length - 1; i++) {
        const r = pairs[i];
        if (r !== -1 && (low === -1 || r < low)) [low, at] = [r, i];
      }
      if (at === -1) break;
      starts.splice(at + 1, 1);
      pairs.splice(at, 1);
      pairs[at] = pairRank(at);
      if (at > 0) pairs[at - 1] = pairRank(at - 1);
    }
    return starts.length - 1;
  }

  // pieces recur (words, and the chunks of a long run boundedCount cuts): their merges are remembered
  const seen = new Map<string, number>();
  return (text) => {
    let n = 0;
    splitPieces(text, (start, end) => {
      const piece = text.slice(start, end);
      let k = seen.get(piece);
      if (k === undefined) {
        if (scratch.length < piece.length * 3) scratch = new Uint8Array(piece.length * 3);
        const len = enc.encodeInto(piece, scratch).written;
        // gpt-tokenizer looks the whole piece up as a string, which a lone surrogate never matches
        k = isWellFormed(piece) && rank(scratch, 0, len) !== -1 ? 1 : merged(scratch, len);
        if (seen.size >= 20_000) seen.clear();
        seen.set(piece, k);
      }
      n += k;
    });
    return n;
  };
}

const LONE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
function isWellFormed(s: string): boolean {
  return !LONE.test(s);
}
