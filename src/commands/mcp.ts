import { UsageError } from '../errors/index.js';
import { defineCommand } from './command.js';
import type { McpConfigResult } from './mcp-install.js';

interface Flags {
  write?: boolean;
  user?: boolean;
  agent?: string;
  session?: string;
}

/**
 * What `ctx mcp ACTION` does; `serve` (the default) runs the server. Other actions (install,
 * uninstall, status: registering the server with a runtime) add a line here from their own file.
 */
const ACTIONS: Record<string, ((io: Parameters<typeof serve>[0], runtime: string | undefined, flags: Flags) => Promise<unknown>) | undefined> = {
  serve: (io, _runtime, flags) => serve(io, flags),
  install: async (io, runtime, flags) => (await import('./mcp-install.js')).mcpConfigAction(io, 'install', runtime, flags),
  uninstall: async (io, runtime, flags) => (await import('./mcp-install.js')).mcpConfigAction(io, 'uninstall', runtime, flags),
  status: async (io, runtime, flags) => (await import('./mcp-install.js')).mcpConfigAction(io, 'status', runtime, flags),
};

export default defineCommand({
  name: 'mcp',
  summary: 'an MCP server over stdio on this store: search, file history, log, read a slice, the current context id, cursors, state',
  description:
    "Serves the store as an MCP server on stdin/stdout (the Model Context Protocol), for an agent's runtime to start: tools search, files, log, show, read, current, news and state_get, and with --write fork, save, restore, news moving the cursor and state_set; resources ctx://branch/NAME and ctx://commit/ID. Read-only unless --write: write tools are not listed without it. The agent's identity (cursors, state writes) is --agent or $CTX_AGENT, never a tool argument. Needs the optional peer dependency @modelcontextprotocol/sdk. Stops when the client closes stdin. docs/mcp.md lists each tool's input and output. `ctx mcp install|uninstall|status RUNTIME` registers the server in a runtime's MCP configuration (Claude Code .mcp.json, Codex [mcp_servers], Gemini CLI and Copilot CLI mcpServers, opencode mcp), every other byte of the file kept.",
  args: [
    { name: 'action', description: "serve (the default); install, uninstall or status: ctx's entry in the runtime's MCP configuration", values: Object.keys(ACTIONS) },
    { name: 'runtime', description: 'the runtime an action is for', values: 'runtime:mcp' },
  ],
  options: [
    { flags: '--write', description: 'also offer the tools that write (fork, save, restore, state_set, moving a cursor); with install: the entry runs ctx mcp --write' },
    { flags: '--user', description: "install, uninstall, status: the user's MCP configuration instead of the project's" },
    { flags: '--agent <name>', description: 'the agent this server is, for cursors and state writes (default: $CTX_AGENT)' },
    { flags: '--session <id>', description: "the calling session for `current` (default: $CTX_SESSION, else the session of the runtime that starts the server)" },
  ],
  examples: [
    'ctx mcp',
    'ctx mcp --write --agent planner',
    'ctx --store ~/team/.ctx mcp',
    'ctx mcp install claude-code    # .mcp.json at the git top level: claude starts ctx mcp',
    'ctx mcp install codex --user --write    # [mcp_servers.ctx] in ~/.codex/config.toml, running ctx mcp --write',
    'ctx mcp status gemini-cli --json',
    'ctx mcp uninstall opencode    # the entry goes; every other byte of opencode.json stays',
  ],
  async run(io, [action, runtime]: [string | undefined, string | undefined], flags: Flags) {
    const run = ACTIONS[action ?? 'serve'];
    if (!run) throw new UsageError(`mcp: unknown action '${action}' (${Object.keys(ACTIONS).join(', ')})`);
    return run(io, runtime, flags);
  },
  async print(io, data) {
    if (data !== undefined) (await import('./mcp-install.js')).printMcpConfig(io, data as McpConfigResult);
  },
});

async function serve(io: import('../output/io.js').CommandIO, flags: Flags): Promise<void> {
  // the store must be there before the client is told anything
  await io.withRepo(false, async () => {});
  const { runMcp } = await import('../mcp/load.js');
  await runMcp({ withRepo: (body) => io.withRepo(false, body), write: Boolean(flags.write), agent: flags.agent ?? (io.env.CTX_AGENT || undefined), session: flags.session, env: io.env });
}
