// The lines Codex CLI writes to a rollout: `{timestamp, type, payload}` envelopes, or (before them) a
// header naming the session and `{"record_type":"state"}` lines. How an import knows its files.
import type { Recognizer } from '../../api/capture/runtime.js';
import { isRecord } from '../../core/neutral.js';
import { isLegacyHeader } from '../../formats/codex-rollout-v0.js';

const ENVELOPES = new Set(['session_meta', 'response_item', 'event_msg', 'turn_context', 'compacted', 'world_state']);

export const recognizer: Recognizer = {
  kind: 'Codex rollout',
  claims: (v, document) =>
    !document &&
    isRecord(v) &&
    ((typeof v.type === 'string' && ENVELOPES.has(v.type) && isRecord(v.payload)) ||
      v.record_type === 'state' ||
      (isLegacyHeader(v) && typeof v.timestamp === 'string' && !('sessionId' in v))),
};
