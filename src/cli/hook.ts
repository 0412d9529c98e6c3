// `ctx hook RUNTIME`, `ctx hook git HOOK` and the plain `ctx checkpoint`, as entry.ts hands them over:
// bundled into one file (dist/hook.cjs, with V8's code cache) so an agent's turn or a commit loads one
// module, not the CLI's chunks.
import { runGitHook } from '../commands/git-hook.js';
import { runHook } from '../commands/hook.js';
import type { HookArgs } from './hook-args.js';

export { runCheckpointArgs } from './checkpoint-fast.js';

/** Always 0: a hook never fails the agent or the commit. */
export function runHookArgs(hook: HookArgs): Promise<number> {
  if (hook.runtime === 'git' && hook.rest) return runGitHook(hook.rest, hook.flags, process.env);
  return runHook(hook.runtime, hook.flags, process.env, hook.input);
}
