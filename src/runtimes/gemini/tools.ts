// What Gemini CLI's tool calls do to files: read_file, read_many_files, write_file, replace, and the
// paths a run_shell_command names.
import type { ToolEffect, ToolKnowledge } from '../../api/capture/runtime.js';
import type { ToolView } from '../../api/capture/runtime.js';
import { editView, pathOf, readView, shellView, todoView, writeView } from '../tool-views.js';
import { argsOf, commandEffects, commandText, linesOf, pathEffects } from '../tool-effects.js';

const PATH = ['file_path', 'absolute_path', 'path'];

function effects(call: { name: string; input: unknown }): ToolEffect[] {
  const a = argsOf(call.input);
  switch (call.name) {
    case 'read_file':
      return pathEffects(a, ['absolute_path', 'file_path', 'path'], 'read');
    case 'read_many_files':
      return pathEffects(a, ['paths'], 'read');
    case 'write_file':
      return pathEffects(a, PATH, 'write', linesOf(a.content));
    case 'replace':
      return pathEffects(a, PATH, 'edit', linesOf(a.new_string), linesOf(a.old_string));
    case 'run_shell_command':
      return commandEffects(commandText(a.command));
    default:
      return [];
  }
}

function command(call: { name: string; input: unknown }): string | undefined {
  return call.name === 'run_shell_command' ? commandText(argsOf(call.input).command) : undefined;
}

/** replace as its replacement, write_file as the file, read_file, run_shell_command as its command, write_todos as a checklist. */
function view(call: { name: string; input: unknown }): ToolView | undefined {
  const a = argsOf(call.input);
  switch (call.name) {
    case 'read_file':
      return readView(pathOf(a, ['absolute_path', 'file_path', 'path']));
    case 'write_file':
      return writeView(pathOf(a, PATH), a.content);
    case 'replace':
      return editView(pathOf(a, PATH), [a], 'old_string', 'new_string');
    case 'run_shell_command':
      return shellView(commandText(a.command));
    case 'write_todos':
      return todoView(a.todos, ['description', 'content']);
    default:
      return undefined;
  }
}

export const tools: ToolKnowledge = { effects, command, view };
