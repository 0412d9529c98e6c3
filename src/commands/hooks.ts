import { realpathSync } from 'node:fs';
import { UsageError } from '../errors/index.js';
import { HOOKS_ACTIONS, hooks, type HooksAction } from '../api/sessions.js';
import type { Cli } from '../cli/context.js';

export async function run(cli: Cli, action: string, runtime: string, flags: { user?: boolean }) {
  if (!HOOKS_ACTIONS.includes(action as HooksAction)) throw new UsageError(`unknown action '${action}' (${HOOKS_ACTIONS.join(', ')})`);
  const command = (name: string) => hookCommand(process.execPath, realpathSync(process.argv[1]), name);
  const r = await hooks(runtime, action as HooksAction, { user: Boolean(flags.user), cwd: cli.cwd, env: cli.env, command });
  const events = Object.entries(r.events);
  if (cli.flags.json) return cli.json({ v: 1, action, path: r.path, changed: r.changed, installed: events.every(([, c]) => c !== null), events: r.events });
  if (action !== 'status') cli.note(r.changed ? `${action === 'install' ? 'installed in' : 'removed from'} ${r.path}${r.backup ? ` (backup: ${r.backup})` : ''}` : `${r.path}: nothing to change`);
  for (const [event, command] of events) cli.out(`${event}\t${command ?? '-'}\n`);
}

/** The command a runtime's hook runs: this node and this ctx, by absolute path. */
function hookCommand(execPath: string, bin: string, runtime: string): string {
  return `${shellQuote(execPath)} ${shellQuote(bin)} hook ${runtime}`;
}

function shellQuote(s: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}
