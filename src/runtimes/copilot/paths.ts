// Where Copilot CLI keeps its files: its home (`$COPILOT_HOME`, else `~/.copilot`), a session's
// folder `session-state/<id>/` with its `events.jsonl`, and the user's hook files in `hooks/`.
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import type { ExportOptions, Exported } from '../../api/capture/runtime.js';

/** The directory Copilot CLI keeps its configuration and sessions in. */
export function copilotHome(env: NodeJS.ProcessEnv = process.env): string {
  return env.COPILOT_HOME || join(env.HOME || homedir(), '.copilot');
}

/** A session's events file; null for an id that is not a session folder's name. */
export function eventsFile(home: string, session: string): string | null {
  return /^[0-9A-Za-z][0-9A-Za-z_-]{0,127}$/.test(session) ? join(home, 'session-state', session, 'events.jsonl') : null;
}

/** Where `copilot --resume=<id>` looks: `session-state/<id>/events.jsonl` (under `--dir`: `<dir>/<id>/events.jsonl`). */
export function exportPath(e: Exported, opts: ExportOptions): string {
  if (opts.dir) return join(resolve(opts.dir), e.sessionId, 'events.jsonl');
  return join(copilotHome(opts.env), 'session-state', e.sessionId, 'events.jsonl');
}
