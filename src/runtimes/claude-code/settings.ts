// `ctx hooks install|uninstall|status claude-code`: ctx's entries in Claude Code's settings.json
// (the merging is runtimes/hook-settings.ts, shared with Gemini CLI).
import { dirname, join, resolve } from 'node:path';
import type { HooksReport } from '../../api/capture/runtime.js';
import * as hookSettings from '../hook-settings.js';
import { claudeConfigDir } from './paths.js';

/**
 * Seconds Claude Code gives ctx's hook before killing it. Without an explicit timeout it kills a
 * SessionEnd hook after 1.5 s, which under load lost the compaction only SessionEnd sees in print mode.
 */
export const HOOK_TIMEOUT_S = 30;

/** The events ctx listens to, and the matcher each gets (SessionStart: only when there is history). */
const SPEC: hookSettings.HookSpec = {
  runtime: 'claude-code',
  events: [{ event: 'Stop' }, { event: 'PreCompact' }, { event: 'SessionEnd' }, { event: 'SessionStart', matcher: 'resume|compact' }],
  fields: { timeout: HOOK_TIMEOUT_S },
};

/**
 * Project: `.claude/settings.json` in cwd, the one a claude started there reads (Claude Code 2.1.330
 * reads no parent's, not even the git top level's); user: `$CLAUDE_CONFIG_DIR` or `~/.claude`.
 */
export function settingsPath(user: boolean, cwd: string, env: NodeJS.ProcessEnv = process.env): string {
  return user ? join(claudeConfigDir(env), 'settings.json') : join(resolve(cwd), '.claude', 'settings.json');
}

/** Claude Code reads a project's settings only in the directory it starts in: not its parents', not its subdirectories'. */
export function covers(user: boolean, path: string): string {
  if (user) return `every claude session of this user (${path})`;
  const dir = dirname(dirname(path));
  return `claude sessions started in ${dir}, not in its subdirectories (Claude Code reads .claude/settings.json only where it starts): run this in each directory claude starts in, or use --user`;
}

export const status = (path: string): HooksReport => hookSettings.status(SPEC, path);
export const install = (path: string, command: string): HooksReport => hookSettings.install(SPEC, path, command);
export const uninstall = (path: string): HooksReport => hookSettings.uninstall(SPEC, path);
