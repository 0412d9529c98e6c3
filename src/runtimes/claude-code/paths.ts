// Where Claude Code keeps its files: the config directory, a project's sessions, a new session file.
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { UsageError } from '../../errors/index.js';
import type { ExportOptions, Exported } from '../../api/capture/runtime.js';

/** `$CLAUDE_CONFIG_DIR`, else `~/.claude`. */
export function claudeConfigDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.CLAUDE_CONFIG_DIR ? resolve(env.CLAUDE_CONFIG_DIR) : join(env.HOME || homedir(), '.claude');
}

/** Longer encoded paths are cut here and given a hash of the whole path, as Claude Code names them. */
const PROJECT_DIR_MAX = 200;

/**
 * Claude Code's project directory name: the cwd with every character not a letter or digit as `-`;
 * past 200 characters, the first 200 and `-` + the base-36 absolute value of the path's 32-bit string hash.
 */
export function encodeProjectDir(cwd: string): string {
  const name = cwd.replace(/[^A-Za-z0-9]/g, '-');
  if (name.length <= PROJECT_DIR_MAX) return name;
  let h = 0;
  for (let i = 0; i < cwd.length; i++) h = ((h << 5) - h + cwd.charCodeAt(i)) | 0;
  return `${name.slice(0, PROJECT_DIR_MAX)}-${Math.abs(h).toString(36)}`;
}

/** Where Claude Code looks for the session: `<config>/projects/<encoded cwd>/<uuid>.jsonl`. */
export function exportPath(e: Exported, opts: ExportOptions): string {
  if (opts.dir) return join(resolve(opts.dir), `${e.sessionId}.jsonl`);
  if (e.cwd === null) throw new UsageError('the context names no working directory (no line has "cwd")', { hint: 'pass --dir DIR' });
  return join(claudeConfigDir(opts.env), 'projects', encodeProjectDir(e.cwd), `${e.sessionId}.jsonl`);
}

export { writeSession } from '../session-file.js';
