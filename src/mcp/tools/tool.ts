// A tool of `ctx mcp` as a declared unit: its name, description and input schema (what tools/list
// shows), whether it writes, and a `run` that returns the command's --json record(s) and a text
// rendering. Errors are thrown as they are; server.ts turns each into an MCP tool error.
import type { ZodRawShape, z } from 'zod';
import type { RepoContext } from '../../api/repo/repo-context.js';

/** What every tool gets: the store, and who the server runs for (from its configuration only). */
export interface ToolContext {
  withRepo<T>(body: (repo: RepoContext) => Promise<T>): Promise<T>;
  /** the agent this server is (--agent, $CTX_AGENT): cursors and state writes are its */
  agent: string | undefined;
  /** the calling session's id as the server found it (--session, $CTX_SESSION, the runtime's environment) */
  session(): Promise<string | undefined>;
}

export interface ToolResult {
  /** structuredContent: always an object */
  data: Record<string, unknown>;
  /** the text content, for clients that show text only */
  text: string;
}

export interface ToolDef<S extends ZodRawShape = ZodRawShape> {
  name: string;
  title: string;
  description: string;
  input: S;
  /** listed only when the server runs with --write */
  write?: boolean;
  run(t: ToolContext, args: z.infer<z.ZodObject<S>>): Promise<ToolResult>;
}

export const defineTool = <S extends ZodRawShape>(d: ToolDef<S>): ToolDef<S> => d;
