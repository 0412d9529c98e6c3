// What Copilot CLI's tool calls do to files: view, create, edit, and the paths a bash command names.
import type { ToolEffect, ToolKnowledge } from '../../api/capture/runtime.js';
import type { ToolView } from '../../api/capture/runtime.js';
import { briefOf, briefView, checklistView, editView, globView, grepView, pathOf, questionView, readView, shellView, writeView, type Briefs } from '../tool-views.js';
import { argsOf, commandEffects, commandText, linesOf, pathEffects } from '../tool-effects.js';

function effects(call: { name: string; input: unknown }): ToolEffect[] {
  const a = argsOf(call.input);
  switch (call.name) {
    case 'view':
      return pathEffects(a, ['path'], 'read');
    case 'create':
      return pathEffects(a, ['path'], 'write', linesOf(a.file_text));
    case 'edit':
      return pathEffects(a, ['path'], 'edit', linesOf(a.new_str), linesOf(a.old_str));
    case 'bash':
      return commandEffects(commandText(a.command));
    default:
      return [];
  }
}

function command(call: { name: string; input: unknown }): string | undefined {
  return call.name === 'bash' ? commandText(argsOf(call.input).command) : undefined;
}

const SHELL_ID = ['shellId', 'sessionId', 'shell_id'];

/** The other tools in one line: a search by its pattern, a fetch by its URL, a background shell by its id, an intent as said. */
const BRIEFS: Briefs = {
  glob: (a) => globView(a.pattern, a.path),
  grep: (a) => grepView(a.pattern, a.path, a.glob),
  web_fetch: (a) => briefView([a.url]),
  report_intent: (a) => briefView([a.intent]),
  read_bash: (a) => briefView([pathOf(a, SHELL_ID)]),
  write_bash: (a) => briefView([pathOf(a, SHELL_ID)]),
  stop_bash: (a) => briefView([pathOf(a, SHELL_ID)]),
  ask_user: questionView,
  skill: (a) => briefView([a.skill ?? a.name]),
};

/** edit as its replacement, create as the file, view, bash as its command, update_todo (a markdown checklist) as a checklist. */
function view(call: { name: string; input: unknown }): ToolView | undefined {
  const a = argsOf(call.input);
  const path = pathOf(a, ['path']);
  switch (call.name) {
    case 'view':
      return readView(path);
    case 'create':
      return writeView(path, a.file_text);
    case 'edit':
      return editView(path, [a], 'old_str', 'new_str');
    case 'bash':
      return shellView(commandText(a.command));
    case 'update_todo':
      return checklistView(a.todos);
    default:
      return briefOf(BRIEFS, call.name, a);
  }
}

export const tools: ToolKnowledge = { effects, command, view };
