import { realpathSync } from 'node:fs';
import { HOOKS_ACTIONS, hooks, type HooksAction } from '../api/capture/sessions.js';
import { UsageError } from '../errors/index.js';
import { hooksJson } from '../output/records.js';
import { shellQuote } from '../core/shell.js';
import { tsvLine } from '../output/style.js';
import { defineCommand } from './command.js';
import { unknownName } from '../core/nearest.js';

export default defineCommand({
  name: 'hooks',
  summary: "add ctx's hooks to a runtime's settings, remove them, or show what is there",
  args: [
    { name: 'action', description: 'install, uninstall or status', required: true, values: HOOKS_ACTIONS },
    { name: 'runtime', description: 'the runtime whose hooks run ctx', required: true, values: 'runtime:hooks' },
  ],
  options: [{ flags: '--user', description: "the user's settings (Claude Code: $CLAUDE_CONFIG_DIR or ~/.claude; Gemini CLI: ~/.gemini) instead of the project's; Codex has only the user's ($CODEX_HOME/config.toml)" }],
  examples: ['ctx hooks install claude-code', 'ctx hooks status claude-code --json', 'ctx hooks uninstall claude-code --user', 'ctx hooks install codex    # notify in $CODEX_HOME/config.toml: ctx runs after every turn', 'ctx hooks install gemini-cli'],
  async run(io, [action, runtime]: [string, string], flags: { user?: boolean }) {
    if (!HOOKS_ACTIONS.includes(action as HooksAction)) throw new UsageError(unknownName('action', action, HOOKS_ACTIONS, `unknown action '${action}' (${HOOKS_ACTIONS.join(', ')})`, { closed: true }));
    const command = (name: string) => `${shellQuote(process.execPath)} ${shellQuote(realpathSync(process.argv[1]))} hook ${name}`;
    return { action, report: await hooks(runtime, action as HooksAction, { user: Boolean(flags.user), cwd: io.cwd, env: io.env, command }) };
  },
  print(io, { action, report: r }) {
    if (io.flags.json) return io.json(hooksJson(action, r));
    if (action !== 'status') io.note(r.changed ? `${action === 'install' ? 'installed in' : 'removed from'} ${r.path}${r.backup ? ` (backup: ${r.backup})` : ''}` : `${r.path}: nothing to change`);
    if (r.covers !== undefined && action !== 'uninstall') io.note(`covers ${r.covers}`);
    for (const [event, command] of Object.entries(r.events)) io.out(tsvLine([event, command ?? '-']));
  },
});

