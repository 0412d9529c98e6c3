// An error as the CLI reports it: one line `ctx: …` on stderr (a JSON document with --json), and
// its exit code. Shared by main.ts and the fast paths (fast.ts; checkpoint in hook.ts).
import { CtxError, EXIT } from '../errors/index.js';

/** A message quoting input (a branch name with a newline, an escape sequence) stays one line, inert on a terminal. */
function oneLine(message: string): string {
  return message.replace(/[\x00-\x08\x0a-\x1f\x7f]/g, (c) => (c === '\n' ? '\\n' : c === '\r' ? '\\r' : `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`));
}

export function report(e: unknown, json: boolean): number {
  if (e instanceof CtxError) {
    process.stderr.write(json ? `${JSON.stringify(e.toJSON())}\n` : `ctx: ${oneLine(e.message)}\n`);
    if (!json && e.hint && process.stderr.isTTY) process.stderr.write(`hint: ${e.hint}\n`);
    if (process.env.CTX_DEBUG === '1') process.stderr.write(`${e.stack}\n`);
    return e.exit;
  }
  const err = e as NodeJS.ErrnoException;
  if (err?.code === 'EPIPE') return EXIT.ok;
  process.stderr.write(`ctx: internal error: ${err?.message ?? String(e)}\n`);
  if (process.env.CTX_DEBUG === '1') process.stderr.write(`${err?.stack}\n`);
  else process.stderr.write('hint: CTX_DEBUG=1 shows where\n');
  return EXIT.error;
}

/** A closed stdout (`| head`) ends the process quietly. */
export function quietOnEpipe(): void {
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(EXIT.ok);
  });
}
