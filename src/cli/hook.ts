// `ctx hook RUNTIME`, the plain `ctx checkpoint` and the work of `ctx hook git HOOK`, as entry.ts hands
// them over: bundled into one file (dist/hook.cjs, with V8's code cache) so an agent's turn or a commit
// loads one module, not the CLI's chunks. A git hook first runs dist/commit.cjs (commit-hook.ts), which
// calls `commitWork` here only when the commit has work.
import { runGitHook } from '../commands/git-hook.js';
import { runHook } from '../commands/hook.js';
import type { CommitWorker } from '../api/links/commit-hooks.js';
import type { HookArgs } from './hook-args.js';

export { runCheckpointArgs } from './checkpoint-fast.js';

/** commit-work.ts's, initialised when first called: a runtime's hook never runs the commit's modules. */
export const commitWorker: CommitWorker = {
  commitWork: async (job, note) => (await import('../api/links/commit-work.js')).commitWork(job, note),
  shellSession: async (name, env) => (await import('../api/links/commit-work.js')).shellSession(name, env),
};

/** Always 0: a hook never fails the agent or the commit. */
export function runHookArgs(hook: HookArgs): Promise<number> {
  if (hook.runtime === 'git' && hook.rest) return runGitHook(hook.rest, hook.flags, process.env, async () => commitWorker);
  return runHook(hook.runtime, hook.flags, process.env, hook.input);
}
