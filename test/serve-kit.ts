// `ctx serve` as a user starts it: the built CLI on port 0, its URL read from stdout; stopped with SIGTERM.
import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { join } from 'node:path';
import { CTX, FIXTURES, ctx, newStore } from './helpers.js';

export interface Served {
  url: string;
  proc: ChildProcess;
  stderr: () => string;
  /** SIGTERM, then its exit code and stderr */
  stop(): Promise<{ code: number | null; stderr: string }>;
}

/** `cwd`: where it starts (its code repository is the work tree there, unless --code). */
export function startServe(store: string, args: string[] = [], env: Record<string, string> = {}, cwd?: string): Promise<Served> {
  const proc = spawn(process.execPath, [CTX, 'serve', '--port', '0', ...args], { env: { ...process.env, CTX_STORE: store, ...env }, stdio: ['ignore', 'pipe', 'pipe'], cwd });
  let out = '';
  let err = '';
  proc.stderr!.on('data', (b) => (err += b));
  const exited = new Promise<number | null>((done) => proc.on('exit', (code) => done(code)));
  return new Promise((done, fail) => {
    const timer = setTimeout(() => {
      proc.kill('SIGKILL');
      fail(new Error(`ctx serve printed no URL in 10 s: ${err}`));
    }, 10_000);
    proc.stdout!.on('data', (b) => {
      out += b;
      if (!out.includes('\n')) return;
      clearTimeout(timer);
      done({
        url: out.split('\n')[0],
        proc,
        stderr: () => err,
        stop: async () => {
          proc.kill('SIGTERM');
          return { code: await exited, stderr: err };
        },
      });
    });
    proc.on('exit', (code) => {
      clearTimeout(timer);
      fail(new Error(`ctx serve exited ${code} before printing a URL: ${err}`));
    });
  });
}

/** A raw request: the path goes out exactly as given (fetch would normalize `..`). */
export function raw(url: string, path: string, method = 'GET'): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  const u = new URL(url);
  return new Promise((done, fail) => {
    const req = request({ host: u.hostname, port: u.port, path, method }, (res) => {
      let body = '';
      res.on('data', (b) => (body += b));
      res.on('end', () => done({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', fail);
    req.end();
  });
}

export const FIXED = { CTX_NOW: '2026-03-05T10:00:00.000Z', CTX_PRINCIPAL: 'alice', CTX_MACHINE: 'box' };

/** The Claude Code fixture imported as alice/auth-fix, a fork review/finding-1 from its third commit with a turn of its own, and a note. */
export function fixtureStore(): string {
  const store = newStore();
  const run = (args: string[], input?: string) => {
    const r = ctx(store, args, { env: FIXED, input });
    if (r.code !== 0) throw new Error(`ctx ${args.join(' ')}: ${r.stderr}`);
    return r.stdout;
  };
  run(['import', 'claude-code', join(FIXTURES, 'claude-code', 'compacted-session.jsonl'), '-b', 'alice/auth-fix']);
  run(['fork', 'alice/auth-fix~3', 'review/finding-1']);
  const line = `${JSON.stringify({ type: 'user', uuid: 'r-1', parentUuid: null, sessionId: 'r', timestamp: '2026-03-05T10:00:00.000Z', message: { role: 'user', content: 'Review: is the blank-line fix covered by a test?' } })}\n`;
  run(['checkpoint', '-b', 'review/finding-1', '--format', 'claude-code-v1', '-'], line);
  run(['annotate', 'alice/auth-fix', '--summary', 'blank lines no longer stop todo list', '--label', 'fixed', '--label', 'todo-cli']);
  return store;
}
