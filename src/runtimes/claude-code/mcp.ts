// Where Claude Code reads MCP servers: the project's `.mcp.json` (Claude Code 2.1 reads it in the
// directory it starts in and every parent; `claude -p` starts them, an interactive session once approved), or
// the user's `mcpServers` in `~/.claude.json` (`$CLAUDE_CONFIG_DIR/.claude.json` when that is set).
import { dirname, join } from 'node:path';
import { homedir } from 'node:os';
import type { McpSettings } from '../../api/capture/runtime.js';
import { jsonSettings, projectRoot } from '../mcp-json.js';

export const mcp: McpSettings = {
  path: (user, cwd, env) => (user ? join(env.CLAUDE_CONFIG_DIR || env.HOME || homedir(), '.claude.json') : join(projectRoot(cwd), '.mcp.json')),
  ...jsonSettings({ key: 'mcpServers', comments: false, entry: ([command, ...args]) => ({ type: 'stdio', command, args }) }),
  covers: (user, path) =>
    user
      ? `every claude session of this user (${path})`
      : `claude sessions started in ${dirname(path)} or below (claude -p starts the project's servers; an interactive claude asks once, or approve ahead with enabledMcpjsonServers: ["ctx"] in its settings)`,
};
