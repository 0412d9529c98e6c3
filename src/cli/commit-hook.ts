// `ctx hook git HOOK`, as entry.ts hands it over: dist/commit.cjs, a small one-file bundle (with V8's
// code cache, dist/commit.cache) that decides whether a commit has work for ctx without loading the
// store's code; only then is dist/hook.cjs loaded for it (with dist/hook.git.cache). Most commits have
// none: no live session in the worktree, nothing queued (docs/performance.md).
import { runGitHook } from '../commands/git-hook.js';
import type { CommitWorker } from '../api/links/commit-hooks.js';
import type { HookArgs } from './hook-args.js';

/** Always 0: a hook never fails the commit. `work` loads dist/hook.cjs's `commitWorker`. */
export function runCommitHook(hook: HookArgs & { rest: string[] }, work: () => CommitWorker): Promise<number> {
  return runGitHook(hook.rest, hook.flags, process.env, async () => work());
}
