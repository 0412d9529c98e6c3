import { UsageError } from '../errors/index.js';
import { defineCommand } from './command.js';

interface Flags {
  write?: boolean;
  agent?: string;
  session?: string;
}

/**
 * What `ctx mcp ACTION` does; `serve` (the default) runs the server. Other actions (install,
 * uninstall, status: registering the server with a runtime) add a line here from their own file.
 */
const ACTIONS: Record<string, ((io: Parameters<typeof serve>[0], runtime: string | undefined, flags: Flags) => Promise<unknown>) | undefined> = {
  serve: (io, _runtime, flags) => serve(io, flags),
};

export default defineCommand({
  name: 'mcp',
  summary: 'an MCP server over stdio on this store: search, file history, log, read a slice, the current context id, cursors, state',
  description:
    "Serves the store as an MCP server on stdin/stdout (the Model Context Protocol), for an agent's runtime to start: tools search, files, log, show, read, current, news and state_get, and with --write fork, save, restore, news moving the cursor and state_set; resources ctx://branch/NAME and ctx://commit/ID. Read-only unless --write: write tools are not listed without it. The agent's identity (cursors, state writes) is --agent or $CTX_AGENT, never a tool argument. Needs the optional peer dependency @modelcontextprotocol/sdk. Stops when the client closes stdin. docs/mcp.md lists each tool's input and output.",
  args: [{ name: 'action', description: 'serve (the default)', values: Object.keys(ACTIONS) }, { name: 'runtime', description: 'the runtime an action is for' }],
  options: [
    { flags: '--write', description: 'also offer the tools that write (fork, save, restore, state_set, moving a cursor)' },
    { flags: '--agent <name>', description: 'the agent this server is, for cursors and state writes (default: $CTX_AGENT)' },
    { flags: '--session <id>', description: "the calling session for `current` (default: $CTX_SESSION, else the session of the runtime that starts the server)" },
  ],
  examples: ['ctx mcp', 'ctx mcp --write --agent planner', 'ctx --store ~/team/.ctx mcp'],
  async run(io, [action, runtime]: [string | undefined, string | undefined], flags: Flags) {
    const run = ACTIONS[action ?? 'serve'];
    if (!run) throw new UsageError(`mcp: unknown action '${action}' (${Object.keys(ACTIONS).join(', ')})`);
    return run(io, runtime, flags);
  },
  print() {},
});

async function serve(io: import('../output/io.js').CommandIO, flags: Flags): Promise<void> {
  // the store must be there before the client is told anything
  await io.withRepo(false, async () => {});
  const { runMcp } = await import('../mcp/load.js');
  await runMcp({ withRepo: (body) => io.withRepo(false, body), write: Boolean(flags.write), agent: flags.agent ?? (io.env.CTX_AGENT || undefined), session: flags.session, env: io.env });
}
