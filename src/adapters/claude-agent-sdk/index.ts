// agent-ctx/claude-agent-sdk: a Claude Agent SDK `query()` captured into a ctx store in-process.
// The SDK runs Claude Code, which writes its transcript and calls back the `hooks` given in the
// options; these callbacks run the same capture `ctx hook claude-code` runs (no subprocess), so the
// chain is the transcript's bytes, split into turns. A capture never fails the agent: an error goes
// to `onError` (default: one `ctx:` line on stderr) and the query goes on.
import { appendHookLog, captureHook, type HookCall } from '../../api/capture/sessions.js';
import { claudeCode } from '../../runtimes/claude-code/index.js';

/** The hook events captured: the end of each turn (and a subagent's), before a compaction, the session's end. */
export const CAPTURED_EVENTS = ['Stop', 'SubagentStop', 'PreCompact', 'SessionEnd'] as const;
export type CapturedEvent = (typeof CAPTURED_EVENTS)[number];

/** The SDK's `HookCallback`, structurally: the hook input (session_id, transcript_path, cwd, …) → hook output. */
export type HookCallback = (input: { hook_event_name: string; session_id: string; transcript_path: string; cwd?: string }, toolUseID: string | undefined, options: { signal: AbortSignal }) => Promise<Record<string, unknown>>;
export interface HookCallbackMatcher {
  matcher?: string;
  hooks: HookCallback[];
  timeout?: number;
}
export type Hooks = Partial<Record<string, HookCallbackMatcher[]>>;

export interface CtxHooksOptions {
  /** the store's path, or an open store; default: as `ctx hook` finds it ($CTX_STORE, else `.ctx` up from the session's cwd, created when missing) */
  store?: string | { path: string };
  /** the environment the store is found and written with (default: process.env) */
  env?: NodeJS.ProcessEnv;
  /** a capture that failed (the query goes on); default: one line on stderr */
  onError?: (error: Error, event: string) => void;
}

/** The hook input fields a capture reads. */
type HookInput = Parameters<HookCallback>[0];

/** One query's capture: its hooks, and `end()` for the lines Claude Code writes after its last hook. */
export interface CtxCapture {
  hooks: Record<CapturedEvent, HookCallbackMatcher[]>;
  /** `options` with these hooks added after the user's own */
  withHooks<O extends { hooks?: Hooks }>(options: O): O;
  /**
   * Captures what the transcript holds past the last hook, as a SessionEnd would: the SDK's Claude
   * Code never calls back SessionEnd, and writes its last lines (`last-prompt`, `cost-state`) after
   * its last Stop. Call it once the query's messages are all read.
   */
  end(): Promise<void>;
}

export function ctxCapture(opts: CtxHooksOptions = {}): CtxCapture {
  const store = typeof opts.store === 'string' ? opts.store : opts.store?.path;
  const onError = opts.onError ?? ((e: Error, event: string) => process.stderr.write(`ctx: ${event} capture failed: ${e.message}\n`));
  let last: HookInput | null = null;
  const run = async (input: HookInput) => {
    const call: HookCall = {};
    try {
      await captureHook(claudeCode.name, input, { store, env: opts.env ?? process.env, cwd: input.cwd ?? process.cwd() }, call, (line) => note(call, line));
    } catch (e) {
      onError(e instanceof Error ? e : new Error(String(e)), input.hook_event_name);
    }
  };
  const capture: HookCallback = async (input) => {
    last = input;
    await run(input);
    return {};
  };
  const hooks = Object.fromEntries(CAPTURED_EVENTS.map((event) => [event, [{ hooks: [capture] }]])) as Record<CapturedEvent, HookCallbackMatcher[]>;
  return {
    hooks,
    withHooks(options) {
      const merged: Hooks = { ...options.hooks };
      for (const event of CAPTURED_EVENTS) merged[event] = [...(options.hooks?.[event] ?? []), ...hooks[event]];
      return { ...options, hooks: merged };
    },
    async end() {
      if (last !== null) await run({ ...last, hook_event_name: 'SessionEnd' });
    },
  };
}

/** The `hooks` option of `query()` that captures each turn (the lines after the last one need `ctxCapture(…).end()` or `ctxQuery`). */
export const ctxHooks = (opts: CtxHooksOptions = {}) => ctxCapture(opts).hooks;

/** The user's `query()` options with ctx's capture hooks added after their own. */
export const withCtx = <O extends { hooks?: Hooks }>(options: O, opts: CtxHooksOptions = {}): O => ctxCapture(opts).withHooks(options);

/**
 * `query(params)` with the session captured: ctx's hooks in its options, and once its messages are
 * all read (or the loop is left early) what the transcript holds past the last hook. `query` is the
 * SDK's own function, passed in: this module loads none of the SDK.
 */
export async function* ctxQuery<P extends { options?: { hooks?: Hooks } }, M>(query: (params: P) => AsyncIterable<M>, params: P, opts: CtxHooksOptions = {}): AsyncGenerator<M, void, undefined> {
  const capture = ctxCapture(opts);
  try {
    yield* query({ ...params, options: capture.withHooks(params.options ?? {}) });
  } finally {
    await capture.end();
  }
}

/** What a capture says besides failing (a transcript that no longer extends its chain forked), into the store's hook log as `ctx hook` writes it. */
function note(call: HookCall, message: string): void {
  if (call.gitdir !== undefined) appendHookLog(call.gitdir, `${[new Date().toISOString(), call.event ?? '-', call.session ?? '-', message.replace(/\s*\n\s*/g, ' ')].join('\t')}\n`);
}
