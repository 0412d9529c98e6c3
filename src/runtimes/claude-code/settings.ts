// `ctx hooks install|uninstall|status claude-code`: ctx's entries in Claude Code's settings.json
// (the merging is runtimes/hook-settings.ts, shared with Gemini CLI).
import { join } from 'node:path';
import type { HooksReport } from '../../api/runtime.js';
import * as hookSettings from '../hook-settings.js';
import { claudeConfigDir } from './paths.js';

/** The events ctx listens to, and the matcher each gets (SessionStart: only when there is history). */
const SPEC: hookSettings.HookSpec = {
  runtime: 'claude-code',
  events: [{ event: 'Stop' }, { event: 'PreCompact' }, { event: 'SessionEnd' }, { event: 'SessionStart', matcher: 'resume|compact' }],
};

/** Project: `.claude/settings.json` at the git top level (else cwd); user: `$CLAUDE_CONFIG_DIR` or `~/.claude`. */
export function settingsPath(user: boolean, cwd: string, env: NodeJS.ProcessEnv = process.env): string {
  return user ? join(claudeConfigDir(env), 'settings.json') : hookSettings.projectSettings(cwd, '.claude');
}

export const status = (path: string): HooksReport => hookSettings.status(SPEC, path);
export const install = (path: string, command: string): HooksReport => hookSettings.install(SPEC, path, command);
export const uninstall = (path: string): HooksReport => hookSettings.uninstall(SPEC, path);
