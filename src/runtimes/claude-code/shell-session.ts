// The Claude Code session whose Bash tool runs this process: Claude Code puts the session's id in its
// commands' environment (CLAUDE_CODE_SESSION_ID, seen in 2.1.330), and keeps its transcript at
// `<config>/projects/<encoded cwd>/<id>.jsonl`; the transcript's lines name the session's cwd.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { LiveInfo } from '../../api/capture/live.js';
import { headObjects } from '../transcript-head.js';
import { sessionBranch } from './names.js';
import { claudeConfigDir } from './paths.js';
import { SHELL_ENV } from './shell-env.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function shellSession(env: NodeJS.ProcessEnv): (LiveInfo & { session: string; cwd: string }) | null {
  const id = env[SHELL_ENV[0]];
  if (!id || !UUID.test(id)) return null;
  const projects = join(claudeConfigDir(env), 'projects');
  let dirs: string[];
  try {
    dirs = readdirSync(projects);
  } catch {
    return null;
  }
  for (const dir of dirs) {
    const transcript = join(projects, dir, `${id}.jsonl`);
    if (!existsSync(transcript)) continue;
    const cwd = headObjects(transcript).find((o) => typeof o.cwd === 'string' && o.cwd !== '')?.cwd as string | undefined;
    return cwd ? { session: id, cwd, branch: sessionBranch(id), transcript } : null;
  }
  return null;
}
