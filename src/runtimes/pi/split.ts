// Splits a pi session into the segments that become context commits: one delta per user prompt and
// what answered it (the header and settings entries before the first prompt join it), one compaction
// per `compaction` entry (with what follows it up to the next prompt). Pure: bytes in, byte ranges
// out, so pi-session-v3 stores every segment's bytes unchanged.
import { parseJsonLines } from '../../formats/jsonl.js';
import { isRecord } from '../../core/neutral.js';
import type { Segment } from '../../api/capture/capture.js';
import { summaryLine, type SplitLine } from '../transcript.js';

// no `lines`: a compaction entry is whole on its own (its summary is in it), never held back for a next line
export interface SessionSegment extends Segment {
  /** the header's session id, when the segment holds it */
  sessionId?: string;
}

type Line = SplitLine<'prompt' | 'compaction' | 'other'> & { sessionId?: string };

export function splitSession(bytes: Uint8Array): SessionSegment[] {
  const segments: SessionSegment[] = [];
  for (const { value, start, end } of parseJsonLines(bytes)) {
    const line = classify(value, start, end);
    let open = segments[segments.length - 1];
    if (line.kind === 'compaction' || !open || (line.kind === 'prompt' && (open.prompt !== undefined || open.kind === 'compaction'))) {
      open = { kind: line.kind === 'compaction' ? 'compaction' : 'delta', start, end };
      segments.push(open);
    }
    if (line.kind === 'prompt') open.prompt = line.prompt;
    open.end = end;
    if (line.timestamp !== undefined) open.timestamp = line.timestamp;
    open.sessionId ??= line.sessionId;
  }
  return segments;
}

/** A user message's text: its string, or its text parts joined. */
export function userText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((p) => (isRecord(p) && p.type === 'text' && typeof p.text === 'string' ? p.text : '')).join('');
}

function classify(value: unknown, start: number, end: number): Line {
  const line: Line = { start, end, kind: 'other', isMessage: false };
  if (!isRecord(value)) return line;
  if (typeof value.timestamp === 'string') line.timestamp = value.timestamp;
  if (value.type === 'session' && typeof value.id === 'string') line.sessionId = value.id;
  else if (value.type === 'compaction') line.kind = 'compaction';
  else if (value.type === 'message' && isRecord(value.message)) {
    line.isMessage = true;
    const text = value.message.role === 'user' ? userText(value.message.content) : '';
    if (text.trim() !== '') [line.kind, line.prompt] = ['prompt', summaryLine(text)];
  }
  return line;
}
