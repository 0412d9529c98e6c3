import { realpathSync } from 'node:fs';
import { claudeCodeSettings } from '../api/runtime-commands.js';
import { UsageError } from '../errors/index.js';
import { hooksJson } from '../output/records.js';
import { defineCommand } from './command.js';
import { HOOK_RUNTIMES } from './runtime-names.js';

const ACTIONS = ['install', 'uninstall', 'status'];

export default defineCommand({
  name: 'hooks',
  summary: "add ctx to Claude Code's settings.json, remove it, or show what is there",
  args: [
    { name: 'action', description: 'install, uninstall or status', required: true, values: ACTIONS },
    { name: 'runtime', description: 'claude-code', required: true, values: HOOK_RUNTIMES },
  ],
  options: [{ flags: '--user', description: 'the user settings ($CLAUDE_CONFIG_DIR or ~/.claude) instead of the project' }],
  examples: ['ctx hooks install claude-code', 'ctx hooks status claude-code --json', 'ctx hooks uninstall claude-code --user'],
  async run(io, [action, runtime]: [string, string], flags: { user?: boolean }) {
    if (!ACTIONS.includes(action)) throw new UsageError(`unknown action '${action}' (${ACTIONS.join(', ')})`);
    if (!(HOOK_RUNTIMES as readonly string[]).includes(runtime)) throw new UsageError(`unknown runtime '${runtime}' (${HOOK_RUNTIMES.join(', ')})`);
    const settings = await claudeCodeSettings();
    const path = settings.settingsPath(Boolean(flags.user), io.cwd, io.env);
    if (action === 'install') return { action, report: settings.install(path, settings.hookCommand(process.execPath, realpathSync(process.argv[1]))) };
    return { action, report: action === 'uninstall' ? settings.uninstall(path) : settings.status(path) };
  },
  print(io, { action, report: r }) {
    if (io.flags.json) return io.json(hooksJson(action, r));
    if (action !== 'status') io.note(r.changed ? `${action === 'install' ? 'installed in' : 'removed from'} ${r.path}${r.backup ? ` (backup: ${r.backup})` : ''}` : `${r.path}: nothing to change`);
    for (const [event, command] of Object.entries(r.events)) io.out(`${event}\t${command ?? '-'}\n`);
  },
});
