// Where Claude Code keeps its files: the config directory, a project's sessions, a new session file.
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { UsageError } from '../../errors/index.js';
import type { ExportOptions, Exported } from '../../api/runtime.js';

/** `$CLAUDE_CONFIG_DIR`, else `~/.claude`. */
export function claudeConfigDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.CLAUDE_CONFIG_DIR ? resolve(env.CLAUDE_CONFIG_DIR) : join(env.HOME || homedir(), '.claude');
}

/** Claude Code's project directory name: the cwd with every character not a letter or digit as `-`. */
export function encodeProjectDir(cwd: string): string {
  return cwd.replace(/[^A-Za-z0-9]/g, '-');
}

/** Where Claude Code looks for the session: `<config>/projects/<encoded cwd>/<uuid>.jsonl`. */
export function exportPath(e: Exported, opts: ExportOptions): string {
  if (opts.dir) return join(resolve(opts.dir), `${e.sessionId}.jsonl`);
  if (e.cwd === null) throw new UsageError('the context names no working directory (no line has "cwd")', { hint: 'pass --dir DIR' });
  return join(claudeConfigDir(opts.env), 'projects', encodeProjectDir(e.cwd), `${e.sessionId}.jsonl`);
}

export { writeSession } from '../session-file.js';
