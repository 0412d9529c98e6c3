// Files a user names (a transcript, an artifact, a summary): read whole, by line, or by byte range,
// with one-line errors.
import { closeSync, constants, fstatSync, openSync, readFileSync, readSync } from 'node:fs';
import { BadInputError, NotFoundError } from '../../errors/index.js';

const NL = 0x0a;
const BLOCK = 1 << 20;

function cannotRead(file: string, e: unknown): Error {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return new NotFoundError(`no such file: ${file}`);
  return new BadInputError(`cannot read ${file}: ${code ?? (e as Error).message}`);
}

export function readTranscript(file: string): Uint8Array {
  try {
    return readFileSync(file);
  } catch (e) {
    throw cannotRead(file, e);
  }
}

function withFile<T>(file: string, use: (fd: number) => T): T {
  let fd;
  try {
    // non-blocking: a FIFO named as a file (a transcript path is someone else's input) cannot hang the reader
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (e) {
    throw cannotRead(file, e);
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile() && !st.isDirectory()) throw new BadInputError(`${file} is not a regular file`);
    return use(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * Each line of a file in order, with its byte range (the newline included; the last line may lack
 * it), read a block at a time: one line in memory, not the file. A line longer than a block is
 * found first, then read once whole. `line` is valid only during the call: its memory is reused
 * for the next line. Returns the file's size.
 */
export function eachLine(file: string, each: (line: Buffer, start: number, end: number) => void): number {
  return withFile(file, (fd) => {
    if (fstatSync(fd).isDirectory()) throw new BadInputError(`cannot read ${file}: EISDIR`);
    const block = Buffer.allocUnsafe(BLOCK);
    let long = Buffer.alloc(0); // the longest line yet that spans blocks: reused, not allocated again for each line
    const whole = (start: number, end: number) => {
      if (long.length < end - start) long = Buffer.allocUnsafe(end - start);
      return readAt(fd, file, start, end, long);
    };
    let at = 0; // file offset of the block
    let lineStart = 0;
    for (let n; (n = readSync(fd, block, 0, BLOCK, at)) > 0; at += n) {
      let from = lineStart - at; // < 0: the line began in an earlier block
      for (let nl = block.indexOf(NL, Math.max(from, 0)); nl !== -1 && nl < n; nl = block.indexOf(NL, from)) {
        const end = at + nl + 1;
        each(from >= 0 ? block.subarray(from, nl + 1) : whole(lineStart, end), lineStart, end);
        lineStart = end;
        from = nl + 1;
      }
    }
    if (lineStart < at) each(whole(lineStart, at), lineStart, at);
    return at;
  });
}

function readAt(fd: number, file: string, start: number, end: number, into?: Buffer): Buffer {
  const out = into ? into.subarray(0, end - start) : Buffer.allocUnsafe(end - start);
  for (let got = 0; got < out.length; ) {
    const n = readSync(fd, out, got, out.length - got, start + got);
    if (n === 0) throw new BadInputError(`${file} changed while it was read: it ends before byte ${end}`);
    got += n;
  }
  return out;
}

/** Bytes `start` to `end` of a file; a file now shorter than that changed under the reader. */
export function readRange(file: string, start: number, end: number): Buffer {
  return withFile(file, (fd) => readAt(fd, file, start, end));
}
