import { realpathSync } from 'node:fs';
import { HOOKS_ACTIONS, hooks, type HooksAction } from '../api/capture/sessions.js';
import { UsageError } from '../errors/index.js';
import { gitHooksJson, hooksJson, mcpConfigJson } from '../output/records.js';
import { ctxCommand, gitHooksStatus, installGitHooks, uninstallGitHooks, type GitHooksReport } from '../api/links/git-hooks.js';
import type { HooksReport, McpReport } from '../api/capture/runtime.js';
import { printMcpConfig, runMcpConfig } from './mcp-install.js';
import { tsvLine } from '../output/style.js';
import { defineCommand } from './command.js';
import type { CommandIO } from '../output/io.js';
import { unknownName } from '../core/nearest.js';

export default defineCommand({
  name: 'hooks',
  summary: "add ctx's hooks to a runtime's settings, remove them, or show what is there",
  args: [
    { name: 'action', description: 'install, uninstall or status', required: true, values: HOOKS_ACTIONS },
    { name: 'runtime', description: "the runtime whose hooks run ctx, or git: the code repository's commit hooks", required: true, values: 'hooks-target' },
  ],
  options: [
    { flags: '--mcp', description: "also register ctx's MCP server (ctx mcp) in the runtime's MCP configuration, or remove it, or show it (as ctx mcp install|uninstall|status RUNTIME)" },
    { flags: '--user', description: "the user's settings (Claude Code: $CLAUDE_CONFIG_DIR or ~/.claude; Gemini CLI: ~/.gemini; pi: ~/.pi/agent/extensions; opencode: ~/.config/opencode/plugin; Copilot CLI: $COPILOT_HOME or ~/.copilot, hooks/ctx.json) instead of the project's; Codex has only the user's ($CODEX_HOME/config.toml)" },
  ],
  examples: [
    'ctx hooks install claude-code',
    'ctx hooks status claude-code --json',
    'ctx hooks uninstall claude-code --user',
    'ctx hooks install codex --user    # hooks.json in $CODEX_HOME, trusted in its config.toml, and notify',
    'ctx hooks install gemini-cli',
    'ctx hooks install pi    # writes the extension .pi/extensions/ctx.ts: ctx runs after every turn',
    'ctx hooks install opencode    # .opencode/plugin/ctx.js: ctx runs after every turn',
    'ctx hooks install copilot --user    # its own file ~/.copilot/hooks/ctx.json (project: .github/hooks/ctx.json, once Copilot trusts the folder)',
    'ctx hooks install claude-code --mcp    # the hooks, and ctx mcp in .mcp.json: the agent can ask ctx too',
    'ctx hooks install git    # in a code repository: commits name the contexts that wrote them',
    'ctx hooks status git --json',
    'ctx hooks uninstall git    # a hook that was there before comes back, byte for byte',
  ],
  async run(io, [action, runtime]: [string, string], flags: { user?: boolean; mcp?: boolean }) {
    if (!HOOKS_ACTIONS.includes(action as HooksAction)) throw new UsageError(unknownName('action', action, HOOKS_ACTIONS, `unknown action '${action}' (${HOOKS_ACTIONS.join(', ')})`, { closed: true }));
    const ctx = ctxCommand(process.execPath, realpathSync(process.argv[1]));
    // git is no agent runtime: its hooks are the code repository's, not a runtime's settings
    if (runtime === 'git') {
      if (flags.user || flags.mcp) throw new UsageError(`${flags.user ? '--user' : '--mcp'} is for a runtime's settings: git hooks are installed in the repository at hand`);
      const git = action === 'install' ? installGitHooks(io.cwd, io.env, ctx) : action === 'uninstall' ? uninstallGitHooks(io.cwd, io.env) : gitHooksStatus(io.cwd, io.env);
      return { action, git };
    }
    const command = (name: string) => `${ctx} hook ${name}`;
    // a runtime without MCP, or a configuration ctx cannot edit, is refused before the hooks are touched
    if (flags.mcp) await runMcpConfig(io, 'status', runtime, flags);
    const report = await hooks(runtime, action as HooksAction, { user: Boolean(flags.user), cwd: io.cwd, env: io.env, command });
    return { action, report, ...(flags.mcp ? { mcp: await runMcpConfig(io, action as HooksAction, runtime, flags) } : {}) };
  },
  print(io, { action, report: r, git, mcp }: { action: string; report?: HooksReport; git?: GitHooksReport; mcp?: McpReport }) {
    if (git) return printGit(io, action, git);
    if (!r) return;
    if (io.flags.json) return io.json({ ...hooksJson(action, r), ...(mcp ? { mcp: mcpConfigJson(action, mcp) } : {}) });
    if (action !== 'status') io.note(r.changed ? `${action === 'install' ? 'installed in' : 'removed from'} ${r.path}${r.backup ? ` (backup: ${r.backup})` : ''}` : `${r.path}: nothing to change`);
    if (r.covers !== undefined && action !== 'uninstall') io.note(`covers ${r.covers}`);
    for (const [event, command] of Object.entries(r.events)) io.out(tsvLine([event, command ?? '-']));
    if (mcp) printMcpConfig(io, { action: action as HooksAction, report: mcp });
  },
});


function printGit(io: CommandIO, action: string, r: GitHooksReport) {
  if (io.flags.json) return io.json(gitHooksJson(action, r));
  if (action !== 'status') io.note(r.changed ? `${action === 'install' ? 'installed in' : 'removed from'} ${r.path}` : `${r.path}: nothing to change`);
  for (const [name, state] of Object.entries(r.hooks)) io.out(tsvLine([name, state]));
}
