// What Codex's tool calls do to files: apply_patch (a custom tool whose input is the patch), and the
// shell tools (shell, shell_command, local_shell, exec_command), whose command may itself run apply_patch.
import type { ToolEffect, ToolKnowledge } from '../../api/capture/runtime.js';
import type { ToolOutput, ToolView } from '../../api/capture/runtime.js';
import { briefOf, briefView, grepView, pathOf, patchView, questionView, quoted, readView, shellView, todoView, type Briefs } from '../tool-views.js';
import { argsOf, commandEffects, commandText, isPatchInput, patchEffects } from '../tool-effects.js';

function effects(call: { name: string; input: unknown }): ToolEffect[] {
  const a = argsOf(call.input);
  switch (call.name) {
    case 'apply_patch':
      return patchEffects(typeof call.input === 'string' ? call.input : String(a.input ?? a.patch ?? ''));
    case 'shell':
    case 'shell_command':
    case 'local_shell':
      return commandEffects(commandText(a.command ?? argsOf(a.action).command));
    case 'exec_command':
      return commandEffects(commandText(a.cmd));
    default:
      return isPatchInput(call.input) ? patchEffects(call.input) : [];
  }
}

function command(call: { name: string; input: unknown }): string | undefined {
  const a = argsOf(call.input);
  if (call.name === 'shell' || call.name === 'shell_command' || call.name === 'local_shell') return commandText(a.command ?? argsOf(a.action).command);
  return call.name === 'exec_command' ? commandText(a.cmd) : undefined;
}

/** The other tools in one line: input sent to a running command by its session, a listing or search by its directory, a question as asked. */
const BRIEFS: Briefs = {
  write_stdin: (a) => briefView([a.session_id === undefined ? undefined : `session ${a.session_id}`, quoted(a.chars)]),
  view_image: (a) => readView(pathOf(a, ['path'])),
  read_file: (a) => readView(pathOf(a, ['file_path', 'path'])),
  list_dir: (a) => briefView([pathOf(a, ['dir_path', 'path'])]),
  grep_files: (a) => grepView(a.pattern, a.path, a.include),
  request_user_input: questionView,
};

/** apply_patch as its files, the shell tools as their command (or the patch it applies), update_plan as a checklist. */
function view(call: { name: string; input: unknown }): ToolView | undefined {
  const a = argsOf(call.input);
  if (call.name === 'apply_patch') return patchView(typeof call.input === 'string' ? call.input : String(a.input ?? a.patch ?? ''));
  if (call.name === 'update_plan') return todoView(a.plan, ['step']);
  const cmd = command(call);
  if (cmd !== undefined) return patchView(cmd) ?? shellView(cmd);
  return isPatchInput(call.input) ? patchView(call.input) : briefOf(BRIEFS, call.name, a);
}

/** The shell tools' result: Codex writes `{"output": …, "metadata": {"exit_code": …}}` as the output's text. */
function output(call: { name: string; input: unknown }, result: string): ToolOutput | undefined {
  if (command(call) === undefined || !result.startsWith('{')) return undefined;
  let o: unknown;
  try {
    o = JSON.parse(result);
  } catch {
    return undefined;
  }
  const { output: text, metadata } = argsOf(o);
  if (typeof text !== 'string') return undefined;
  const exit = argsOf(metadata).exit_code;
  return Number.isSafeInteger(exit) ? { text, exit: exit as number } : { text };
}

export const tools: ToolKnowledge = { effects, command, view, output };
