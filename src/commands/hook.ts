// `ctx hook claude-code`: run by Claude Code's hooks. It must never block or break the agent: every
// failure becomes one line in <repo>/ctx/hook.log, stdout stays empty, the exit code is always 0.
// Loaded on a fast path without commander (src/cli/main.ts): only what a capture needs.
import { appendFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RepoContext } from '../api/repo-context.js';
import { initRepo, locateStore } from '../store/repo.js';
import { captureSession, checkHookInput, triggerFor, type HookInput } from '../runtimes/claude-code/hook.js';
import { lockSession } from '../runtimes/claude-code/hook-state.js';

export const HOOK_RUNTIMES = ['claude-code'];

export interface HookFlags {
  store?: string;
  engine?: string;
}

/** The whole hook process: stdin → capture → exit 0. */
export async function runHook(runtime: string | undefined, flags: HookFlags, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  let input: Partial<HookInput> = {};
  let gitdir: string | null = null;
  try {
    if (runtime !== 'claude-code') throw new Error(`unknown runtime '${runtime ?? ''}' (${HOOK_RUNTIMES.join(', ')})`);
    if (process.stdin.isTTY) throw new Error('ctx hook reads the hook JSON that Claude Code writes on stdin');
    const raw = readFileSync(0, 'utf8');
    try {
      input = JSON.parse(raw);
    } catch {
      throw new Error(`hook input is not JSON: ${raw.slice(0, 80)}`);
    }
    const hook = checkHookInput(input);
    if (triggerFor(hook) === null) return 0;
    const loc = locateStore(flags.store, env, hook.cwd || process.cwd());
    gitdir = loc.gitdir;
    if (!loc.exists) initRepo(loc.gitdir);
    const ctx = new RepoContext(loc.gitdir, { env, engine: flags.engine as never });
    const release = lockSession(loc.gitdir, hook.session_id);
    if (!release) throw new Error('another ctx hook is capturing this session; the next call catches up');
    try {
      await captureSession(ctx, hook, (line) => log(gitdir, input, line));
    } finally {
      release();
      await ctx.close();
    }
  } catch (e) {
    log(gitdir, input, (e as Error)?.message ?? String(e));
    if (env.CTX_DEBUG === '1') process.stderr.write(`${(e as Error)?.stack}\n`);
  }
  return 0;
}

/** One line: time, event, session, message. Where there is no repo to log in, stderr. */
function log(gitdir: string | null, input: Partial<HookInput>, message: string): void {
  const line = [new Date().toISOString(), input.hook_event_name ?? '-', input.session_id ?? '-', message.replace(/\s*\n\s*/g, ' ')].join('\t') + '\n';
  try {
    if (gitdir === null) throw new Error('no repo');
    mkdirSync(join(gitdir, 'ctx'), { recursive: true });
    appendFileSync(join(gitdir, 'ctx', 'hook.log'), line);
  } catch {
    process.stderr.write(`ctx hook: ${line}`);
  }
}

/** For `ctx hook` through commander (`--help` and friends take that path). */
export async function run(cli: { flags: HookFlags; env: NodeJS.ProcessEnv }, runtime: string) {
  await runHook(runtime, cli.flags, cli.env);
}
