// What Gemini CLI's tool calls do to files: read_file, read_many_files, write_file, replace, and the
// paths a run_shell_command names.
import type { ToolEffect, ToolKnowledge } from '../../api/capture/runtime.js';
import type { ToolView } from '../../api/capture/runtime.js';
import { briefOf, briefView, editView, globView, grepView, pathOf, questionView, quoted, readView, shellView, todoView, writeView, type Briefs } from '../tool-views.js';
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

const DIR = ['dir_path', 'path'];
const list = (v: unknown) => (Array.isArray(v) ? v.filter((x) => typeof x === 'string').join(', ') : v);

/** The other tools in one line: a listing or search by its directory and pattern, a web search by its query, a fetch by its prompt (which holds the URLs). */
const BRIEFS: Briefs = {
  list_directory: (a) => briefView([pathOf(a, DIR)]),
  glob: (a) => globView(a.pattern, pathOf(a, DIR)),
  grep_search: (a) => grepView(a.pattern, pathOf(a, DIR), a.include_pattern ?? a.include),
  search_file_content: (a) => grepView(a.pattern, pathOf(a, DIR), a.include),
  read_many_files: (a) => briefView([list(a.include ?? a.paths)]),
  web_fetch: (a) => briefView([a.prompt]),
  google_web_search: (a) => briefView([quoted(a.query)]),
  save_memory: (a) => briefView([quoted(a.fact)]),
  ask_user: questionView,
  activate_skill: (a) => briefView([a.name]),
  enter_plan_mode: (a) => briefView([a.reason]),
  exit_plan_mode: (a) => briefView([a.plan_filename]),
  get_internal_docs: (a) => briefView([a.path]),
  update_topic: (a) => briefView([a.title]),
};

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
      return briefOf(BRIEFS, call.name, a);
  }
}

export const tools: ToolKnowledge = { effects, command, view };
