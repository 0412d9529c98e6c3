// `ctx hook claude-code`: run by Claude Code's hooks. It must never block or break the agent: every
// failure becomes one line in <repo>/ctx/hook.log, stdout stays empty, the exit code is always 0.
// Loaded on a fast path without commander (src/cli/main.ts): only what a capture needs.
import { appendFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { locateRepo, openRepo } from '../api/open.js';
import { captureSession, checkHookInput, lockSession, triggerFor, type HookInput } from '../api/claude-hook.js';
import { defineCommand } from './command.js';
import { HOOK_RUNTIMES } from './runtime-names.js';

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
    const where = { store: flags.store, engine: flags.engine as never, env, cwd: hook.cwd || process.cwd(), create: true };
    gitdir = locateRepo(where).gitdir;
    const { repo } = openRepo(where);
    const release = lockSession(repo.gitdir, hook.session_id);
    try {
      if (!release) throw new Error('another ctx hook is capturing this session; the next call catches up');
      await captureSession(repo, hook, (line) => log(gitdir, input, line));
    } finally {
      release?.();
      await repo.close();
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

/** `ctx hook …` normally takes the fast path in main.ts; this declaration serves --help and completion. */
export default defineCommand({
  name: 'hook',
  summary: 'for Claude Code hooks: read the hook JSON on stdin, checkpoint what is new (always exits 0)',
  args: [{ name: 'runtime', description: 'claude-code', required: true, values: HOOK_RUNTIMES }],
  options: [],
  examples: ['ctx hook claude-code < hook-input.json    # as Claude Code runs it once ctx hooks install claude-code added it'],
  async run(io, [runtime]: [string]) {
    await runHook(runtime, io.flags, io.env);
  },
  print() {},
});
