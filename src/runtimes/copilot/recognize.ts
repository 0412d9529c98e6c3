// What Copilot CLI writes to a session's events.jsonl: events `{type, data, id, timestamp, parentId}`
// whose type is dotted (`session.start`, `user.message`, …). How an import knows its files.
import type { Recognizer } from '../../api/capture/runtime.js';
import { isRecord } from '../../core/neutral.js';

export const recognizer: Recognizer = {
  kind: 'Copilot CLI session',
  claims: (v, document) =>
    !document &&
    isRecord(v) &&
    typeof v.type === 'string' &&
    /^[a-z_]+(\.[a-z_]+)+$/.test(v.type) &&
    isRecord(v.data) &&
    typeof v.id === 'string' &&
    typeof v.timestamp === 'string' &&
    'parentId' in v,
};
