// The Codex thread whose shell tool runs this process: Codex puts the thread's id in its commands'
// environment (CODEX_THREAD_ID, seen in 0.169), and the rollout under $CODEX_HOME/sessions names the
// thread's cwd in its session_meta line.
import type { LiveInfo } from '../../api/capture/live.js';
import { headObjects } from '../transcript-head.js';
import { sessionBranch } from './import.js';
import { codexHome, findRollout } from './paths.js';
import { SHELL_ENV } from './shell-env.js';

export function shellSession(env: NodeJS.ProcessEnv): (LiveInfo & { session: string; cwd: string }) | null {
  const id = env[SHELL_ENV[0]];
  if (!id || !/^[0-9a-zA-Z-]{8,64}$/.test(id)) return null;
  const home = codexHome(env);
  const transcript = findRollout(home, id);
  if (transcript === null) return null;
  const meta = headObjects(transcript).find((o) => o.type === 'session_meta');
  const payload = meta?.payload as Record<string, unknown> | undefined;
  const cwd = typeof payload?.cwd === 'string' ? payload.cwd : undefined;
  return cwd ? { session: id, cwd, branch: sessionBranch(id), transcript, input: { codex_home: home } } : null;
}
