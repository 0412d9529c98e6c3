// `ctx hook RUNTIME`: run by a runtime's hooks (Claude Code's). It must never block or break the agent: every
// failure becomes one line in <repo>/ctx/hook.log, stdout stays empty, the exit code is always 0.
// Loaded on a fast path without commander (src/cli/main.ts): only what a capture needs.
import { fstatSync } from 'node:fs';
import { appendHookLog, captureHook, hookLogStore, type HookCall } from '../api/capture/sessions.js';
import { UntrustedStoreError } from '../errors/index.js';
import { defineCommand } from './command.js';
import { HookInputError, readHookStdin } from './hook-stdin.js';

/** A runtime writes its hook input at once; a writer that holds stdin open this long is given up on. */
const STDIN_TIMEOUT_MS = 30_000;
/** The most hook input read (opencode's is the whole session document); $CTX_HOOK_MAX_INPUT bytes overrides it. */
export const MAX_HOOK_INPUT = 64 * 1024 * 1024;

function maxInput(env: NodeJS.ProcessEnv): number {
  const v = env.CTX_HOOK_MAX_INPUT;
  return v !== undefined && /^\d+$/.test(v) ? Number(v) : MAX_HOOK_INPUT;
}

export interface HookFlags {
  store?: string;
  engine?: string;
}

/** The whole hook process: stdin (or the JSON given as an argument) → capture → exit 0. */
export async function runHook(runtime: string | undefined, flags: HookFlags, env: NodeJS.ProcessEnv = process.env, arg?: string): Promise<number> {
  const call: HookCall = {};
  try {
    // a terminal (or another device) is no writer of hook JSON; fstat, as process.stdin would load node's net module
    if (arg === undefined && fstatSync(0).isCharacterDevice()) throw new Error(`ctx hook reads the hook JSON that ${runtime ?? 'the runtime'} writes on stdin`);
    const raw = arg ?? (await readHookStdin(STDIN_TIMEOUT_MS, maxInput(env))).toString('utf8');
    let input: unknown;
    try {
      input = JSON.parse(raw);
    } catch {
      throw new Error(`hook input is not JSON: ${raw.slice(0, 80)}`);
    }
    await captureHook(runtime ?? '', input, { store: flags.store, engine: flags.engine as never, env, cwd: process.cwd() }, call, (line) => log(call, line));
  } catch (e) {
    // a store ctx may not open is neither written to nor reported: the agent's session goes on untouched
    if (e instanceof UntrustedStoreError) return 0;
    // stdin refused unread (too large, never ended): logged in the store given or found from here, if any
    if (e instanceof HookInputError) call.gitdir = hookLogStore(flags.store, env, process.cwd());
    log(call, (e as Error)?.message ?? String(e));
    if (env.CTX_DEBUG === '1') process.stderr.write(`${(e as Error)?.stack}\n`);
    // a writer still holds stdin open: the pending read would keep the process alive
    if (e instanceof HookInputError && e.stuck) process.exit(0);
  }
  return 0;
}

/** One line: time, event, session, message. Where there is no repo to log in, stderr. */
function log(call: HookCall, message: string): void {
  const line = [new Date().toISOString(), call.event ?? '-', call.session ?? '-', message.replace(/\s*\n\s*/g, ' ')].join('\t') + '\n';
  const gitdir = call.gitdir;
  try {
    if (gitdir === undefined) throw new Error('no repo');
    appendHookLog(gitdir, line);
  } catch {
    process.stderr.write(`ctx hook: ${line}`);
  }
}

/** `ctx hook …` normally takes the fast path in main.ts; this declaration serves --help and completion. */
export default defineCommand({
  name: 'hook',
  summary: "for a runtime's hooks: read the hook JSON on stdin (or as an argument), checkpoint what is new (always exits 0)",
  args: [
    { name: 'runtime', description: 'the runtime whose hook runs it (or NAME of a ctx-runtime-NAME on PATH)', required: true, values: 'runtime:capture' },
    { name: 'input', description: "the hook JSON, when the runtime passes it as an argument (Codex's notify) instead of on stdin (Codex's hooks.json hooks)" },
  ],
  options: [],
  examples: [
    'ctx hook claude-code < hook-input.json    # as Claude Code runs it once ctx hooks install claude-code added it',
    'ctx hook codex < hook-input.json    # as Codex runs its hooks.json hooks once ctx hooks install codex added them',
    'ctx hook codex \'{"type":"agent-turn-complete","thread-id":"019a93b9-f380-7600-98ff-940e6b99603c","cwd":"/home/a/p"}\'    # as Codex runs its notify program',
    'ctx hook gemini-cli < hook-input.json     # as Gemini CLI runs it once ctx hooks install gemini-cli added it',
    'ctx hook pi < event.json    # as the extension that ctx hooks install pi writes runs it',
    'ctx hook opencode < hook-input.json     # as ctx\'s opencode plugin runs it after every turn',
    'ctx hook copilot < hook-input.json        # as Copilot CLI runs it once ctx hooks install copilot wrote its hook file',
    'ctx hook git prepare-commit-msg .git/COMMIT_EDITMSG message    # as the git hooks of ctx hooks install git run it (also post-commit, post-rewrite)',
  ],
  async run(io, [runtime, input]: [string, string?]) {
    await runHook(runtime, io.flags, io.env, input);
  },
  print() {},
});
