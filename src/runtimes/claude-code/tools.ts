// What Claude Code's tool calls do to files: Read, Edit, MultiEdit, Write, the notebook tools, and
// the paths a Bash command names (or the patch it applies).
import type { ToolEffect, ToolKnowledge } from '../../api/capture/runtime.js';
import type { ToolView } from '../../api/capture/runtime.js';
import { agentView, briefOf, briefView, editView, globView, grepView, pathOf, questionView, quoted, readView, shellView, todoView, writeView, type Briefs } from '../tool-views.js';
import { argsOf, commandEffects, commandText, linesOf, pathEffects } from '../tool-effects.js';

function effects(call: { name: string; input: unknown }): ToolEffect[] {
  const a = argsOf(call.input);
  switch (call.name) {
    case 'Read':
      return pathEffects(a, ['file_path'], 'read');
    case 'NotebookRead':
      return pathEffects(a, ['notebook_path'], 'read');
    case 'Write':
      return pathEffects(a, ['file_path'], 'write', linesOf(a.content));
    case 'Edit':
      return pathEffects(a, ['file_path'], 'edit', linesOf(a.new_string), linesOf(a.old_string));
    case 'MultiEdit': {
      const edits = Array.isArray(a.edits) ? a.edits.map(argsOf) : [];
      return pathEffects(a, ['file_path'], 'edit', edits.flatMap((e) => linesOf(e.new_string)), edits.flatMap((e) => linesOf(e.old_string)));
    }
    case 'NotebookEdit':
      return pathEffects(a, ['notebook_path'], 'edit', linesOf(a.new_source));
    case 'Bash':
      return commandEffects(commandText(a.command));
    default:
      return [];
  }
}

function command(call: { name: string; input: unknown }): string | undefined {
  return call.name === 'Bash' ? commandText(argsOf(call.input).command) : undefined;
}

/** The other tools in one line: a search by its pattern, a fetch by its URL, a plan by its first line, a background shell or task by its id. */
const BRIEFS: Briefs = {
  Glob: (a) => globView(a.pattern, a.path),
  Grep: (a) => grepView(a.pattern, a.path, a.glob ?? a.include),
  LS: (a) => briefView([a.path]),
  WebFetch: (a) => briefView([a.url]),
  WebSearch: (a) => briefView([quoted(a.query)]),
  ToolSearch: (a) => briefView([quoted(a.query)]),
  NotebookEdit: (a) => briefView([a.notebook_path, typeof a.cell_id === 'string' ? `cell ${a.cell_id}` : undefined, a.edit_mode]),
  ExitPlanMode: (a) => briefView([], a.plan),
  AskUserQuestion: questionView,
  BashOutput: (a) => briefView([a.bash_id]),
  KillBash: (a) => briefView([a.shell_id]),
  KillShell: (a) => briefView([a.shell_id]),
  TaskOutput: (a) => briefView([a.task_id]),
  TaskCreate: (a) => briefView([a.subject]),
  TaskUpdate: (a) => briefView([a.taskId === undefined ? undefined : `#${a.taskId}`, a.status]),
  TaskGet: (a) => briefView([a.taskId === undefined ? undefined : `#${a.taskId}`]),
  SendMessage: (a) => briefView([typeof (a.to ?? a.recipient) === 'string' ? `to ${a.to ?? a.recipient}:` : undefined, a.summary ?? a.message]),
  Skill: (a) => briefView([a.skill]),
  SlashCommand: (a) => briefView([a.command]),
};

/** Edit and MultiEdit as their replacements, Write as the file, Bash as its command, TodoWrite as a checklist, Task (Agent) as the subagent it starts. */
function view(call: { name: string; input: unknown }): ToolView | undefined {
  const a = argsOf(call.input);
  const path = typeof a.file_path === 'string' && a.file_path !== '' ? a.file_path : undefined;
  switch (call.name) {
    case 'Edit':
      return editView(path, [a], 'old_string', 'new_string');
    case 'MultiEdit':
      return editView(path, Array.isArray(a.edits) ? a.edits : [], 'old_string', 'new_string');
    case 'Write':
      return writeView(path, a.content);
    case 'Read':
      return readView(path);
    case 'NotebookRead':
      return readView(pathOf(a, ['notebook_path']));
    case 'Bash':
      return shellView(commandText(a.command));
    case 'TodoWrite':
      return todoView(a.todos, ['content']);
    case 'Task':
    case 'Agent':
      return agentView(a);
    default:
      return briefOf(BRIEFS, call.name, a);
  }
}

export const tools: ToolKnowledge = { effects, command, view };
