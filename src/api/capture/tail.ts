// The end of a transcript a runtime is still writing, read the way a hook must read someone else's
// file: synchronously (node's promise-based files would load fs/promises and readline on every hook)
// and without blocking, so a FIFO named as the transcript cannot hang the hook.
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';

/**
 * A file's last `max` bytes as lines, oldest first, the way `split('\n')` cuts them: the last is what
 * follows the last newline ('' when the file ends with one: a line still being written otherwise);
 * a line the window cuts at its start is left out. Null when the file is not there or is no regular file.
 */
export function tailLines(file: string, max: number): string[] | null {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch {
    return null;
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return null;
    const n = Math.min(st.size, max);
    const buf = Buffer.alloc(n);
    let got = 0;
    while (got < n) {
      const k = readSync(fd, buf, got, n - got, st.size - n + got);
      if (k === 0) break;
      got += k;
    }
    // the window's first line is whole only when the window starts the file
    const start = n === st.size ? 0 : buf.indexOf(10) + 1;
    return start === 0 && n !== st.size ? [''] : buf.toString('utf8', start, got).split('\n');
  } finally {
    closeSync(fd);
  }
}
