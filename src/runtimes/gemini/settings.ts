// `ctx hooks install|uninstall|status gemini-cli`: ctx's entries in Gemini CLI's settings.json
// (project: `.gemini/settings.json` in the directory Gemini runs in; user: `~/.gemini/settings.json`).
import { join, resolve } from 'node:path';
import type { HooksReport } from '../../api/capture/runtime.js';
import * as hookSettings from '../hook-settings.js';
import { TRIGGERS } from './hook.js';
import { geminiHome } from './paths.js';

/** Gemini CLI waits for a hook up to `timeout` ms (default 60 s): ctx's is bounded well below. */
const SPEC: hookSettings.HookSpec = { runtime: 'gemini-cli', events: Object.keys(TRIGGERS).map((event) => ({ event })), fields: { name: 'ctx', timeout: 30_000 }, comments: true };

export function settingsPath(user: boolean, cwd: string, env: NodeJS.ProcessEnv = process.env): string {
  return user ? join(geminiHome(env), '.gemini', 'settings.json') : join(resolve(cwd), '.gemini', 'settings.json');
}

export const status = (path: string): HooksReport => hookSettings.status(SPEC, path);
export const install = (path: string, command: string): HooksReport => hookSettings.install(SPEC, path, command);
export const uninstall = (path: string): HooksReport => hookSettings.uninstall(SPEC, path);
