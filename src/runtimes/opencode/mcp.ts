// Where opencode reads MCP servers: `mcp` in its config, `{type: "local", command: [argv], enabled}`.
// The file is the one `opencode mcp add` picks: the first of opencode.json(c) (then, in a project,
// .opencode/opencode.json(c)) that exists, else opencode.json; at the git top level, or in its config directory.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { McpSettings } from '../../api/capture/runtime.js';
import { jsonSettings, projectRoot } from '../mcp-json.js';
import { configDir } from './paths.js';

const PROJECT = ['opencode.json', 'opencode.jsonc', join('.opencode', 'opencode.json'), join('.opencode', 'opencode.jsonc')];
const USER = ['opencode.json', 'opencode.jsonc'];

function configPath(user: boolean, cwd: string, env: NodeJS.ProcessEnv): string {
  const dir = user ? configDir(env) : projectRoot(cwd);
  const names = user ? USER : PROJECT;
  return join(dir, names.find((n) => existsSync(join(dir, n))) ?? 'opencode.json');
}

export const mcp: McpSettings = {
  path: configPath,
  ...jsonSettings({ key: 'mcp', comments: true, trailingCommas: true, entry: (argv) => ({ type: 'local', command: argv, enabled: true }) }),
  covers: (user, path) => (user ? `every opencode session of this user (${path})` : `opencode sessions of the project whose config is ${path}`),
};
