// `ctx hook git <hook> ARGS…`: run by ctx's git hooks (ctx hooks install git) in a code repository.
// It must never block or break a commit: every failure becomes one line in <store>/ctx/hook.log,
// stdout stays empty, the exit code is always 0. Loaded on entry.ts's fast path, without commander:
// dist/commit.cjs, which loads the work (dist/hook.cjs) only when there is some.
import { appendHookLog, commitHook, type CommitWorker } from '../api/links/commit-hooks.js';
import { UntrustedStoreError } from '../errors/index.js';
import type { HookFlags } from './hook.js';
import { readStdin } from './stdin.js';

const STDIN_TIMEOUT_MS = 30_000;

/** `args`: the hook's name, then what git gave it; `work` loads commit-work.ts's functions. Always 0. */
export async function runGitHook(args: string[], flags: HookFlags, env: NodeJS.ProcessEnv, work: () => Promise<CommitWorker>): Promise<number> {
  const [name = '-', ...rest] = args;
  const call: { gitdir?: string } = {};
  const log = (message: string) => {
    const line = [new Date().toISOString(), 'git', name, message.replace(/\s*\n\s*/g, ' ')].join('\t') + '\n';
    try {
      if (call.gitdir !== undefined) appendHookLog(call.gitdir, line);
    } catch {
      // nowhere to log: the commit goes on
    }
  };
  try {
    const stdin = async () => (await readStdin(STDIN_TIMEOUT_MS)).toString('utf8');
    await commitHook(name, rest, { store: flags.store, engine: flags.engine as never, env, cwd: process.cwd(), stdin, work }, call, log);
  } catch (e) {
    // a store ctx may not open is neither written to nor reported (by its code: the work's bundle has its own class)
    if (e instanceof UntrustedStoreError || (e as { code?: unknown } | null)?.code === 'UntrustedStoreError') return 0;
    log((e as Error)?.message ?? String(e));
    if (env.CTX_DEBUG === '1') process.stderr.write(`${(e as Error)?.stack}\n`);
  }
  return 0;
}
