// Where pi keeps its files: its agent directory (`$PI_CODING_AGENT_DIR`, else `~/.pi/agent`), and a
// project's sessions in `sessions/--<cwd, / and : as ->--/` there (or `$PI_CODING_AGENT_SESSION_DIR`).
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import type { ExportOptions, Exported } from '../../api/capture/runtime.js';

/** pi's agent directory, `~` expanded as pi expands it. */
export function piAgentDir(env: NodeJS.ProcessEnv = process.env): string {
  const home = env.HOME || homedir();
  const dir = env.PI_CODING_AGENT_DIR;
  if (dir) return dir === '~' ? home : dir.startsWith('~/') ? home + dir.slice(1) : dir;
  return join(home, '.pi', 'agent');
}

/** The directory pi keeps `cwd`'s sessions in. */
export function sessionDir(cwd: string, env: NodeJS.ProcessEnv = process.env): string {
  const flat = env.PI_CODING_AGENT_SESSION_DIR;
  if (flat) return flat === '~' || flat.startsWith('~/') ? (env.HOME || homedir()) + flat.slice(1) : flat;
  return join(piAgentDir(env), 'sessions', `--${cwd.replace(/^[/\\]/, '').replace(/[/\\:]/g, '-')}--`);
}

/** `<time, : and . as ->_<id>.jsonl`, as pi names a new session (its header's timestamp). */
export const sessionFileName = (sessionId: string, timestamp: string) => `${timestamp.replace(/[:.]/g, '-')}_${sessionId}.jsonl`;

/** Where `pi --session <id>` run in the session's directory finds it. */
export function exportPath(e: Exported, opts: ExportOptions): string {
  const first = Buffer.from(e.bytes.subarray(0, Buffer.from(e.bytes).indexOf(0x0a))).toString('utf8');
  const name = sessionFileName(e.sessionId, (JSON.parse(first) as { timestamp: string }).timestamp);
  if (opts.dir) return join(resolve(opts.dir), name);
  return join(sessionDir(e.cwd ?? process.cwd(), opts.env), name);
}
