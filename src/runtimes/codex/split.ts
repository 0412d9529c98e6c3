// Splits a Codex CLI rollout (JSONL bytes) into the segments that become context commits on import:
// one delta per user prompt and what answered it, one compaction per `compacted` line. Pure: bytes
// in, byte ranges out, so `codex-rollout-v1` stores every segment's bytes unchanged. Both line
// shapes: `{timestamp, type, payload}` envelopes, and the bare items of rollouts before them.

import { parseJsonLines } from '../../formats/jsonl.js';
import { INJECTED, rolloutMessage } from '../../formats/codex-rollout.js';
import { isLegacyHeader } from '../../formats/codex-rollout-v0.js';
import type { Segment } from '../../api/capture/capture.js';
import { summaryLine, type SplitLine } from '../transcript.js';
import { compactionSummary } from '../../core/summary.js';

export interface RolloutSegment extends Segment {
  lines: number;
  /** Message items (response_item/message, or bare message items). */
  messageCount: number;
}

export interface SplitRollout {
  /** session_meta's id, or the older header line's id */
  sessionId?: string;
  /** the older shape (codex-rollout-v0): a header line, then bare items */
  legacy: boolean;
  segments: RolloutSegment[];
}

// Events that open a turn. A resumed thread's settings are written just before its task_started:
// filed with the turn they open, the previous turn's commit ends where that turn did, whenever it is imported.
const TURN_OPENERS = new Set(['task_started', 'thread_settings_applied']);

type Line = SplitLine<'prompt' | 'compacted' | 'compactNotice' | 'opener' | 'other'>;

export function splitRollout(bytes: Uint8Array): SplitRollout {
  let sessionId: string | undefined;
  let legacy = false;
  const lines = parseJsonLines(bytes).map((l, i) => {
    const line = classify(l.value, l.start, l.end);
    sessionId ??= sessionOf(l.value, i);
    if (i === 0) legacy = isLegacyHeader(l.value);
    return line;
  });

  // Cuts: where each segment starts. Lines before the first prompt join the first prompt's segment.
  const cuts: { at: number; kind: RolloutSegment['kind']; prompt?: string }[] = [];
  let sawTurn = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (cuts.length === 0) cuts.push({ at: 0, kind: 'delta' });
    const open = cuts[cuts.length - 1];
    if (line.kind === 'compacted') {
      if (i > open.at) cuts.push({ at: i, kind: 'compaction', prompt: line.prompt });
      else Object.assign(open, { kind: 'compaction', prompt: line.prompt });
      while (i + 1 < lines.length && lines[i + 1].kind === 'compactNotice') i++;
      // what follows the summary continues the cut-off turn, without a prompt
      if (i + 1 < lines.length) cuts.push({ at: i + 1, kind: 'delta' });
      sawTurn = true;
      continue;
    }
    if (line.kind !== 'prompt') continue;
    if (!sawTurn || i === open.at) {
      open.prompt = line.prompt;
      sawTurn = true;
      continue;
    }
    // the lines that open a turn (task_started, turn_context, injected context) go with its prompt
    let at = i;
    while (at - 1 > open.at && lines[at - 1].kind === 'opener') at--;
    cuts.push({ at, kind: 'delta', prompt: line.prompt });
  }

  const segments = cuts.map((c, n): RolloutSegment => {
    const last = n + 1 < cuts.length ? cuts[n + 1].at : lines.length;
    const seg: RolloutSegment = { kind: c.kind, start: lines[c.at].start, end: lines[last - 1].end, lines: last - c.at, messageCount: 0 };
    if (c.prompt !== undefined) seg.prompt = c.prompt;
    for (let j = c.at; j < last; j++) {
      if (lines[j].isMessage) seg.messageCount++;
      if (lines[j].timestamp !== undefined) seg.timestamp = lines[j].timestamp;
    }
    return seg;
  });
  return { sessionId, legacy, segments };
}

function sessionOf(value: unknown, index: number): string | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const v = value as Record<string, unknown>;
  if (v.type === 'session_meta') {
    const id = (v.payload as { id?: unknown } | null)?.id;
    return typeof id === 'string' ? id : undefined;
  }
  if (index === 0 && isLegacyHeader(v)) return v.id as string;
  return undefined;
}

function classify(value: unknown, start: number, end: number): Line {
  const line: Line = { start, end, kind: 'other', isMessage: false };
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return line;
  const entry = value as Record<string, unknown>;
  if (typeof entry.timestamp === 'string') line.timestamp = entry.timestamp;
  const payload = (entry.payload ?? {}) as Record<string, unknown>;
  const message = rolloutMessage(value);
  line.isMessage = message !== undefined;
  if (entry.type === 'compacted') {
    line.kind = 'compacted';
    // its summary is no message of the neutral model: said here
    const kept = Array.isArray(payload.replacement_history) ? payload.replacement_history.filter((item) => (item as { type?: unknown } | null)?.type === 'message').length : 0;
    line.prompt = compactionSummary(typeof payload.message === 'string' ? payload.message : '', kept);
  }
  else if (entry.type === 'event_msg' && payload.type === 'context_compacted') line.kind = 'compactNotice';
  else if (entry.type === 'turn_context' || entry.type === 'world_state' || (entry.type === 'event_msg' && TURN_OPENERS.has(payload.type as string))) line.kind = 'opener';
  else if (message && message.role === 'user') {
    const text = promptText(message.content);
    if (text !== undefined && !INJECTED.test(text)) {
      line.kind = 'prompt';
      // the IDE extension puts open files first and the request after this heading
      const request = /## My request for Codex:\s*\n/.exec(text);
      line.prompt = summaryLine(request ? text.slice(request.index + request[0].length) : text);
    } else line.kind = 'opener';
  } else if (message && (message.role === 'developer' || message.role === 'system')) line.kind = 'opener';
  return line;
}

/** The first text block of a user message, or undefined when it has none. */
function promptText(content: unknown): string | undefined {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return undefined;
  for (const block of content) {
    const text = (block as { text?: unknown } | null)?.text;
    if (typeof text === 'string') return text;
  }
  return undefined;
}

