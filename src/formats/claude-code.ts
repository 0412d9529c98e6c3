// claude-code-v1: Claude Code transcript JSONL, bytes exactly as the runtime wrote them.
import { parseObjectLines } from './jsonl.js';
import { concatBytes, contentChars, tokensFromChars, type StorageFormat } from './format.js';

function isMessage(e: unknown): e is { type: string; message?: { content?: unknown } } {
  const t = (e as { type?: unknown } | null)?.type;
  return t === 'user' || t === 'assistant';
}

export const claudeCode: StorageFormat = {
  name: 'claude-code-v1',
  ext: 'jsonl',
  parse: parseObjectLines,
  concat: concatBytes,
  count: (entries) => entries.filter(isMessage).length,
  estimateTokens: (entries) => tokensFromChars(entries.filter(isMessage).reduce((n, e) => n + contentChars(e.message?.content), 0)),
};
