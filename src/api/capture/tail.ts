// The end of a transcript a runtime is still writing, read the way a hook must read someone else's
// file: synchronously (node's promise-based files would load fs/promises and readline on every hook)
// and without blocking, so a FIFO named as the transcript cannot hang the hook; and the bounded wait
// of a hook whose runtime writes its transcript in the background.
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
    const buf = readAt(fd, st.size - n, n);
    // the window's first line is whole only when the window starts the file
    const start = n === st.size ? 0 : buf.indexOf(10) + 1;
    return start === 0 && n !== st.size ? [''] : buf.toString('utf8', start).split('\n');
  } finally {
    closeSync(fd);
  }
}

/** `length` bytes of an open file from `position` (fewer at its end). */
export function readAt(fd: number, position: number, length: number): Buffer {
  const buf = Buffer.allocUnsafe(length);
  let got = 0;
  while (got < length) {
    const n = readSync(fd, buf, got, length - got, position + got);
    if (n === 0) break;
    got += n;
  }
  return buf.subarray(0, got);
}

/** Polls every 20 ms until `done()` holds, `ms` have passed, or `over()` (checked after each miss) says nothing more will come. */
export async function waitUntil(done: () => boolean, ms: number, over: () => boolean = () => false): Promise<void> {
  const until = Date.now() + ms;
  while (!done() && !over() && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
}
