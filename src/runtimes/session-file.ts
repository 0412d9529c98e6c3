// Writing an exported session where a runtime looks for it.
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { AlreadyExistsError } from '../errors/index.js';

/** Written with O_EXCL: an existing session is never overwritten. */
export function writeSession(path: string, bytes: Uint8Array): void {
  mkdirSync(dirname(path), { recursive: true });
  let fd: number;
  try {
    fd = openSync(path, 'wx');
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
