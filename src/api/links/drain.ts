// Before links are read (`ctx why`, `blame`, `trace`, `log`, `show`): the code commits post-commit
// queued in the repository at hand are recorded (commit-queue.ts). With nothing queued, a few
// directory reads; the recording code is loaded only when there is something to record.
import { join } from 'node:path';
import type { RepoContext } from '../repo/repo-context.js';
import { QUEUE, drainQueue, queueNote, queuedDirs } from './commit-queue.js';
import type { Recorded } from './commit-queue.js';

/** The queues of every worktree of the repository holding `cwd`, recorded. */
export async function drainAt(ctx: RepoContext, cwd: string, env: NodeJS.ProcessEnv = process.env): Promise<Recorded[]> {
  const q = queuedDirs(cwd);
  if (q === null) return [];
  const { recorder } = await import('./commit-work.js');
  const out: Recorded[] = [];
  for (const d of q.dirs) out.push(...(await drainQueue(ctx, join(d, QUEUE), q.common, recorder(ctx, env), queueNote(ctx))));
  return out;
}

