// JSON Lines artifacts (claude-code-v1, codex-rollout-v1): lines of JSON objects, joined by byte append.
import { BadInputError } from '../errors/index.js';

const NL = 0x0a;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Each line as parsed JSON with its byte range, in order; a line that is not JSON is a BadInputError. */
function eachJsonLine(bytes: Uint8Array, each: (value: unknown, start: number, end: number) => void): void {
  let start = 0;
  let line = 1;
  while (start < bytes.length) {
    let nl = bytes.indexOf(NL, start);
    const end = nl === -1 ? bytes.length : nl + 1;
    if (nl === -1) nl = bytes.length;
    let value: unknown;
    try {
      value = JSON.parse(utf8.decode(bytes.subarray(start, nl)));
    } catch {
      throw new BadInputError(`line ${line} is not JSON (byte ${start})`);
    }
    each(value, start, end);
    start = end;
    line++;
  }
}

/** Each line as parsed JSON with its byte range; a line that is not JSON is a BadInputError. */
export function parseJsonLines(bytes: Uint8Array): { value: unknown; start: number; end: number }[] {
  const out: { value: unknown; start: number; end: number }[] = [];
  eachJsonLine(bytes, (value, start, end) => out.push({ value, start, end }));
  return out;
}

/**
 * The lines of a JSONL artifact, each a JSON object, the last ending in a newline (byte append
 * would glue it to the next artifact's first line); `lastOfFile` allows the file's own last line.
 * Each object goes to `each` as it is parsed, none is held: the errors are parseObjectLines's
 * (a line that is no JSON before one that is no object), thrown once every line is read.
 */
export function eachObjectLine(bytes: Uint8Array, opts: { lastOfFile?: boolean } | undefined, each: (entry: unknown) => void): void {
  if (bytes.length === 0) throw new BadInputError('empty artifact: no JSONL lines');
  let lines = 0;
  let notObject: BadInputError | undefined;
  eachJsonLine(bytes, (value, start) => {
    lines++;
    if (value === null || typeof value !== 'object' || Array.isArray(value)) notObject ??= new BadInputError(`line ${lines} is not a JSON object (byte ${start})`);
    else if (!notObject) each(value);
  });
  if (notObject) throw notObject;
  if (bytes[bytes.length - 1] !== NL && !opts?.lastOfFile) throw new BadInputError(`line ${lines} does not end with a newline: artifacts are whole lines`);
}

/** The parsed lines of a JSONL artifact (see eachObjectLine). */
export function parseObjectLines(bytes: Uint8Array, opts?: { lastOfFile?: boolean }): unknown[] {
  const out: unknown[] = [];
  eachObjectLine(bytes, opts, (entry) => out.push(entry));
  return out;
}
