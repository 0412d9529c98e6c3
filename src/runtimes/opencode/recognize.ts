// What opencode writes: a session as `opencode export` prints it (one JSON document, the session's
// info and its messages with their parts). How an import knows its files.
import type { Recognizer } from '../../api/capture/runtime.js';
import { isRecord } from '../../core/neutral.js';

export const recognizer: Recognizer = {
  kind: 'session as `opencode export <id>` prints it',
  claims: (v, document) => document && isRecord(v) && isRecord(v.info) && typeof v.info.id === 'string' && Array.isArray(v.messages),
};
