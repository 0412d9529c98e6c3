// Where Copilot CLI reads MCP servers: the user's `mcp-config.json` in its home, or the project's
// `.github/mcp.json` at the git top level (Copilot CLI 1.0 reads `.mcp.json` too, Claude Code's file:
// ctx keeps to the one that is Copilot's alone). Entries are `{type: "local", command, args, tools}`.
import { dirname, join } from 'node:path';
import type { McpSettings } from '../../api/capture/runtime.js';
import { jsonSettings, projectRoot } from '../mcp-json.js';
import { copilotHome } from './paths.js';

export const mcp: McpSettings = {
  path: (user, cwd, env) => (user ? join(copilotHome(env), 'mcp-config.json') : join(projectRoot(cwd), '.github', 'mcp.json')),
  ...jsonSettings({ key: 'mcpServers', comments: false, entry: ([command, ...args]) => ({ type: 'local', command, args, tools: ['*'] }) }),
  covers: (user, path) => (user ? `every copilot session of this user (${path})` : `copilot sessions in ${dirname(dirname(path))} once Copilot trusts the folder`),
};
