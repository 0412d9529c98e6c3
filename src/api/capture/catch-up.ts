// Before `ctx compact` on a chain a live transcript feeds: the transcript bytes the chain does not
// hold yet are checkpointed first, by live capture's own code, so a compaction never drops what was pending.
import { resolve } from 'node:path';
import { BadInputError, ConflictError } from '../../errors/index.js';
import { TAIL_BYTES, findState, lockSession, readState, statePath, writeState } from '../../store/capture-state.js';
import { readTranscript } from '../read/files.js';
import { captureStream, type Position, type TranscriptStream } from './capture.js';
import { readTipMeta } from '../read/context-reader.js';
import { materialize } from '../read/materialize.js';
import type { RepoContext } from '../repo/repo-context.js';
import type { WrittenCommit } from '../write/write.js';
import type { Trigger } from '../../core/meta.js';

export interface CatchUp {
  /** the catch-up commits, oldest first */
  commits: WrittenCommit[];
  /** the transcript read, when one was */
  file?: string;
  /** the hook state that follows the branch: `ctx compact` moves it onto the compaction */
  state?: { key: string; session: string };
}

/**
 * Checkpoints what `transcript` (else the file of the hook state that follows the branch) holds past
 * the chain. A named file that does not extend the chain is an error; a hook state's file that no
 * longer does is left to the hook (it forks on its next call) and the tip is compacted as it is.
 */
export async function catchUp(ctx: RepoContext, stream: TranscriptStream, branch: string, tip: string, transcript: string | undefined, note: (line: string) => void): Promise<CatchUp> {
  const named = transcript === undefined ? undefined : resolve(transcript);
  const found = findState(ctx.gitdir, branch, tip, named);
  if (found) {
    const session = found.state.session ?? found.key.replace(/\.agent-.*$/, '');
    const state = { key: found.key, session };
    const file = named ?? found.state.transcript;
    if (file === undefined) {
      note(`the hook state of ${branch} was written before ctx recorded transcript paths: give --transcript FILE to catch up first`);
      return { commits: [], state };
    }
    const start: Position = { branch, tip, offset: found.state.offset, tail: { len: found.state.tail_len, sha256: found.state.tail_sha256 }, valid: true };
    try {
      const commits = await underLock(ctx, session, () => strictCapture(ctx, stream, { key: found.key, file, session, start }));
      return { commits, file, state };
    } catch (e) {
      if (named !== undefined || e instanceof ConflictError) throw e;
      note(`${(e as Error).message}: compacting ${branch} as it is`);
      return { commits: [], state };
    }
  }
  if (named === undefined) return { commits: [] };
  return { commits: await catchUpChain(ctx, stream, branch, tip, named), file: named };
}

/** The bytes of `file` past `start`, captured as a PreCompact hook call captures them (an import: as import does); never a fork. */
async function strictCapture(ctx: RepoContext, stream: TranscriptStream, c: { key?: string; file: string; session: string; start: Position; trigger?: Trigger }): Promise<WrittenCommit[]> {
  const s = { transcript: stream, key: c.key, base: c.start.branch, file: c.file, main: true };
  const final = c.trigger === 'import';
  return (await captureStream(ctx, s, { session: c.session, trigger: c.trigger ?? 'compaction', final, strict: true }, c.start)).commits;
}

/**
 * No hook state: what the chain holds is its root materialization, which must be a prefix of the
 * file. Also a runtime's import of a later save of a file it imported (`trigger` import).
 */
export async function catchUpChain(ctx: RepoContext, stream: TranscriptStream, branch: string, tip: string, file: string, trigger?: Trigger): Promise<WrittenCommit[]> {
  const root = await materialize(ctx, tip, { stop: 'root' });
  const other = root.from.find((f) => f !== stream.format);
  if (other !== undefined) throw new BadInputError(`--transcript catches up ${stream.format} chains; ${branch} holds ${other}`);
  const bytes = readTranscript(file);
  const held = root.bytes;
  if (bytes.length < held.length || Buffer.compare(bytes.subarray(0, held.length), held) !== 0)
    throw new BadInputError(`${file} is not an extension of ${branch}: its first ${held.length} bytes are not the chain's`);
  if (bytes.length === held.length) return [];
  // the new commits carry the session of the chain's newest transcript bytes, as the hook's would
  const newest = root.commits[root.commits.length - 1];
  const session = newest === undefined ? ctx.defaults.session : (await readTipMeta(ctx, newest.replace(/^ctx-/, ''))).session_id;
  const len = Math.min(TAIL_BYTES, held.length);
  const start: Position = { branch, tip, offset: held.length, tail: { len, bytes: held.subarray(held.length - len) }, valid: true };
  return strictCapture(ctx, stream, { file, session, start, trigger });
}

/** The capture lock of a session: a hook call and a catch-up never capture the same bytes twice. */
export async function underLock<T>(ctx: RepoContext, session: string, f: () => Promise<T>): Promise<T> {
  const release = lockSession(ctx.gitdir, session);
  if (!release) throw new ConflictError(`a ctx hook is capturing session ${session}`, { hint: 'try again in a moment' });
  try {
    return await f();
  } finally {
    release();
  }
}

/** After the compaction: the hook state names the compaction commit, so the hook extends it. */
export function moveState(ctx: RepoContext, state: { key: string; session: string }, from: string, to: string): void {
  const release = lockSession(ctx.gitdir, state.session);
  // a hook holding the lock re-derives the offset from the repo, through the compaction
  if (!release) return;
  try {
    const s = readState(statePath(ctx.gitdir, state.key));
    if (s?.tip === from) writeState(ctx.gitdir, state.key, { ...s, tip: to });
  } finally {
    release();
  }
}
