// Git on a code repository (not a store): the one way store/code/ starts it, through git-process.ts
// (SAFE_CONFIG: no hooks, no fsmonitor), with the config each caller puts first, synchronously or
// not, its output capped or not. The environment is the caller's choice: codeEnv for a repository
// read as someone else's, or the caller's own in a git hook (GIT_INDEX_FILE of a partial commit).
import { spawnGit, spawnGitSync } from '../git-process.js';

/** Variables that would point git at another repository, run a program or change what it reads. */
const ELSEWHERE = ['GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE', 'GIT_COMMON_DIR', 'GIT_OBJECT_DIRECTORY', 'GIT_ALTERNATE_OBJECT_DIRECTORIES', 'GIT_NAMESPACE', 'GIT_CONFIG_PARAMETERS', 'GIT_CONFIG_COUNT', 'GIT_EXTERNAL_DIFF'];

/** The environment git runs in for a code repository read as data: the caller's, less what would point it elsewhere. */
export function codeEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const clean: NodeJS.ProcessEnv = { ...env, GIT_NO_REPLACE_OBJECTS: '1', GIT_LITERAL_PATHSPECS: '1', GIT_TERMINAL_PROMPT: '0' };
  for (const k of ELSEWHERE) delete clean[k];
  return clean;
}

export interface CodeGitSync {
  status: number | null;
  out: string;
  err: string;
  /** the process could not start (no git) */
  error?: Error;
}

/** git in `cwd` to its end, stdout and stderr as text. */
export function codeGitSync(cwd: string, args: readonly string[], o: { env: NodeJS.ProcessEnv; input?: string; maxBuffer?: number }): CodeGitSync {
  const r = spawnGitSync(args, { cwd, env: o.env, encoding: 'utf8', input: o.input, maxBuffer: o.maxBuffer ?? 64 * 1024 * 1024, stdio: [o.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
  return { status: r.status, out: r.stdout ?? '', err: r.stderr ?? '', error: r.error };
}

export interface CodeGitRun {
  /** the exit code (null: killed, as when the output was cut) */
  code: number | null;
  out: Buffer;
  err: string;
  /** stdout went past `max`: git was stopped and `out` holds the first `max` bytes */
  cut: boolean;
}

/** git in `cwd` to its end, without blocking; `input` fed to its stdin; a process that cannot start rejects. */
export function codeGit(cwd: string, args: readonly string[], o: { env: NodeJS.ProcessEnv; input?: string; max?: number }): Promise<CodeGitRun> {
  return new Promise((done, fail) => {
    const proc = spawnGit(args, { cwd, env: o.env, stdio: [o.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let size = 0;
    let cut = false;
    proc.stdout!.on('data', (b: Buffer) => {
      if (cut) return;
      out.push(b);
      size += b.length;
      if (o.max !== undefined && size > o.max) {
        cut = true;
        proc.kill();
      }
    });
    proc.stderr!.on('data', (b: Buffer) => err.push(b));
    proc.on('error', fail);
    proc.on('close', (code) => {
      const all = Buffer.concat(out);
      done({ code, out: cut ? all.subarray(0, o.max) : all, err: Buffer.concat(err).toString('utf8'), cut });
    });
    if (o.input !== undefined) {
      proc.stdin!.on('error', () => {}); // an early exit is told by the exit code
      proc.stdin!.end(o.input);
    }
  });
}

/** git's first error line, without its `fatal: ` or `error: `; `fallback` when it printed none. */
export function firstErrorLine(err: string, fallback: string): string {
  return (err.split('\n').find((l) => l.trim() !== '') ?? fallback).replace(/^(fatal|error): /, '');
}
