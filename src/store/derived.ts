// Derived data under <repo>/ctx/ (cache, hook states and locks, the hook log) is written only into
// directories the store itself holds, never through a symbolic link someone planted there: each
// directory from ctx/ down is checked, files are created exclusively and renamed into place, and
// the log is opened with O_NOFOLLOW.
import { closeSync, constants, lstatSync, mkdirSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { CtxError } from '../errors/index.js';

/** `<gitdir>/ctx/<parts…>`, made when missing; a component that is a link (or not a directory) is refused. */
export function derivedDir(gitdir: string, ...parts: string[]): string {
  let dir = gitdir;
  for (const part of ['ctx', ...parts]) {
    dir = join(dir, part);
    try {
      mkdirSync(dir);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    const st = lstatSync(dir);
    if (st.isSymbolicLink()) throw new CtxError(`${dir} is a symbolic link: ctx writes no derived data through it`);
    if (!st.isDirectory()) throw new CtxError(`${dir} is not a directory`);
  }
  return dir;
}

/** A new file's bytes, written whole under a name made for it, then renamed over `path` (a link there is replaced, never followed). */
export function writeDerived(path: string, ...chunks: (string | Uint8Array)[]): void {
  const tmp = `${path}.${process.pid}.tmp`;
  const fd = openSync(tmp, 'wx');
  try {
    for (const c of chunks) writeSync(fd, typeof c === 'string' ? Buffer.from(c) : c);
  } catch (e) {
    closeSync(fd);
    unlinkSync(tmp);
    throw e;
  }
  closeSync(fd);
  renameSync(tmp, path);
}

/** One line appended to a log; a link in its place is refused (ELOOP). */
export function appendDerived(path: string, text: string): void {
  const fd = openSync(path, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW, 0o644);
  try {
    writeSync(fd, text);
  } finally {
    closeSync(fd);
  }
}

/** A line of `<store>/ctx/hook.log` (the runtime hooks' and the git hooks' failures); never through a link planted there. */
export function appendHookLog(gitdir: string, line: string): void {
  appendDerived(join(derivedDir(gitdir), 'hook.log'), line);
}
