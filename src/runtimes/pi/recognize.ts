// What pi writes to a session file: a `session` header (version, id, cwd), then entries of a tree,
// each with an `id` and a `parentId`. How an import knows its files.
import type { Recognizer } from '../../api/capture/runtime.js';
import { isRecord } from '../../core/neutral.js';

const ENTRIES = new Set(['message', 'model_change', 'thinking_level_change', 'compaction', 'branch_summary', 'custom', 'custom_message', 'label', 'session_info']);

const header = (v: Record<string, unknown>) => v.type === 'session' && typeof v.id === 'string' && typeof v.timestamp === 'string' && ('version' in v || 'cwd' in v);
const entry = (v: Record<string, unknown>) => typeof v.type === 'string' && ENTRIES.has(v.type) && typeof v.id === 'string' && 'parentId' in v;

export const recognizer: Recognizer = {
  kind: 'pi session',
  claims: (v, document) => !document && isRecord(v) && (header(v) || entry(v)),
};
