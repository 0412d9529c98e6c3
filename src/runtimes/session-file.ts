// Files a runtime plug-in writes into the runtime's own places: a session an export writes where
// the runtime looks for it (named by a UUID), a settings file replaced whole; and the branch the
// exported session's capture continues on.
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { AlreadyExistsError, UsageError } from '../errors/index.js';
import { readSettingsFile, replaceSettingsFile } from './settings-file.js';
import type { Exported } from '../api/capture/runtime.js';
import type { RepoContext } from '../api/repo/repo-context.js';
import { TAIL_BYTES, tailHash, writeState } from '../store/capture-state.js';
import { refs } from '../store/refs.js';

/** Written with O_EXCL, mode 0600 as the runtimes write their own sessions: an existing one is never overwritten. */
export function writeSession(path: string, bytes: Uint8Array): void {
  mkdirSync(dirname(path), { recursive: true });
  let fd: number;
  try {
    fd = openSync(path, 'wx', 0o600);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') throw new AlreadyExistsError(`${path} already exists`, { hint: 'choose another --session-id' });
    throw e;
  }
  try {
    writeSync(fd, bytes);
  } finally {
    closeSync(fd);
  }
}

/** Replaces the file by renaming a complete copy over it: a reader never sees half of it (settings-file.ts says how). */
export function writeAtomic(path: string, text: string): void {
  replaceSettingsFile(readSettingsFile(path), text);
}

/** An exported session's id: a UUID, as every runtime names its sessions (`why`: what the runtime says of others). */
export function checkSessionUuid(id: string, why = ''): string {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) throw new UsageError(`--session-id must be a UUID${why}: ${id}`);
  return id;
}

/**
 * The exported session's own branch (`branch`, the runtime's name for the session's), made at the
 * exported commit, with the hook's position at the end of the file written at `path`: the hook then
 * captures the resumed session's new turns onto it, forked from the exported commit, instead of the
 * whole file onto a new root. A session id given twice (another --dir): its branch stays as it is.
 */
export function trackExportedFile(ctx: RepoContext, e: Exported, path: string, branch: string): string | undefined {
  const tip = e.commit.slice('ctx-'.length);
  if (ctx.refs.read(refs.branch(branch)) !== null) return undefined;
  ctx.refs.update(refs.branch(branch), tip, null);
  const len = Math.min(TAIL_BYTES, e.bytes.length);
  writeState(ctx.gitdir, e.sessionId, { v: 1, branch, tip, offset: e.bytes.length, tail_sha256: tailHash(e.bytes.subarray(e.bytes.length - len)), tail_len: len, transcript: path, session: e.sessionId });
  return branch;
}
