// gemini-cli-jsonl-v1: a Gemini CLI session (~/.gemini/tmp/<project>/chats/session-<time>-<id8>.jsonl,
// Gemini CLI 0.4x on), bytes exactly as the runtime appended them, joined by byte append. Lines: a
// metadata record (sessionId, projectHash, startTime, …), message records (a later record with the
// same id replaces the earlier one, in its place), `{"$set":{…}}` updates of the metadata (a
// `messages` key replaces the whole list) and `{"$rewindTo":id}` (that message and all after it are
// gone). The session is what these lines leave, as Gemini CLI's own loader reads them.
import { eachObjectLine, parseObjectLines } from './jsonl.js';
import { concatBytes, contentTexts, timestampField, type StorageFormat } from './format.js';
import { isRecord } from '../core/neutral.js';
import { geminiUsage } from './gemini-usage.js';
import { geminiMessagesToNeutral, isGeminiMessage, neutralToGeminiMessages, type GeminiRecord } from './gemini-messages.js';

export const GEMINI_JSONL_FORMAT = 'gemini-cli-jsonl-v1';

export interface GeminiSession {
  /** the metadata record, with every `$set` applied (but `messages`) */
  metadata: GeminiRecord;
  /** the messages in order, replacements and rewinds applied */
  messages: GeminiRecord[];
}

/** The session that records leave: Gemini CLI's update semantics, in order. */
export function replaySession(entries: readonly unknown[]): GeminiSession {
  let metadata: GeminiRecord = {};
  const messages = new Map<string, GeminiRecord>();
  const addAll = (list: unknown) => {
    if (Array.isArray(list)) for (const m of list) if (isRecord(m) && typeof m.id === 'string') messages.set(m.id, m);
  };
  for (const e of entries) {
    if (!isRecord(e)) continue;
    if (typeof e.$rewindTo === 'string') {
      const ids = [...messages.keys()];
      const at = ids.indexOf(e.$rewindTo);
      // a rewind to a message the session does not hold empties it, as Gemini CLI does
      for (const id of at === -1 ? ids : ids.slice(at)) messages.delete(id);
    } else if (typeof e.id === 'string') {
      messages.set(e.id, e);
    } else if (isRecord(e.$set)) {
      const { messages: list, ...rest } = e.$set;
      if (Array.isArray(list)) {
        messages.clear();
        addAll(list);
      }
      metadata = { ...metadata, ...rest };
    } else if (typeof e.sessionId === 'string') {
      const { messages: list, ...rest } = e;
      metadata = { ...metadata, ...rest };
      addAll(list);
    }
  }
  return { metadata, messages: [...messages.values()] };
}

/** The message records a line carries: itself, or the list a `$set` or metadata record holds. */
function lineMessages(e: unknown): GeminiRecord[] {
  if (isGeminiMessage(e)) return [e];
  const list = isRecord(e) ? (isRecord(e.$set) ? e.$set.messages : typeof e.sessionId === 'string' ? e.messages : undefined) : undefined;
  return Array.isArray(list) ? list.filter(isGeminiMessage) : [];
}

export const geminiJsonl: StorageFormat = {
  name: GEMINI_JSONL_FORMAT,
  ext: 'jsonl',
  runtime: 'gemini-cli',
  usage: geminiUsage,
  parse: parseObjectLines,
  eachEntry: eachObjectLine,
  concat: concatBytes,
  concatRule: 'append',
  count: (entries) => entries.filter(isGeminiMessage).length,
  tokenTexts: (entries) => entries.flatMap(lineMessages).flatMap((m) => contentTexts(m.content)),
  entryTime: timestampField,
  toNeutral: (entries) => geminiMessagesToNeutral(replaySession(entries).messages),
  fromNeutral: (messages) => Buffer.from(neutralToGeminiMessages(messages).map((r) => `${JSON.stringify(r)}\n`).join(''), 'utf8'),
  // as Gemini CLI writes its own compression: one `$set` whose `messages` replace the whole list
  // (a clear: an empty list), so the lines before it still replay to what the compaction left
  writeCompaction: (c) => Buffer.from(`${JSON.stringify({ $set: { messages: neutralToGeminiMessages(c.out.messages) } })}\n`, 'utf8'),
};
