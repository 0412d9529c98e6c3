// Where Gemini CLI reads MCP servers: `mcpServers` in the settings.json its hooks use too (project:
// `.gemini/settings.json` in the directory it runs in; user: `~/.gemini/settings.json`), with comments.
import { dirname } from 'node:path';
import type { McpSettings } from '../../api/capture/runtime.js';
import { jsonSettings } from '../mcp-json.js';
import { settingsPath } from './settings.js';

export const mcp: McpSettings = {
  path: settingsPath,
  ...jsonSettings({ key: 'mcpServers', comments: true, entry: ([command, ...args]) => ({ command, args }) }),
  covers: (user, path) => (user ? `every gemini session of this user (${path})` : `gemini sessions started in ${dirname(dirname(path))}, once Gemini CLI trusts the folder`),
};
