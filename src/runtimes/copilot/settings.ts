// `ctx hooks install|uninstall|status copilot`: ctx's own hook file, which Copilot CLI reads beside
// any other in its hooks directory (project: `.github/hooks/ctx.json` at the git top level; user:
// `~/.copilot/hooks/ctx.json`). The file is ctx's alone: installed whole, removed whole, and a file
// of that name holding anything but ctx's hooks is left as it is. Written by settings-file.ts, never
// through a link a repository planted.
import { dirname, join } from 'node:path';
import { BadInputError } from '../../errors/index.js';
import type { HooksReport } from '../../api/capture/runtime.js';
import { projectSettings } from '../hook-settings.js';
import { readSettingsFile, removeSettingsFile, replaceSettingsFile } from '../settings-file.js';
import { TRIGGERS } from './hook.js';
import { copilotHome } from './paths.js';

const FILE = 'ctx.json';
/** Copilot CLI waits for a hook up to `timeoutSec`: ctx's is bounded well below. */
const TIMEOUT_SEC = 30;
const EVENTS = Object.keys(TRIGGERS);

export function settingsPath(user: boolean, cwd: string, env: NodeJS.ProcessEnv = process.env): string {
  return user ? join(copilotHome(env), 'hooks', FILE) : join(dirname(projectSettings(cwd, join('.github', 'hooks'))), FILE);
}

/** Project hooks run only in a folder Copilot trusts. */
export function covers(user: boolean, path: string): string {
  if (user) return `every copilot session of this user (${path})`;
  const top = dirname(dirname(dirname(path)));
  return `copilot sessions in ${top} once Copilot trusts the folder (its trust prompt, trustedFolders in ~/.copilot/settings.json, --trust-folder or COPILOT_ALLOW_ALL=true); or use --user`;
}

const isCtxCommand = (c: unknown) => typeof c === 'string' && c.endsWith(' hook copilot') && /ctx/.test(c);

/** The file as ctx's: event → its command; null when the file is not there; an error when it holds anything else. */
function read(path: string): { events: Record<string, string | null>; text: string | null } {
  const file = readSettingsFile(path);
  const events: Record<string, string | null> = Object.fromEntries(EVENTS.map((e) => [e, null]));
  if (file.text === null) return { events, text: null };
  let v: unknown;
  try {
    v = JSON.parse(file.text);
  } catch (e) {
    throw new BadInputError(`${path} is not JSON (${(e as Error).message}); nothing changed`);
  }
  const hooks = (v as { hooks?: unknown })?.hooks;
  const entries = hooks && typeof hooks === 'object' && !Array.isArray(hooks) ? Object.entries(hooks as Record<string, unknown>) : null;
  const ours = entries !== null && entries.every(([e, list]) => EVENTS.includes(e) && Array.isArray(list) && list.every((h) => isCtxCommand((h as { bash?: unknown })?.bash)));
  if (!ours) throw new BadInputError(`${path} holds hooks that are not ctx's: move it away (ctx writes only its own ${FILE}); nothing changed`);
  for (const [e, list] of entries!) events[e] = ((list as { bash: string }[])[0]?.bash as string) ?? null;
  return { events, text: file.text };
}

export function status(path: string): HooksReport {
  return { path, changed: false, events: read(path).events };
}

export function install(path: string, command: string): HooksReport {
  const { text } = read(path);
  const hooks = Object.fromEntries(EVENTS.map((e) => [e, [{ type: 'command', bash: command, timeoutSec: TIMEOUT_SEC }]]));
  const out = `${JSON.stringify({ version: 1, hooks }, null, 2)}\n`;
  const events = Object.fromEntries(EVENTS.map((e) => [e, command]));
  if (out === text) return { path, changed: false, events };
  replaceSettingsFile(readSettingsFile(path), out);
  return { path, changed: true, events };
}

export function uninstall(path: string): HooksReport {
  const { text, events } = read(path);
  if (text === null) return { path, changed: false, events };
  removeSettingsFile(readSettingsFile(path), '{"version":1,"hooks":{}}\n');
  return { path, changed: true, events: Object.fromEntries(EVENTS.map((e) => [e, null])) };
}
