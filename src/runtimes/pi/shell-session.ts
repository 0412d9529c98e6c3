// The pi session whose bash tool runs this process: ctx's extension names it in pi's environment
// (CTX_PI_SESSION_ID, CTX_PI_SESSION_FILE), which pi's bash tool passes on; the file's header names its cwd.
import type { LiveInfo } from '../../api/capture/live.js';
import { headObjects } from '../transcript-head.js';
import { sessionBranch } from './names.js';
import { SHELL_ENV } from './shell-env.js';

export function shellSession(env: NodeJS.ProcessEnv): (LiveInfo & { session: string; cwd: string }) | null {
  const [id, transcript] = SHELL_ENV.map((v) => env[v]);
  if (!id || !transcript) return null;
  let head: Record<string, unknown> | undefined;
  try {
    head = headObjects(transcript).find((o) => o.type === 'session');
  } catch {
    return null;
  }
  if (!head || head.id !== id || typeof head.cwd !== 'string' || head.cwd === '') return null;
  return { session: id, cwd: head.cwd, branch: sessionBranch(id), transcript };
}
