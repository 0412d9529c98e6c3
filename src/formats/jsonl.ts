// JSON Lines artifacts (claude-code-v1, codex-rollout-v1): lines of JSON objects, joined by byte append.
import { isUtf8 } from 'node:buffer';
import { randomBytes } from 'node:crypto';
import { BadInputError } from '../errors/index.js';

const NL = 0x0a;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** How a line (without its newline) is parsed: a SyntaxError when it is not JSON. */
export type LineParser = (line: Uint8Array) => unknown;
const wholeLine: LineParser = (line) => JSON.parse(utf8.decode(line));

/** Each line as parsed JSON with its byte range, in order; a line that is not JSON is a BadInputError. */
function eachJsonLine(bytes: Uint8Array, each: (value: unknown, start: number, end: number) => void, parse: LineParser = wholeLine): void {
  let start = 0;
  let line = 1;
  while (start < bytes.length) {
    let nl = bytes.indexOf(NL, start);
    const end = nl === -1 ? bytes.length : nl + 1;
    if (nl === -1) nl = bytes.length;
    let value: unknown;
    try {
      value = parse(bytes.subarray(start, nl));
    } catch {
      throw new BadInputError(`line ${line} is not JSON (byte ${start})`);
    }
    each(value, start, end);
    start = end;
    line++;
  }
}

/** Each line as parsed JSON with its byte range; a line that is not JSON is a BadInputError. */
export function parseJsonLines(bytes: Uint8Array, parse?: LineParser): { value: unknown; start: number; end: number }[] {
  const out: { value: unknown; start: number; end: number }[] = [];
  eachJsonLine(bytes, (value, start, end) => out.push({ value, start, end }), parse);
  return out;
}

/**
 * The lines of a JSONL artifact, each a JSON object, the last ending in a newline (byte append
 * would glue it to the next artifact's first line); `lastOfFile` allows the file's own last line.
 * Each object goes to `each` as it is parsed, none is held: the errors are parseObjectLines's
 * (a line that is no JSON before one that is no object), thrown once every line is read. With
 * `long`, a long line's long strings are markers (LongStrings).
 */
export function eachObjectLine(bytes: Uint8Array, opts: { lastOfFile?: boolean; long?: LongStrings } | undefined, each: (entry: unknown) => void): void {
  if (bytes.length === 0) throw new BadInputError('empty artifact: no JSONL lines');
  let lines = 0;
  let notObject: BadInputError | undefined;
  eachJsonLine(bytes, (value, start) => {
    lines++;
    if (value === null || typeof value !== 'object' || Array.isArray(value)) notObject ??= new BadInputError(`line ${lines} is not a JSON object (byte ${start})`);
    else if (!notObject) each(value);
  }, opts?.long && ((line) => opts.long!.parse(line)));
  if (notObject) throw notObject;
  if (bytes[bytes.length - 1] !== NL && !opts?.lastOfFile) throw new BadInputError(`line ${lines} does not end with a newline: artifacts are whole lines`);
}

/** The parsed lines of a JSONL artifact (see eachObjectLine). */
export function parseObjectLines(bytes: Uint8Array, opts?: { lastOfFile?: boolean }): unknown[] {
  const out: unknown[] = [];
  eachObjectLine(bytes, opts, (entry) => out.push(entry));
  return out;
}

/** A JSON string longer than this many bytes is read a piece at a time, or as its head: never as one string. */
export const LONG_STRING = 1 << 20;
/** Bytes of a long string LongStrings decodes at a time. */
const PIECE = 1 << 18;
/** Bytes of a cut string parseHeads keeps: at least HEAD_CHARS characters (an escape is 6 bytes for 1). */
const HEAD = 1 << 19;
/** What a cut string keeps at least, in UTF-16 units: a string this long may have been cut. */
export const HEAD_CHARS = Math.floor(HEAD / 6) - 1;

/**
 * One JSON value (a line without its newline), parsed with each string longer than LONG_STRING
 * bytes cut to its first HEAD bytes, so a 50 MB tool result is never a 50 MB string: what reads a
 * few fields of a long line (a prompt's first line, its type) holds a bounded copy of it. The whole
 * line is still checked as JSON.parse checks it; a line that is not JSON throws a SyntaxError.
 */
export function parseHeads(bytes: Uint8Array, suffice?: (value: unknown) => boolean): unknown {
  const value = parseCut(bytes, (start) => bytes.subarray(start, cleanCut(bytes, start, start + HEAD)));
  // `suffice`: whether what its caller reads is whole in the heads; else the line is parsed whole
  return suffice && bytes.length > LONG_STRING && !suffice(value) ? JSON.parse(utf8.decode(bytes)) : value;
}

/** Whether a string parseHeads gave may be a cut head: it is as long as one. */
export const mayBeCut = (v: unknown): boolean => typeof v === 'string' && v.length >= HEAD_CHARS;

/**
 * A long line's strings as markers, their bytes read when asked for: a format whose tokenTexts give
 * strings unchanged has a long text counted a piece at a time (`pieces`), never held whole.
 */
export class LongStrings {
  private readonly prefix = `\uE000${randomBytes(8).toString('hex')}:`;
  private readonly held = new Map<string, { bytes: Uint8Array; start: number; end: number }>();
  private line: Uint8Array = new Uint8Array(0);

  /** The line parsed, each string over LONG_STRING bytes a marker standing for it. */
  parse(bytes: Uint8Array): unknown {
    this.held.clear();
    this.line = bytes;
    return parseCut(bytes, (start, end) => {
      const marker = `${this.prefix}${this.held.size}\uE001`;
      this.held.set(marker, { bytes, start, end });
      return Buffer.from(marker);
    });
  }

  /** The line parsed last, parsed whole. */
  whole(): unknown {
    return JSON.parse(utf8.decode(this.line));
  }

  /** Whether a text is, or holds, a marker of the line parsed last. */
  holds(text: string): boolean {
    return this.held.size > 0 && text.includes(this.prefix);
  }

  /** Whether a text is a marker of the line parsed last. */
  is(text: string): boolean {
    return this.held.has(text);
  }

  /** The string a marker stands for, decoded a piece of about PIECE bytes at a time. */
  pieces(marker: string, each: (piece: string) => void): void {
    const s = this.held.get(marker);
    if (!s) throw new Error(`not a marker: ${marker.slice(0, 40)}`);
    for (let at = s.start; at < s.end; ) {
      const end = s.end - at > PIECE ? cleanCut(s.bytes, at, at + PIECE) : s.end;
      const piece = utf8.decode(s.bytes.subarray(at, end));
      each(piece.includes('\\') ? (JSON.parse(`"${piece}"`) as string) : piece);
      at = end;
    }
  }
}

/** JSON.parse of a line whose strings over LONG_STRING bytes `cut` replaces (given their content's byte range), the rest checked as JSON.parse checks it. */
function parseCut(bytes: Uint8Array, cut: (start: number, end: number) => Uint8Array): unknown {
  if (bytes.length <= LONG_STRING) return JSON.parse(utf8.decode(bytes));
  if (!isUtf8(bytes)) throw new SyntaxError('not UTF-8');
  const kept: Uint8Array[] = [];
  const words = new Uint32Array(bytes.buffer, 0, bytes.buffer.byteLength >> 2);
  let from = 0;
  for (let q = bytes.indexOf(QUOTE); q !== -1; ) {
    const end = stringEnd(bytes, words, q + 1);
    if (end - q - 1 > LONG_STRING) {
      kept.push(bytes.subarray(from, q + 1), cut(q + 1, end));
      from = end;
    }
    q = bytes.indexOf(QUOTE, end + 1);
  }
  return JSON.parse(utf8.decode(from === 0 ? bytes : Buffer.concat([...kept, bytes.subarray(from)])));
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const HEX = new Uint8Array(128).map((_, c) => Number(/[0-9a-fA-F]/.test(String.fromCharCode(c))));
const ESCAPED = new Uint8Array(128).map((_, c) => Number('"\\/bfnrtu'.includes(String.fromCharCode(c))));

/** Index of the quote that ends the string whose content starts at `at`, its escapes and characters checked as JSON.parse checks them (`words`: see special). */
function stringEnd(b: Uint8Array, words: Uint32Array, at: number): number {
  for (let i = at; (i = special(b, words, i)) < b.length; ) {
    const c = b[i];
    if (c === QUOTE) return i;
    if (c < 0x20) break;
    const e = b[++i];
    if (!(e < 128 && ESCAPED[e])) break;
    if (e === 0x75) {
      for (let k = 1; k <= 4; k++) if (!(b[i + k] < 128 && HEX[b[i + k]])) throw new SyntaxError('bad escape');
      i += 4;
    }
    i++;
  }
  throw new SyntaxError('bad string');
}

const isSpecial = (c: number) => c < 0x20 || c === QUOTE || c === BACKSLASH;

/** The first byte from `i` on that is a control character, a quote or a backslash (else b.length): four bytes at a time through `words`, a view of b's buffer. */
function special(b: Uint8Array, words: Uint32Array, i: number): number {
  const off = b.byteOffset;
  for (; i < b.length && (off + i) % 4 !== 0; i++) if (isSpecial(b[i])) return i;
  for (let k = (off + i) >> 2, last = (off + b.length) >> 2; k < last; k++, i += 4) {
    const v = words[k];
    const q = v ^ 0x22222222;
    const s = v ^ 0x5c5c5c5c;
    // a byte below 0x20, or one equal to a quote or a backslash (an exact test of the four bytes at once)
    if ((((v - 0x20202020) & ~v) | ((q - 0x01010101) & ~q) | ((s - 0x01010101) & ~s)) & 0x80808080) break;
  }
  for (; i < b.length; i++) if (isSpecial(b[i])) return i;
  return b.length;
}

/** `cut` in the string content starting at `at`, moved back to the start of a character and out of any escape. */
function cleanCut(b: Uint8Array, at: number, cut: number): number {
  while ((b[cut] & 0xc0) === 0x80) cut--;
  // the escape the cut may be in starts at most 5 bytes before it; a backslash run's parity says which are escapes
  for (let i = Math.max(at, cut - 5); i < cut; i++) {
    if (b[i] !== BACKSLASH) continue;
    let run = 0;
    while (i - run - 1 >= at && b[i - run - 1] === BACKSLASH) run++;
    if (run % 2 === 0 && i + (b[i + 1] === 0x75 ? 6 : 2) > cut) return i;
  }
  return cut;
}
