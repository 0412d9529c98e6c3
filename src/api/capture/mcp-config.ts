// ctx's MCP server in a runtime's MCP configuration (`ctx mcp install|uninstall|status RUNTIME`,
// `ctx hooks install RUNTIME --mcp`), dispatched through the runtime registry: the runtime's plug-in
// says where its configuration lives and how an entry is written.
import { UsageError } from '../../errors/index.js';
import { locateStore } from '../../store/repo.js';
import type { McpReport } from './runtime.js';
import { runtimeRegistry, type HooksAction } from './sessions.js';

export interface McpConfigOptions {
  user: boolean;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** the command line the runtime runs: `<node> <ctx> mcp [--store PATH] [--write]` */
  argv: string[];
}

/** Registers ctx's server (install), removes it (uninstall) or says what is there (status). */
export async function mcpConfig(runtimeName: string, action: HooksAction, opts: McpConfigOptions): Promise<McpReport> {
  const registry = await runtimeRegistry();
  const r = await registry.runtime(runtimeName);
  if (!r.mcp) {
    const able = (await registry.allRuntimes()).filter((x) => x.mcp).map((x) => x.name);
    throw new UsageError(`${runtimeName} reads no MCP configuration, so ctx cannot register its server there (ctx mcp install takes ${able.join(', ')})`);
  }
  const m = await r.mcp();
  const path = m.path(opts.user, opts.cwd, opts.env);
  const report = action === 'install' ? m.install(path, opts.argv) : action === 'uninstall' ? m.uninstall(path) : m.status(path);
  return { ...report, covers: m.covers(opts.user, path) };
}

/** The store a server started in `cwd` would serve (`--store` when given), and whether it is there yet. */
export function serverStore(explicit: string | undefined, env: NodeJS.ProcessEnv, cwd: string): { gitdir: string; exists: boolean } {
  return locateStore(explicit, env, cwd);
}
