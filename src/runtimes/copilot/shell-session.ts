// The Copilot CLI session whose shell tool runs this process: Copilot puts the session's id in its
// commands' environment (COPILOT_AGENT_SESSION_ID, seen in 1.0.102) and its home in COPILOT_HOME;
// the session's events.jsonl names its cwd in the session.start event.
import type { LiveInfo } from '../../api/capture/live.js';
import { isRecord } from '../../core/neutral.js';
import { headObjects } from '../transcript-head.js';
import { sessionBranch } from './names.js';
import { copilotHome, eventsFile } from './paths.js';
import { SHELL_ENV } from './shell-env.js';

export function shellSession(env: NodeJS.ProcessEnv): (LiveInfo & { session: string; cwd: string }) | null {
  const id = env[SHELL_ENV[0]];
  if (!id) return null;
  const transcript = eventsFile(copilotHome(env), id);
  if (transcript === null) return null;
  const start = headObjects(transcript).find((o) => o.type === 'session.start' || o.type === 'session.resume');
  const context = isRecord(start?.data) ? start.data.context : undefined;
  const cwd = isRecord(context) && typeof context.cwd === 'string' ? context.cwd : undefined;
  return cwd ? { session: id, cwd, branch: sessionBranch(id), transcript } : null;
}
