// claude-code-v1: Claude Code transcript JSONL, bytes exactly as the runtime wrote them.
import { BadInputError } from '../errors/index.js';
import { concatBytes, contentChars, tokensFromChars, type StorageFormat } from './format.js';

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

function isMessage(e: unknown): e is { type: string; message?: { content?: unknown } } {
  const t = (e as { type?: unknown } | null)?.type;
  return t === 'user' || t === 'assistant';
}

export const claudeCode: StorageFormat = {
  name: 'claude-code-v1',
  ext: 'jsonl',
  parse(bytes, opts) {
    if (bytes.length === 0) throw new BadInputError('empty artifact: no JSONL lines');
    const lines = parseJsonLines(bytes);
    lines.forEach((l, i) => {
      if (l.value === null || typeof l.value !== 'object' || Array.isArray(l.value)) throw new BadInputError(`line ${i + 1} is not a JSON object (byte ${l.start})`);
    });
    // artifacts are joined by byte append, so each must end where a line ends
    if (bytes[bytes.length - 1] !== NL && !opts?.lastOfFile)
      throw new BadInputError(`line ${lines.length} does not end with a newline: artifacts are whole lines`);
    return lines.map((l) => l.value);
  },
  concat: concatBytes,
  count: (entries) => entries.filter(isMessage).length,
  estimateTokens: (entries) => tokensFromChars(entries.filter(isMessage).reduce((n, e) => n + contentChars(e.message?.content), 0)),
};
