// Where opencode keeps what ctx writes for it: its config directory (`$XDG_CONFIG_HOME/opencode`,
// else `~/.config/opencode`), a project's `.opencode/`, and the files `ctx export opencode` writes.
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import type { ExportOptions } from '../../api/capture/runtime.js';

export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.XDG_CONFIG_HOME || join(env.HOME || homedir(), '.config'), 'opencode');
}

/** ctx's plugin: the project's `.opencode/plugin/ctx.js`, or the user's in opencode's config directory. */
export function pluginPath(user: boolean, cwd: string, env: NodeJS.ProcessEnv = process.env): string {
  return user ? join(configDir(env), 'plugin', 'ctx.js') : join(resolve(cwd), '.opencode', 'plugin', 'ctx.js');
}

/** The file `opencode import` takes: in `--dir`, else in ctx's folder of opencode's config directory. */
export function exportPath(e: { sessionId: string }, opts: ExportOptions): string {
  return join(opts.dir ? resolve(opts.dir) : join(configDir(opts.env), 'ctx-exports'), `${e.sessionId}.json`);
}
