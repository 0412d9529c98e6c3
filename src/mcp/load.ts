// `ctx mcp`'s way in: the MCP SDK and zod are optional peer dependencies, loaded here and only here,
// so a missing one is one line naming the fix rather than a stack trace from deep in an import.
import { CtxError } from '../errors/index.js';
import type { McpOptions } from './server.js';

const FIX = 'ctx mcp needs the optional package @modelcontextprotocol/sdk: npm install @modelcontextprotocol/sdk (beside agent-ctx)';

/** Serve the store over stdio until the client closes it; CtxError when the SDK cannot be loaded. */
export async function runMcp(o: McpOptions): Promise<void> {
  try {
    await import('@modelcontextprotocol/sdk/server/mcp.js');
    await import('zod');
  } catch (e) {
    if (missing(e)) throw new CtxError(FIX);
    throw e;
  }
  const { serveStdio } = await import('./server.js');
  await serveStdio(o);
}

const missing = (e: unknown) => ['ERR_MODULE_NOT_FOUND', 'MODULE_NOT_FOUND', 'ERR_PACKAGE_PATH_NOT_EXPORTED'].includes((e as NodeJS.ErrnoException)?.code ?? '');
