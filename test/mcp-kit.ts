// `ctx mcp` driven by a real MCP client: the SDK's own Client over StdioClientTransport, spawning the
// built bin/ctx as a runtime would.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { dirname } from 'node:path';
import { CTX } from './helpers.js';

/** Environment variables through which a runtime names the session its tools run in: none leaks into a test. */
const RUNTIME_SESSION_VARS = ['CLAUDE_CODE_SESSION_ID', 'CODEX_SESSION_ID', 'COPILOT_AGENT_SESSION_ID', 'CTX_PI_SESSION_ID', 'CTX_PI_SESSION_FILE', 'CLAUDECODE'];

export function serverEnv(extra: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith('CTX_') && !RUNTIME_SESSION_VARS.includes(k) && !k.startsWith('CODEX_')) env[k] = v;
  return { ...env, ...extra };
}

/** A connected client of `ctx mcp ARGS` on `store`; close it to stop the server. */
export async function mcpClient(store: string, args: string[] = [], env: Record<string, string> = {}): Promise<Client> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [CTX, 'mcp', ...args], cwd: dirname(store), env: serverEnv({ CTX_STORE: store, HOME: dirname(store), ...env }), stderr: 'pipe' });
  const client = new Client({ name: 'ctx-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

export interface Called {
  isError: boolean;
  text: string;
  data: Record<string, unknown> | undefined;
}

/** tools/call, its result as the test reads it. */
export async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<Called> {
  const r = (await client.callTool({ name, arguments: args })) as { isError?: boolean; content: { type: string; text: string }[]; structuredContent?: Record<string, unknown> };
  return { isError: r.isError === true, text: r.content.map((c) => c.text).join(''), data: r.structuredContent };
}
