// The first lines of a transcript, read without reading it all: where a runtime writes the session's
// working directory (and other facts of its start).
import { closeSync, openSync, readSync } from 'node:fs';

const HEAD_BYTES = 64 * 1024;

/** Each whole JSON object among the file's first 64 KiB of lines, in order; unreadable: none. */
export function headObjects(file: string): Record<string, unknown>[] {
  let text = '';
  try {
    const fd = openSync(file, 'r');
    try {
      const buf = Buffer.alloc(HEAD_BYTES);
      text = buf.subarray(0, readSync(fd, buf, 0, HEAD_BYTES, 0)).toString('utf8');
    } finally {
      closeSync(fd);
    }
  } catch {
    return [];
  }
  const out: Record<string, unknown>[] = [];
  for (const line of text.split('\n').slice(0, -1)) {
    try {
      const v = JSON.parse(line);
      if (v && typeof v === 'object' && !Array.isArray(v)) out.push(v);
    } catch {
      // not a line this reader needs
    }
  }
  return out;
}
