// Standard input read to its end through a stream: a pipe whose writer is slow (input that arrives
// after 0.1 s) or a non-blocking descriptor is waited for, never lost to EAGAIN as a synchronous read loses it.

/** All of stdin; with `timeoutMs`, a writer that never closes it is given up on (the hook must end). */
export function readStdin(timeoutMs = 0): Promise<Buffer> {
  return new Promise((done, fail) => {
    const chunks: Buffer[] = [];
    const stdin = process.stdin;
    const timer =
      timeoutMs > 0
        ? setTimeout(() => {
            stdin.destroy();
            fail(new Error(`stdin did not end within ${timeoutMs / 1000} s`));
          }, timeoutMs)
        : undefined;
    stdin.on('data', (c: Buffer) => chunks.push(c));
    stdin.once('end', () => {
      clearTimeout(timer);
      done(Buffer.concat(chunks));
    });
    stdin.once('error', (e) => {
      clearTimeout(timer);
      fail(e);
    });
  });
}
