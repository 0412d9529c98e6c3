// Splits a Gemini CLI JSONL session into the segments that become context commits: one delta per
// user prompt and what answered it (the metadata record and updates before the first prompt join
// it), one compaction per compression: the `$set` of messages that starts with its summary. Pure:
// bytes in, byte ranges out, so gemini-cli-jsonl-v1 stores every segment's bytes unchanged.
import { parseJsonLines } from '../../formats/jsonl.js';
import { contentText, partsOf } from '../../formats/gemini-messages.js';
import { isRecord } from '../../core/neutral.js';
import type { Segment } from '../../api/capture/capture.js';
import { summaryLine, type SplitLine } from '../transcript.js';

export interface SessionSegment extends Segment {
  lines: number;
  /** the metadata record's sessionId, when the segment holds it */
  sessionId?: string;
}

type Line = SplitLine<'prompt' | 'compression' | 'other'> & { sessionId?: string };

// User records Gemini CLI writes itself: the environment it starts with, hook context.
const INJECTED = /^\s*(<session_context>|<hook_context>)/;
// What Gemini CLI's compression puts after the summary it asked the model for (chatCompressionService).
const COMPRESSION_ACK = 'Got it. Thanks for the additional context!';

export function splitSession(bytes: Uint8Array): SessionSegment[] {
  const seen = new Set<string>();
  const segments: SessionSegment[] = [];
  for (const { value, start, end } of parseJsonLines(bytes)) {
    const line = classify(value, start, end, seen);
    let open = segments[segments.length - 1];
    if (line.kind === 'compression' || !open || (line.kind === 'prompt' && (open.prompt !== undefined || open.kind === 'compaction'))) {
      open = { kind: line.kind === 'compression' ? 'compaction' : 'delta', start, end, lines: 0 };
      segments.push(open);
    }
    if (line.kind === 'prompt') open.prompt = line.prompt;
    open.end = end;
    open.lines++;
    if (line.timestamp !== undefined) open.timestamp = line.timestamp;
    open.sessionId ??= line.sessionId;
  }
  return segments;
}

function classify(value: unknown, start: number, end: number, seen: Set<string>): Line {
  const line: Line = { start, end, kind: 'other', isMessage: false };
  if (!isRecord(value)) return line;
  if (typeof value.id === 'string') {
    line.isMessage = value.type === 'user' || value.type === 'gemini';
    if (typeof value.timestamp === 'string') line.timestamp = value.timestamp;
    // a later record with the same id replaces a message: it opens nothing
    const fresh = !seen.has(value.id);
    seen.add(value.id);
    const text = contentText(value.content);
    const onlyResponses = partsOf(value.content).every((p) => isRecord(p.functionResponse));
    if (fresh && value.type === 'user' && !onlyResponses && text.trim() !== '' && !INJECTED.test(text)) {
      line.kind = 'prompt';
      line.prompt = summaryLine(text);
    }
  } else if (isRecord(value.$set)) {
    if (typeof value.$set.lastUpdated === 'string') line.timestamp = value.$set.lastUpdated;
    if (isCompression(value.$set.messages)) line.kind = 'compression';
  } else if (typeof value.sessionId === 'string') {
    line.sessionId = value.sessionId;
    if (typeof value.lastUpdated === 'string') line.timestamp = value.lastUpdated;
  }
  return line;
}

/** A message list that a compression wrote: a user summary answered by Gemini CLI's fixed acknowledgement. */
function isCompression(messages: unknown): boolean {
  if (!Array.isArray(messages)) return false;
  return messages.some((m, i) => isRecord(m) && m.type === 'gemini' && contentText(m.content) === COMPRESSION_ACK && isRecord(messages[i - 1]) && messages[i - 1].type === 'user');
}
