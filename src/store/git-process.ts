// Running the git binary on a context repo: its environment, its errors, and a run to completion.
import type { ChildProcess, SpawnOptions, SpawnSyncOptionsWithStringEncoding, SpawnSyncReturns } from 'node:child_process';
import { closeSync, fstatSync, openSync, readSync, rmSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Writable } from 'node:stream';

// Variables that would point git somewhere else than `gitdir`, or (replace refs) make it disagree with isomorphic-git.
const DROPPED_ENV = ['GIT_WORK_TREE', 'GIT_INDEX_FILE', 'GIT_OBJECT_DIRECTORY', 'GIT_ALTERNATE_OBJECT_DIRECTORIES', 'GIT_COMMON_DIR', 'GIT_NAMESPACE'];

/**
 * Prepended to every git ctx runs, over whatever a store's config (or what it includes) says: git runs
 * no hook and no fsmonitor from a store, and no `ext::` command (docs/security.md lists the rest).
 */
export const SAFE_CONFIG: readonly string[] = ['-c', 'core.hooksPath=/dev/null', '-c', 'core.fsmonitor=false', '-c', 'protocol.ext.allow=never', '-c', 'core.pager=cat'];

/** node:child_process, loaded on the first git run: with the net and stream modules it pulls in, ~10 ms a hook that runs no git would pay. */
let childProcess: typeof import('node:child_process') | undefined;
const cp = () => (childProcess ??= createRequire(import.meta.url)('node:child_process') as typeof import('node:child_process'));

/** The one way ctx starts git: with SAFE_CONFIG before `args`. */
export function spawnGit(args: readonly string[], opts: SpawnOptions): ChildProcess {
  return cp().spawn('git', [...SAFE_CONFIG, ...args], opts);
}

/** spawnGit, waiting for the end. */
export function spawnGitSync(args: readonly string[], opts: SpawnSyncOptionsWithStringEncoding): SpawnSyncReturns<string> {
  return cp().spawnSync('git', [...SAFE_CONFIG, ...args], opts);
}

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

/** Parts of a process's input smaller than this are joined into one write. */
const COALESCE = 1 << 18;

/**
 * Run git to completion, feeding `input` to stdin; throws with git's first stderr line on failure.
 * `spooled`: its output is long (see spoolFile).
 */
export async function run(gitdir: string, args: string[], input: readonly Uint8Array[], opts: { spooled?: boolean } = {}): Promise<{ stdout: Buffer; pid: number | undefined }> {
  const spool = opts.spooled ? spoolFile() : null;
  try {
    const r = await running(gitdir, args, input, spool);
    return spool === null ? r : { ...r, stdout: readFd(spool) };
  } finally {
    if (spool !== null) closeSync(spool);
  }
}

async function running(gitdir: string, args: string[], input: readonly Uint8Array[], spool: number | null): Promise<{ stdout: Buffer; pid: number | undefined }> {
  const proc = spawnGit(args, { env: gitEnv(gitdir), stdio: ['pipe', spool ?? 'pipe', 'pipe'] });
  const out: Buffer[] = [];
  let stderr = '';
  proc.stdout?.on('data', (c: Buffer) => out.push(c));
  proc.stderr!.on('data', (c: Buffer) => void (stderr += c.toString('utf8')));
  proc.stdin!.on('error', () => {}); // an early exit is reported by the exit code below
  const exit = new Promise<number | null>((ok, fail) => {
    proc.on('error', fail);
    proc.on('close', ok);
  });
  for (let i = 0; i < input.length && proc.exitCode === null && !proc.stdin!.destroyed; ) {
    // Coalesce small parts: one write per part would cost a syscall each; a large part goes as it is, never copied.
    let size = 0;
    const batch: Uint8Array[] = [];
    while (i < input.length && size < COALESCE && !(batch.length > 0 && input[i].byteLength >= COALESCE)) size += batch[batch.push(input[i++]) - 1].byteLength;
    if (!proc.stdin!.write(batch.length === 1 ? batch[0] : Buffer.concat(batch))) await Promise.race([drained(proc.stdin!), exit]);
  }
  proc.stdin!.end();
  const code = await exit;
  if (code !== 0) {
    const err = gitError(args[0], code, stderr);
    (err as Error & { pid?: number }).pid = proc.pid;
    throw err;
  }
  return { stdout: Buffer.concat(out), pid: proc.pid };
}

/**
 * Output git writes in bulk goes to an unlinked temp file, read back in big chunks once git exits: node
 * reading a pipe gets them a kilobyte or two at a time, and those reads cost it more CPU than git
 * spends finding the objects. null (a pipe, then) when no temp file can be made.
 */
let spools = 0;
export function spoolFile(): number | null {
  const path = join(tmpdir(), `ctx-git-${process.pid}-${spools++}`);
  try {
    const fd = openSync(path, 'wx+', 0o600);
    try {
      unlinkSync(path);
    } catch {
      closeSync(fd);
      rmSync(path, { force: true });
      return null;
    }
    return fd;
  } catch {
    return null;
  }
}

/** A file's whole contents, read through its descriptor. */
function readFd(fd: number): Buffer {
  const buf = Buffer.allocUnsafe(fstatSync(fd).size);
  let got = 0;
  for (let n; got < buf.length && (n = readSync(fd, buf, got, buf.length - got, got)) > 0; ) got += n;
  return buf.subarray(0, got);
}
