// The lines Claude Code writes to a session transcript, by type: how an import knows its files.
import type { Recognizer } from '../../api/capture/runtime.js';
import { isRecord } from '../../core/neutral.js';

const str = (v: unknown) => typeof v === 'string';
/** Each line type, and what a line of that type always carries (other types are tolerated, not proof). */
const SHAPES: Record<string, (e: Record<string, unknown>) => boolean> = {
  user: (e) => isRecord(e.message),
  assistant: (e) => isRecord(e.message),
  system: (e) => str(e.uuid) || str(e.subtype),
  progress: (e) => str(e.uuid),
  attachment: (e) => str(e.uuid),
  summary: (e) => str(e.summary),
  'file-history-snapshot': (e) => isRecord(e.snapshot),
  'queue-operation': (e) => str(e.operation),
  'permission-mode': (e) => str(e.permissionMode),
  'last-prompt': (e) => str(e.sessionId),
  'custom-title': (e) => str(e.sessionId),
};

export const recognizer: Recognizer = {
  kind: 'Claude Code transcript',
  claims: (v, document) => !document && isRecord(v) && str(v.type) && Object.hasOwn(SHAPES, v.type as string) && SHAPES[v.type as string](v),
};
