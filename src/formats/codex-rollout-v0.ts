// codex-rollout-v0: Codex CLI rollouts from before the `{timestamp, type, payload}` envelopes (Codex
// CLI up to mid-2025): a `{id, timestamp, instructions, git}` header line, then bare Responses-API
// items, with `{"record_type":"state"}` lines between turns. Stored byte for byte like v1, read by
// the same reader, and mapped field by field into codex-rollout-v1 (the field-level tier), so an
// old session can be resumed by a Codex that reads only envelopes.
import { isRecord } from '../core/neutral.js';
import { codexRollout, INJECTED, messageTexts } from './codex-rollout.js';
import type { FieldMap, StorageFormat } from './format.js';

/** The older shape's first line: an object with an id and no `type`. */
export function isLegacyHeader(line: unknown): boolean {
  return isRecord(line) && line.type === undefined && !('payload' in line) && typeof line.id === 'string';
}

const CWD = /<cwd>([^<]*)<\/cwd>/;

/**
 * Line by line: the header becomes `session_meta` (its fields, plus `cwd` from the first
 * <environment_context> and the `originator`/`cli_version` the older CLI never wrote, empty); a
 * bare item becomes a `response_item` without the `id` newer CLIs do not write (and a reasoning
 * item gets its `content: null`); a typed prompt is followed by the `user_message` event newer
 * CLIs write beside it (their session lists read it); `record_type` lines are dropped. Older
 * lines carry no time: each takes the header's, or the commit's before any header.
 */
function upgrade(entries: readonly unknown[], opts: { timestamp: string }): Uint8Array {
  const cwd = firstCwd(entries);
  let timestamp = opts.timestamp;
  const out: string[] = [];
  const line = (type: string, payload: unknown) => out.push(`${JSON.stringify({ timestamp, type, payload })}\n`);
  for (const e of entries) {
    if (!isRecord(e) || 'record_type' in e) continue;
    if (isLegacyHeader(e)) {
      if (typeof e.timestamp === 'string') timestamp = e.timestamp;
      const { id, timestamp: at, instructions, ...rest } = e;
      line('session_meta', { id, timestamp: at, cwd: cwd ?? '', originator: '', cli_version: '', instructions: instructions ?? null, ...rest });
      continue;
    }
    if ('payload' in e) {
      out.push(`${JSON.stringify(e)}\n`); // already an envelope: kept as it is
      continue;
    }
    line('response_item', item(e));
    if (e.type === 'message' && e.role === 'user') {
      const text = messageTexts(e.content).join('\n');
      if (text && !INJECTED.test(text)) line('event_msg', { type: 'user_message', message: text, images: [] });
    }
  }
  return Buffer.from(out.join(''));
}

/** The working directory of the first <environment_context> message. */
function firstCwd(entries: readonly unknown[]): string | undefined {
  for (const e of entries) {
    const found = isRecord(e) && e.type === 'message' ? CWD.exec(messageTexts(e.content).join('\n')) : null;
    if (found) return found[1];
  }
  return undefined;
}

function item(e: Record<string, unknown>): Record<string, unknown> {
  const { id: _id, ...rest } = e;
  if (rest.type !== 'reasoning' || 'content' in rest) return rest;
  const { summary, ...after } = rest;
  return { type: rest.type, summary, content: null, ...after };
}

const fieldMap: FieldMap = { to: 'codex-rollout-v1', upgrade };

// read like v1, never written: what is translated into a Codex thread is written as v1
export const codexRolloutV0: StorageFormat = { ...codexRollout, name: 'codex-rollout-v0', fieldMap, fromNeutral: undefined };
