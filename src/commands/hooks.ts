import { realpathSync } from 'node:fs';
import { UsageError } from '../errors/index.js';
import { hookCommand, install, settingsPath, status, uninstall, type HooksReport } from '../runtimes/claude-code/settings.js';
import type { Cli } from '../cli/context.js';

const ACTIONS = ['install', 'uninstall', 'status'];

export async function run(cli: Cli, action: string, runtime: string, flags: { user?: boolean }) {
  if (!ACTIONS.includes(action)) throw new UsageError(`unknown action '${action}' (${ACTIONS.join(', ')})`);
  if (runtime !== 'claude-code') throw new UsageError(`unknown runtime '${runtime}' (claude-code)`);
  const path = settingsPath(Boolean(flags.user), cli.cwd, cli.env);
  let r: HooksReport;
  if (action === 'install') r = install(path, hookCommand(process.execPath, realpathSync(process.argv[1])));
  else if (action === 'uninstall') r = uninstall(path);
  else r = status(path);
  const events = Object.entries(r.events);
  if (cli.flags.json) return cli.json({ v: 1, action, path: r.path, changed: r.changed, installed: events.every(([, c]) => c !== null), events: r.events });
  if (action !== 'status') cli.note(r.changed ? `${action === 'install' ? 'installed in' : 'removed from'} ${r.path}${r.backup ? ` (backup: ${r.backup})` : ''}` : `${r.path}: nothing to change`);
  for (const [event, command] of events) cli.out(`${event}\t${command ?? '-'}\n`);
}
