// `ctx mcp`: an MCP server over stdio on the store it starts in. Every tool is declared in tools/
// and registered here; a tool's failure is an MCP tool error (isError, the one-line message), never
// a crash of the server. Loaded only through load.ts, once the SDK is known to be there.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { RepoContext } from '../api/repo/repo-context.js';
import { VERSION } from '../core/version.js';
import { TOOLS } from './tools/index.js';
import type { ToolContext } from './tools/tool.js';
import { callingSession } from './session.js';
import { registerResources } from './resources.js';

export interface McpOptions {
  /** the store, opened for the length of one call */
  withRepo<T>(body: (repo: RepoContext) => Promise<T>): Promise<T>;
  /** write tools (fork, save, restore, state_set, news with move) are listed only with it */
  write: boolean;
  /** the agent this server is: --agent, else $CTX_AGENT */
  agent?: string;
  /** --session, else $CTX_SESSION, else the runtime that started the server (its environment) */
  session?: string;
  env: NodeJS.ProcessEnv;
}

export function createServer(o: McpOptions): McpServer {
  const server = new McpServer({ name: 'ctx', version: VERSION }, { capabilities: { tools: {}, resources: {} } });
  const t: ToolContext = { withRepo: o.withRepo, agent: o.agent, session: () => callingSession(o.session, o.env) };
  for (const tool of TOOLS) {
    if (tool.write && !o.write) continue;
    server.registerTool(tool.name, { title: tool.title, description: tool.description, inputSchema: tool.input }, async (args: Record<string, unknown>) => {
      try {
        const r = await tool.run(t, args as never);
        return { structuredContent: r.data, content: [{ type: 'text' as const, text: r.text }] };
      } catch (e) {
        return { isError: true, content: [{ type: 'text' as const, text: oneLine(e) }] };
      }
    });
  }
  registerResources(server, t);
  return server;
}

/** Serve on stdin/stdout until the client closes the stream. */
export async function serveStdio(o: McpOptions): Promise<void> {
  const server = createServer(o);
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((done) => (transport.onclose = done));
  process.stdin.once('end', () => void server.close());
  await server.connect(transport);
  await closed;
}

/** `ctx: …` as the CLI prints it, without the prefix: the error's message, on one line. */
function oneLine(e: unknown): string {
  const m = e instanceof Error ? e.message : String(e);
  return m.replace(/\s*\n\s*/g, ' ');
}
