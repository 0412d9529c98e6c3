// A hook's stdin, read with fs.read on descriptor 0 instead of process.stdin: the stream would load
// node's net and stream modules, a cost paid on every turn of an agent (docs/performance.md). A
// non-blocking descriptor (EAGAIN) falls back to the stream, which waits for it.
import { read } from 'node:fs';
import { CtxError } from '../errors/index.js';
import { readStdin } from './stdin.js';

/** Why a hook's stdin was not taken. `stuck`: a read is still pending, so the process must exit by itself. */
export class HookInputError extends CtxError {
  constructor(message: string, readonly stuck = false) {
    super(message);
  }
}

/** All of stdin, at most `maxBytes`; a writer that keeps it open past `timeoutMs` is given up on. */
export function readHookStdin(timeoutMs: number, maxBytes: number): Promise<Buffer> {
  return new Promise((done, fail) => {
    const chunks: Buffer[] = [];
    let total = 0;
    let over = false;
    const finish = (err: Error | null, whole?: Buffer) => {
      if (over) return;
      over = true;
      clearTimeout(timer);
      if (err) fail(err);
      else done(whole!);
    };
    const timer = setTimeout(() => finish(new HookInputError(`stdin did not end within ${timeoutMs / 1000} s`, true)), timeoutMs);
    const tooLarge = () => new HookInputError(`hook input is larger than ${maxBytes} bytes (CTX_HOOK_MAX_INPUT): not read`);
    const next = () => {
      const buf = Buffer.allocUnsafe(Math.min(Math.max(64 * 1024, total), maxBytes + 1 - total));
      read(0, buf, 0, buf.length, null, (e, n) => {
        if (over) return;
        if (e?.code === 'EAGAIN') return void readStdin(timeoutMs).then((rest) => (total + rest.length > maxBytes ? finish(tooLarge()) : finish(null, Buffer.concat([...chunks, rest]))), finish);
        if (e) return finish(e);
        if (n === 0) return finish(null, Buffer.concat(chunks, total));
        chunks.push(buf.subarray(0, n));
        total += n;
        if (total > maxBytes) return finish(tooLarge());
        next();
      });
    };
    next();
  });
}
