// Running the git binary on a context repo: its environment, its errors, and a run to completion.
import { spawn } from 'node:child_process';
import type { Writable } from 'node:stream';

// Variables that would point git somewhere else than `gitdir`, or (replace refs) make it disagree with isomorphic-git.
const DROPPED_ENV = ['GIT_WORK_TREE', 'GIT_INDEX_FILE', 'GIT_OBJECT_DIRECTORY', 'GIT_ALTERNATE_OBJECT_DIRECTORIES', 'GIT_COMMON_DIR', 'GIT_NAMESPACE'];

export function gitEnv(gitdir: string, base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...base, GIT_DIR: gitdir, GIT_NO_REPLACE_OBJECTS: '1' };
  for (const k of DROPPED_ENV) delete env[k];
  return env;
}

export function gitError(what: string, code: number | null, stderr: string): Error {
  const first = stderr.split('\n').find((l) => l.trim() !== '');
  return new Error(first ?? `git ${what} exited with ${code}`);
}

/** Wait until a full writable drains or fails; a failure is reported by the process's exit, not here. */
export function drained(stream: Writable): Promise<void> {
  const events = ['drain', 'error', 'close'];
  return new Promise((ok) => {
    const done = () => {
      for (const ev of events) stream.removeListener(ev, done);
      ok();
    };
    for (const ev of events) stream.once(ev, done);
  });
}

/** Run git to completion, feeding `input` to stdin; throws with git's first stderr line on failure. */
/** Parts of a process's input smaller than this are joined into one write. */
const COALESCE = 1 << 18;

export async function run(gitdir: string, args: string[], input: readonly Uint8Array[]): Promise<{ stdout: Buffer; pid: number | undefined }> {
  const proc = spawn('git', args, { env: gitEnv(gitdir), stdio: ['pipe', 'pipe', 'pipe'] });
  const out: Buffer[] = [];
  let stderr = '';
  proc.stdout.on('data', (c: Buffer) => out.push(c));
  proc.stderr.on('data', (c: Buffer) => void (stderr += c.toString('utf8')));
  proc.stdin.on('error', () => {}); // an early exit is reported by the exit code below
  const exit = new Promise<number | null>((ok, fail) => {
    proc.on('error', fail);
    proc.on('close', ok);
  });
  for (let i = 0; i < input.length && proc.exitCode === null && !proc.stdin.destroyed; ) {
    // Coalesce small parts: one write per part would cost a syscall each; a large part goes as it is, never copied.
    let size = 0;
    const batch: Uint8Array[] = [];
    while (i < input.length && size < COALESCE && !(batch.length > 0 && input[i].byteLength >= COALESCE)) size += batch[batch.push(input[i++]) - 1].byteLength;
    if (!proc.stdin.write(batch.length === 1 ? batch[0] : Buffer.concat(batch))) await Promise.race([drained(proc.stdin), exit]);
  }
  proc.stdin.end();
  const code = await exit;
  if (code !== 0) {
    const err = gitError(args[0], code, stderr);
    (err as Error & { pid?: number }).pid = proc.pid;
    throw err;
  }
  return { stdout: Buffer.concat(out), pid: proc.pid };
}
