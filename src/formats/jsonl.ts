// JSON Lines artifacts (claude-code-v1, codex-rollout-v1): lines of JSON objects, joined by byte append.
import { BadInputError } from '../errors/index.js';

const NL = 0x0a;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Each line as parsed JSON with its byte range; a line that is not JSON is a BadInputError. */
export function parseJsonLines(bytes: Uint8Array): { value: unknown; start: number; end: number }[] {
  const out: { value: unknown; start: number; end: number }[] = [];
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
    out.push({ value, start, end });
    start = end;
    line++;
  }
  return out;
}

/**
 * The lines of a JSONL artifact, each a JSON object, the last ending in a newline (byte append
 * would glue it to the next artifact's first line); `lastOfFile` allows the file's own last line.
 */
export function parseObjectLines(bytes: Uint8Array, opts?: { lastOfFile?: boolean }): unknown[] {
  if (bytes.length === 0) throw new BadInputError('empty artifact: no JSONL lines');
  const lines = parseJsonLines(bytes);
  lines.forEach((l, i) => {
    if (l.value === null || typeof l.value !== 'object' || Array.isArray(l.value)) throw new BadInputError(`line ${i + 1} is not a JSON object (byte ${l.start})`);
  });
  if (bytes[bytes.length - 1] !== NL && !opts?.lastOfFile)
    throw new BadInputError(`line ${lines.length} does not end with a newline: artifacts are whole lines`);
  return lines.map((l) => l.value);
}
