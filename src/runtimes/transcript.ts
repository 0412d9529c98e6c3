// What every runtime's import shares: reading the file, the summary line of a prompt, and
// turning byte-range segments of a transcript into a chain (every byte in exactly one artifact).
import { basename } from 'node:path';
import { BadInputError, ConflictError } from '../errors/index.js';
import type { Position, Segment, Stream, StreamReport } from '../api/capture/capture.js';
import { readRange, readTranscript } from '../api/read/files.js';
import type { RepoContext } from '../api/repo/repo-context.js';
import type { ImportOptions, ImportResult } from '../api/capture/runtime.js';
import { writeChain, type LazyChainItem } from '../api/write/write.js';
import { lockSession } from '../store/capture-state.js';
import { refs } from '../store/refs.js';
import { firstLine, requestText } from '../core/summary.js';

/** One transcript line as a splitter classifies it; `K` names the runtime's own kinds. */
export interface SplitLine<K extends string> {
  start: number;
  end: number;
  kind: K;
  /** for a prompt: its summary line (for a compaction: what it compacted) */
  prompt?: string;
  timestamp?: string;
  isMessage: boolean;
}

/** A transcript to import; an empty one is an error, not an empty chain. */
export function readNonEmpty(file: string): Uint8Array {
  const bytes = readTranscript(file);
  if (bytes.length === 0) throw new BadInputError(`nothing to import: ${file} is empty`);
  return bytes;
}

/** A prompt's first line as the request it is (core/summary.ts), trimmed, bounded at SUMMARY_MAX characters (cut at a word). */
export function summaryLine(text: string): string {
  return firstLine(requestText(text));
}

export interface SegmentChain {
  file: string;
  /** the whole file; null: each segment is read from `file` as its commit is written, one at a time */
  bytes: Uint8Array | null;
  segments: readonly Segment[];
  session: string;
  branch: string;
  template: string;
  format: string;
  /** the commit the new branch starts at (a subagent's spawn point); none: a new root */
  onto?: string | null;
}

/** One commit per segment on a new branch. */
export async function importSegments(ctx: RepoContext, c: SegmentChain, opts: ImportOptions = {}): Promise<ImportResult> {
  // the file's name, not its path: the same transcript gives the same commit ids on any machine
  const name = basename(c.file);
  // a segment with no timestamp of its own (a summary-only file, an old rollout) takes the one before it
  let lastTime = opts.fields?.createdAt;
  const items: LazyChainItem[] = c.segments.map((s, i) => ({
    template: c.template,
    trigger: 'import',
    // no prompt (a compaction, a turn going on past one): derived from what the agent did (api/write/write.ts)
    summary: s.prompt,
    summaryFromReplies: true,
    ...opts.fields,
    session: c.session,
    type: s.kind,
    createdAt: (lastTime = validTime(s.timestamp) ?? lastTime),
    source: { file: name, offset: s.start, length: s.end - s.start },
    artifact: c.bytes ? c.bytes.subarray(s.start, s.end) : () => readRange(c.file, s.start, s.end),
    lastOfFile: i === c.segments.length - 1,
  }));
  const bytes = c.bytes?.length ?? c.segments.at(-1)?.end ?? 0;
  const onto = c.onto ?? null;
  if (onto === null) return { branch: c.branch, session: c.session, bytes, commits: await writeChain(ctx, c.branch, c.format, items, (n) => opts.onProgress?.(n, items.length)) };
  // the branch starts where the chain forks; it is removed again when the chain cannot be written
  const ref = refs.branch(c.branch);
  ctx.refs.update(ref, onto, null);
  let commits;
  try {
    commits = await writeChain(ctx, c.branch, c.format, items, (n) => opts.onProgress?.(n, items.length), onto);
  } catch (e) {
    if (ctx.refs.read(ref) === onto) ctx.refs.delete(ref, onto);
    throw e;
  }
  return { branch: c.branch, session: c.session, bytes, commits };
}

/**
 * A re-import: what is new in a transcript past its branch's tip, written as the hook's capture writes
 * it, holding the session's capture lock as the hook holds it (never beside a hook's capture).
 */
export async function recapture(ctx: RepoContext, session: string, stream: Stream, known?: Position): Promise<StreamReport> {
  const release = lockSession(ctx.gitdir, session);
  if (!release) throw new ConflictError(`a ctx hook is capturing session ${session}; import again when it is done`);
  try {
    // loaded by a re-import only: the splitters that import this file need none of it
    const { captureStream } = await import('../api/capture/capture.js');
    return await captureStream(ctx, stream, { session, trigger: 'import', final: true, strict: true }, known);
  } finally {
    release();
  }
}

function validTime(t: string | undefined): string | undefined {
  return t !== undefined && !Number.isNaN(Date.parse(t)) ? t : undefined;
}
