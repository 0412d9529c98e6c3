// Writing a file someone else may have planted links around (a runtime's settings, a code
// repository's hooks directory): a new file is created exclusively and never through a link, and a
// whole new copy is renamed over the old one, so a reader never sees half of it.
import { closeSync, constants, fchmodSync, fsyncSync, lstatSync, openSync, renameSync, unlinkSync, writeFileSync, type Stats } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';

const NEW = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

/** lstat, or null when nothing is there. */
export function lstatOrNull(path: string): Stats | null {
  try {
    return lstatSync(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
}

/** Creates `path` with `text`; it must not exist (not even as a link). `mode` null: the umask's default. */
export function writeNew(path: string, text: string, mode: number | null): void {
  const fd = openSync(path, NEW, mode ?? 0o666);
  let done = false;
  try {
    if (mode !== null) fchmodSync(fd, mode); // the umask narrowed what open gave it
    writeFileSync(fd, text);
    fsyncSync(fd);
    done = true;
  } finally {
    closeSync(fd);
    if (!done) unlinkSync(path);
  }
}

/** `text` as the whole of `path`: a new copy under a random name in its directory, renamed over it (a link at `path` is replaced, never followed). */
export function replaceWhole(path: string, text: string, mode: number | null): void {
  const tmp = join(dirname(path), `.${basename(path)}.${randomBytes(8).toString('hex')}.ctx-tmp`);
  writeNew(tmp, text, mode);
  try {
    renameSync(tmp, path);
  } catch (e) {
    unlinkSync(tmp);
    throw e;
  }
}
