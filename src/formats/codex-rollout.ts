// codex-rollout-v1: Codex CLI rollout JSONL, bytes exactly as the runtime wrote them. Two line shapes:
// `{timestamp, type, payload}` envelopes (session_meta, response_item, event_msg, turn_context,
// compacted; Codex 0.3x on) and, before them, bare response items after a `{id, timestamp, …}` header.
import { BadInputError } from '../errors/index.js';
import { parseJsonLines } from './claude-code.js';
import { concatBytes, tokensFromChars, type StorageFormat } from './format.js';

const NL = 0x0a;

/** The Responses-API item a line carries: an envelope's `response_item` payload, or a bare item. */
export function rolloutItem(line: unknown): Record<string, unknown> | undefined {
  if (line === null || typeof line !== 'object' || Array.isArray(line)) return undefined;
  const l = line as Record<string, unknown>;
  if (l.type === 'response_item') return l.payload !== null && typeof l.payload === 'object' ? (l.payload as Record<string, unknown>) : undefined;
  if ('payload' in l) return undefined;
  return l;
}

/** A `message` item (user, assistant, developer, system). */
export function rolloutMessage(line: unknown): { role: string; content: unknown } | undefined {
  const item = rolloutItem(line);
  if (item?.type !== 'message' || typeof item.role !== 'string') return undefined;
  return { role: item.role, content: item.content };
}

/** Characters of text in a message's content blocks (input_text, output_text, text). */
export function messageChars(content: unknown): number {
  if (typeof content === 'string') return content.length;
  if (!Array.isArray(content)) return 0;
  return content.reduce((n: number, b) => n + (typeof (b as { text?: unknown })?.text === 'string' ? ((b as { text: string }).text.length) : 0), 0);
}

export const codexRollout: StorageFormat = {
  name: 'codex-rollout-v1',
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
  count: (entries) => entries.filter((e) => rolloutMessage(e) !== undefined).length,
  estimateTokens: (entries) => tokensFromChars(entries.reduce((n: number, e) => n + messageChars(rolloutMessage(e)?.content), 0)),
};
