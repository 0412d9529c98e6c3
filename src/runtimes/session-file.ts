// Files a runtime plug-in writes into the runtime's own places: a session an export writes where
// the runtime looks for it, a settings file replaced whole.
import { closeSync, mkdirSync, openSync, renameSync, writeFileSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { AlreadyExistsError } from '../errors/index.js';

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

/** Replaces the file by renaming a complete copy over it: a reader never sees half of it. */
export function writeAtomic(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.ctx-tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, path);
}
