// Splits a Claude Code transcript (JSONL bytes) into the segments that become context commits on
// import: one delta per user prompt and what answered it, one compaction per compact_boundary.
// Pure: bytes in, byte ranges out, so `claude-code-v1` can store every segment's bytes unchanged.

import { BadInputError } from '../../errors/index.js';
import { eachLine } from '../../api/read/files.js';
import { mayBeCut, parseHeads, parseJsonLines } from '../../formats/jsonl.js';
import type { Segment } from '../../api/capture/capture.js';
import { summaryLine, type SplitLine } from '../transcript.js';
import { requestText } from '../../core/summary.js';

export interface TranscriptSegment extends Segment {
  /** Number of lines in the segment. */
  lines: number;
  /** The first `sessionId` seen in the segment. */
  sessionId?: string;
  /** Lines whose type is "user" or "assistant". */
  messageCount: number;
}

// User lines the runtime writes itself: command output echoes, interruptions, background-task
// notices. They belong to the turn they answer, so they do not start a commit.
const NOT_TYPED = /^\s*(<local-command-stdout>|<local-command-stderr>|<bash-stdout>|<bash-stderr>|<task-notification>|\[Request interrupted by user)/;
/** More than NOT_TYPED's longest tag. */
const NOT_TYPED_TAG = 64;

interface Line extends SplitLine<'prompt' | 'boundary' | 'compactSummary' | 'other'> {
  sessionId?: string;
  /** a subagent's task (a sidechain user's text): the summary of a segment no prompt opened */
  task?: string;
}

export function splitTranscript(bytes: Uint8Array): TranscriptSegment[] {
  return splitLines(readLines(bytes));
}

/**
 * The same split of a transcript file, read a line at a time (one line in memory, not the file),
 * with the file's size and its first line's byte length.
 */
export function splitTranscriptFile(file: string): { segments: TranscriptSegment[]; size: number; firstLine: number } {
  const lines: Line[] = [];
  const size = eachLine(file, (bytes, start, end) => {
    let value: unknown;
    try {
      value = parseLine(bytes[bytes.length - 1] === 0x0a ? bytes.subarray(0, -1) : bytes);
    } catch {
      throw new BadInputError(`line ${lines.length + 1} is not JSON (byte ${start})`);
    }
    lines.push(classify(value, start, end));
  });
  return { segments: splitLines(lines), size, firstLine: lines.length ? lines[0].end : 0 };
}

function splitLines(lines: Line[]): TranscriptSegment[] {
  const segments: TranscriptSegment[] = [];
  let open: TranscriptSegment | undefined;
  // Lines before the first prompt (summaries, snapshots, hook progress) join the first prompt's segment.
  let inPreamble = true;

  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line.kind === 'boundary') {
      const last = compactionEnd(lines, i);
      open = undefined;
      inPreamble = false;
      const compaction = newSegment('compaction', line);
      for (let j = i + 1; j <= last; j++) addLine(compaction, lines[j]);
      segments.push(compaction);
      i = last;
      continue;
    }
    if (line.kind === 'prompt') {
      if (open && inPreamble) {
        open.prompt = line.prompt;
        addLine(open, line);
      } else {
        open = newSegment('delta', line);
        open.prompt = line.prompt;
        segments.push(open);
      }
      inPreamble = false;
      continue;
    }
    if (open) {
      addLine(open, line);
    } else {
      open = newSegment('delta', line);
      segments.push(open);
    }
  }
  return segments;
}

/** Index of the last line of the compaction that starts at `boundary`: through its summary line(s). */
function compactionEnd(lines: Line[], boundary: number): number {
  for (let j = boundary + 1; j < lines.length; j++) {
    const kind = lines[j].kind;
    if (kind === 'prompt' || kind === 'boundary') break;
    if (kind === 'compactSummary') {
      while (j + 1 < lines.length && lines[j + 1].kind === 'compactSummary') j++;
      return j;
    }
  }
  // No summary before the next prompt: the compaction is the boundary line alone.
  return boundary;
}

function newSegment(kind: TranscriptSegment['kind'], first: Line): TranscriptSegment {
  const segment: TranscriptSegment = { kind, start: first.start, end: first.start, lines: 0, messageCount: 0 };
  addLine(segment, first);
  return segment;
}

function addLine(segment: TranscriptSegment, line: Line): void {
  segment.end = line.end;
  segment.lines++;
  if (line.isMessage) segment.messageCount++;
  if (segment.prompt === undefined && line.task !== undefined) segment.prompt = line.task;
  if (line.timestamp !== undefined) segment.timestamp = line.timestamp;
  if (segment.sessionId === undefined && line.sessionId !== undefined) segment.sessionId = line.sessionId;
}

function readLines(bytes: Uint8Array): Line[] {
  return parseJsonLines(bytes, parseLine).map((l) => classify(l.value, l.start, l.end));
}

/** A line whose long strings are read as their heads: all classify needs, unless a cut could change what it sees. */
const parseLine = (line: Uint8Array) => parseHeads(line, headsSuffice);

/**
 * Whether classify sees the same in a line whose long strings were cut to their heads (HEAD_CHARS,
 * more than REQUEST_HEAD) as in the whole line: a summary reads REQUEST_HEAD characters, and no field
 * classify compares whole (a time, a session id) is as long as a head, nor a prompt's leading white
 * space so long that NOT_TYPED's tag would start past the head.
 */
function headsSuffice(value: unknown): boolean {
  const entry = value as Record<string, unknown> | null;
  if (typeof entry !== 'object' || entry === null) return true;
  const text = promptText(entry.message);
  return !mayBeCut(entry.timestamp) && !mayBeCut(entry.sessionId) && !(mayBeCut(text) && text!.trimStart().length < NOT_TYPED_TAG);
}

function classify(value: unknown, start: number, end: number): Line {
  const line: Line = { start, end, kind: 'other', isMessage: false };
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return line;
  const entry = value as Record<string, unknown>;
  if (typeof entry.timestamp === 'string') line.timestamp = entry.timestamp;
  if (typeof entry.sessionId === 'string') line.sessionId = entry.sessionId;
  line.isMessage = entry.type === 'user' || entry.type === 'assistant';
  if (entry.type === 'system' && entry.subtype === 'compact_boundary') {
    line.kind = 'boundary';
  } else if (entry.type === 'user' && entry.isCompactSummary === true) {
    line.kind = 'compactSummary';
  } else if (entry.type === 'user' && entry.isSidechain !== true && entry.isMeta !== true) {
    const text = promptText(entry.message);
    if (text !== undefined && !NOT_TYPED.test(text)) {
      line.kind = 'prompt';
      line.prompt = summaryLine(requestBlock(entry.message) ?? text);
    }
  } else if (entry.type === 'user' && entry.isSidechain === true && entry.isMeta !== true) {
    const text = promptText(entry.message);
    if (text !== undefined && !NOT_TYPED.test(text)) line.task = summaryLine(requestBlock(entry.message) ?? text) || undefined;
  }
  return line;
}

/** The first text block that is a request, not only context the IDE or runtime added (an opened file, a selection). */
function requestBlock(message: unknown): string | undefined {
  const content = (message as { content?: unknown }).content;
  if (!Array.isArray(content)) return undefined;
  for (const block of content) {
    const text = (block as { type?: unknown; text?: unknown } | null)?.type === 'text' ? (block as { text?: unknown }).text : undefined;
    if (typeof text === 'string' && requestText(text).trim() !== '') return text;
  }
  return undefined;
}

/** The text a user typed, or undefined when the message is not a prompt (e.g. only tool results). */
function promptText(message: unknown): string | undefined {
  if (typeof message !== 'object' || message === null) return undefined;
  const content = (message as { content?: unknown }).content;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return undefined;
  for (const block of content) {
    if (typeof block === 'object' && block !== null && (block as { type?: unknown }).type === 'text') {
      const text = (block as { text?: unknown }).text;
      return typeof text === 'string' ? text : '';
    }
  }
  return undefined;
}

