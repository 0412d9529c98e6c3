// gemini-cli-chat-v1: a Gemini CLI chat recording (~/.gemini/tmp/<hash>/chats/session-*.json), one
// whole JSON document as the runtime wrote it (pretty-printed, often without a trailing newline).
// The runtime rewrites the file whole, so every artifact is a snapshot: the last one is the context.
import { BadInputError } from '../errors/index.js';
import { geminiUsage } from './gemini-usage.js';
import { contentTexts, type StorageFormat } from './format.js';
import { geminiMessagesToNeutral, isGeminiMessage } from './gemini-messages.js';

const utf8 = new TextDecoder('utf-8', { fatal: true });

export interface GeminiChat {
  sessionId?: string;
  messages: { type?: string; content?: unknown; timestamp?: string }[];
  lastUpdated?: string;
  startTime?: string;
}

export function parseGeminiChat(bytes: Uint8Array): GeminiChat {
  let value: unknown;
  try {
    value = JSON.parse(utf8.decode(bytes));
  } catch (e) {
    throw new BadInputError(`not a JSON document: ${(e as Error).message}`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value) || !Array.isArray((value as { messages?: unknown }).messages))
    throw new BadInputError('not a Gemini CLI chat: no "messages" array');
  return value as GeminiChat;
}

export const geminiChat: StorageFormat = {
  name: 'gemini-cli-chat-v1',
  ext: 'json',
  runtime: 'gemini-cli',
  usage: geminiUsage,
  parse: (bytes) => parseGeminiChat(bytes).messages,
  concat: (parts) => {
    if (parts.length === 0) throw new BadInputError('nothing to concatenate');
    return parts[parts.length - 1];
  },
  concatRule: 'snapshot',
  count: (entries) => entries.filter(isGeminiMessage).length,
  tokenTexts: (entries) => entries.filter(isGeminiMessage).flatMap((m) => contentTexts(m.content)),
  toNeutral: geminiMessagesToNeutral,
};
