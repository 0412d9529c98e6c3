// codex-rollout-v1: Codex CLI rollout JSONL, bytes exactly as the runtime wrote them. Two line shapes:
// `{timestamp, type, payload}` envelopes (session_meta, response_item, event_msg, turn_context,
// compacted; Codex 0.3x on) and, before them, bare response items after a `{id, timestamp, …}` header.
import { parseObjectLines } from './jsonl.js';
import { concatBytes, tokensFromChars, type StorageFormat } from './format.js';


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
  parse: parseObjectLines,
  concat: concatBytes,
  count: (entries) => entries.filter((e) => rolloutMessage(e) !== undefined).length,
  estimateTokens: (entries) => tokensFromChars(entries.reduce((n: number, e) => n + messageChars(rolloutMessage(e)?.content), 0)),
};
