// Files a runtime plug-in writes into the runtime's own places: a session an export writes where
// the runtime looks for it (named by a UUID), a settings file replaced whole.
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { AlreadyExistsError, UsageError } from '../errors/index.js';
import { readSettingsFile, replaceSettingsFile } from './settings-file.js';

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
