// `ctx mcp install|uninstall|status RUNTIME [--user] [--write]`: ctx's MCP server registered in a
// runtime's MCP configuration. The `mcp` command hands these actions here; `ctx hooks … --mcp` too.
import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { HOOKS_ACTIONS, type HooksAction } from '../api/capture/sessions.js';
import { mcpConfig } from '../api/capture/mcp-config.js';
import type { McpReport } from '../api/capture/runtime.js';
import { mcpConfigJson } from '../output/records.js';
import type { CommandIO } from '../output/io.js';
import { tsvLine } from '../output/style.js';

export const MCP_CONFIG_ACTIONS: readonly HooksAction[] = HOOKS_ACTIONS;

export const isMcpConfigAction = (action: string): action is HooksAction => MCP_CONFIG_ACTIONS.includes(action as HooksAction);

export interface McpConfigFlags {
  user?: boolean;
  write?: boolean;
}

/** What the runtime runs: this ctx (its node and script, as the hooks do), `mcp`, and the store and --write the user gave. */
export function serverArgv(io: CommandIO, flags: McpConfigFlags): string[] {
  const store = io.flags.store ? ['--store', resolve(io.cwd, io.flags.store)] : [];
  return [process.execPath, realpathSync(process.argv[1]), 'mcp', ...store, ...(flags.write ? ['--write'] : [])];
}

export function runMcpConfig(io: CommandIO, action: HooksAction, runtime: string, flags: McpConfigFlags): Promise<McpReport> {
  return mcpConfig(runtime, action, { user: Boolean(flags.user), cwd: io.cwd, env: io.env, argv: serverArgv(io, flags) });
}

export function printMcpConfig(io: CommandIO, action: string, r: McpReport): void {
  if (io.flags.json) return io.json(mcpConfigJson(action, r));
  if (action !== 'status') io.note(r.changed ? `${action === 'install' ? 'ctx mcp registered in' : 'ctx mcp removed from'} ${r.path}` : `${r.path}: nothing to change`);
  if (r.covers !== undefined && action !== 'uninstall') io.note(`covers ${r.covers}`);
  io.out(tsvLine(['ctx', r.command ? r.command.join(' ') : '-']));
}
