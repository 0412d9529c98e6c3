// What Gemini CLI writes: a session (JSONL: a header naming the session, then message records and
// `$set` updates), or an older chat (one JSON document with its messages). How an import knows its files.
import type { Recognizer } from '../../api/capture/runtime.js';
import { isRecord } from '../../core/neutral.js';

const RECORDS = new Set(['user', 'gemini', 'info', 'error', 'warning']);
const str = (v: unknown) => typeof v === 'string';

const header = (v: Record<string, unknown>) => str(v.sessionId) && !('type' in v) && !('id' in v) && (str(v.projectHash) || str(v.startTime));
const record = (v: Record<string, unknown>) => str(v.id) && str(v.type) && RECORDS.has(v.type as string) && 'content' in v && !('message' in v);
const chat = (v: Record<string, unknown>) => Array.isArray(v.messages) && (str(v.sessionId) || str(v.projectHash) || str(v.startTime));

export const recognizer: Recognizer = {
  kind: 'Gemini CLI session',
  claims: (v, document) => isRecord(v) && (document ? chat(v) : header(v) || record(v) || isRecord(v.$set)),
};
