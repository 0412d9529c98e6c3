// `ctx mcp install|uninstall|status RUNTIME [--user] [--write]`: ctx's MCP server registered in a
// runtime's MCP configuration. The `mcp` command hands these actions here; `ctx hooks … --mcp` too.
import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import type { HooksAction } from '../api/capture/sessions.js';
import { UsageError } from '../errors/index.js';
import { runtimesWith } from './runtime-names.js';
import { mcpConfig, serverStore } from '../api/capture/mcp-config.js';
import type { McpReport } from '../api/capture/runtime.js';
import { mcpConfigJson } from '../output/records.js';
import type { CommandIO } from '../output/io.js';
import { tsvLine } from '../output/style.js';

export interface McpConfigFlags {
  user?: boolean;
  write?: boolean;
  agent?: string;
  session?: string;
}

export interface McpConfigResult {
  action: HooksAction;
  report: McpReport;
  /** installed for a store that is not there yet: the server refuses to start until it is */
  missingStore?: string;
}

/** What the runtime runs: this ctx (its node and script, as the hooks do), `mcp`, and the store, --write and --agent the user gave. */
export function serverArgv(io: CommandIO, flags: McpConfigFlags): string[] {
  const store = io.flags.store ? ['--store', resolve(io.cwd, io.flags.store)] : [];
  const agent = flags.agent !== undefined ? ['--agent', flags.agent] : [];
  return [process.execPath, realpathSync(process.argv[1]), 'mcp', ...store, ...(flags.write ? ['--write'] : []), ...agent];
}

/** `ctx mcp install|uninstall|status RUNTIME`. */
export async function mcpConfigAction(io: CommandIO, action: HooksAction, runtime: string | undefined, flags: McpConfigFlags): Promise<McpConfigResult> {
  if (runtime === undefined) throw new UsageError(`ctx mcp ${action} needs a runtime: ${(await runtimesWith('mcp')).join(', ')}`);
  // the calling session is each session's own: a configuration shared by every session cannot name one
  if (flags.session !== undefined) throw new UsageError('--session names the calling session of one server: ctx mcp install takes none (each server finds its session)');
  const report = await runMcpConfig(io, action, runtime, flags);
  // the user's entry starts in every project: only the project's (or a given store) has one store to check
  const store = action === 'install' && (flags.user !== true || io.flags.store !== undefined) ? serverStore(io.flags.store, io.env, io.cwd) : null;
  return { action, report, ...(store && !store.exists ? { missingStore: store.gitdir } : {}) };
}

export function runMcpConfig(io: CommandIO, action: HooksAction, runtime: string, flags: McpConfigFlags): Promise<McpReport> {
  return mcpConfig(runtime, action, { user: Boolean(flags.user), cwd: io.cwd, env: io.env, argv: serverArgv(io, flags) });
}

export function printMcpConfig(io: CommandIO, { action, report: r, missingStore }: McpConfigResult): void {
  if (io.flags.json) io.json(mcpConfigJson(action, r));
  else {
    if (action !== 'status') io.note(r.changed ? `${action === 'install' ? 'ctx mcp registered in' : 'ctx mcp removed from'} ${r.path}` : `${r.path}: nothing to change`);
    if (r.covers !== undefined && action !== 'uninstall') io.note(`covers ${r.covers}`);
    io.out(tsvLine(['ctx', r.command ? r.command.join(' ') : '-']));
  }
  if (missingStore !== undefined) io.note(`no store at ${missingStore} yet: ctx mcp starts once there is one (ctx init, or the hooks' first capture)`);
}
