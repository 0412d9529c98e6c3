// Splits a Copilot CLI events.jsonl into the segments that become context commits: one delta per
// user prompt and what answered it, one compaction per successful `session.compaction_complete`. A
// segment also ends at the `hook.start` of an agentStop, preCompact or sessionEnd hook: Copilot
// writes that line, then runs the hook, so ctx's hook sees the file end there and a file captured
// turn by turn splits as the whole file does. Pure: bytes in, byte ranges out.
import { parseJsonLines } from '../../formats/jsonl.js';
import { isCompaction, isCopilotEvent } from '../../formats/copilot-messages.js';
import type { Segment } from '../../api/capture/capture.js';
import { compactionGist, compactionSummary } from '../../core/summary.js';
import { summaryLine } from '../transcript.js';

export interface SessionSegment extends Segment {
  lines: number;
  /** the session.start event's sessionId, when the segment holds it */
  sessionId?: string;
}

/** The hooks ctx's capture runs on (settings.ts installs them). */
export const CAPTURED = new Set(['agentStop', 'preCompact', 'sessionEnd']);

export function splitSession(bytes: Uint8Array): SessionSegment[] {
  const segments: SessionSegment[] = [];
  let closed = false;
  for (const { value, start, end } of parseJsonLines(bytes)) {
    const e = isCopilotEvent(value) ? value : null;
    const prompt = e?.type === 'user.message' && e.data.parentToolCallId === undefined && e.agentId === undefined && typeof e.data.content === 'string' && e.data.content.trim() !== '';
    const compaction = isCompaction(e);
    let open = segments[segments.length - 1];
    if (!open || closed || compaction || (prompt && (open.prompt !== undefined || open.kind === 'compaction'))) {
      open = { kind: compaction ? 'compaction' : 'delta', start, end, lines: 0 };
      segments.push(open);
    }
    if (prompt) open.prompt = summaryLine(e!.data.content as string);
    // a compaction says what it compacted: the gist of Copilot's summary
    if (compaction && typeof e!.data.summaryContent === 'string' && compactionGist(e!.data.summaryContent) !== '') open.prompt = compactionSummary(e!.data.summaryContent, 0);
    open.end = end;
    open.lines++;
    if (typeof e?.timestamp === 'string') open.timestamp = e.timestamp;
    closed = e?.type === 'hook.start' && CAPTURED.has(e.data.hookType as string);
    if (e?.type === 'session.start' && typeof e.data.sessionId === 'string') open.sessionId ??= e.data.sessionId;
  }
  return segments;
}
