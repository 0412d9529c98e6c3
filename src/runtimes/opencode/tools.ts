// What opencode's tool calls do to files (its built-in tools, 1.18): read, write, edit (oldString →
// newString), multiedit, patch / apply_patch (a patch text), glob and grep (a path searched), list,
// and the paths a bash command names.
import type { ToolEffect, ToolKnowledge } from '../../api/capture/runtime.js';
import type { ToolView } from '../../api/capture/runtime.js';
import { agentView, briefOf, briefView, editView, globView, grepView, pathOf, questionView, quoted, readView, patchView, shellView, todoView, writeView, type Briefs } from '../tool-views.js';
import { argsOf, commandEffects, commandText, linesOf, pathEffects } from '../tool-effects.js';

function effects(call: { name: string; input: unknown }): ToolEffect[] {
  const a = argsOf(call.input);
  switch (call.name) {
    case 'read':
      return pathEffects(a, ['filePath', 'file_path', 'path'], 'read');
    case 'write':
      return pathEffects(a, ['filePath', 'file_path', 'path'], 'write', linesOf(a.content));
    case 'edit':
      return pathEffects(a, ['filePath', 'file_path', 'path'], 'edit', linesOf(a.newString), linesOf(a.oldString));
    case 'multiedit': {
      const edits = Array.isArray(a.edits) ? a.edits.map(argsOf) : [];
      return pathEffects(a, ['filePath', 'file_path', 'path'], 'edit', edits.flatMap((e) => linesOf(e.newString) ?? []), edits.flatMap((e) => linesOf(e.oldString) ?? []));
    }
    case 'patch':
    case 'apply_patch':
      return patchEffects(typeof a.patchText === 'string' ? a.patchText : typeof a.patch === 'string' ? a.patch : '');
    case 'bash':
      return commandEffects(commandText(a.command));
    default:
      return [];
  }
}

/** The files an opencode patch (`*** Begin Patch`, `*** Add|Update|Delete File: path`) touches, with its + and - lines. */
export function patchEffects(patch: string): ToolEffect[] {
  const out: ToolEffect[] = [];
  let cur: ToolEffect | undefined;
  for (const line of patch.split('\n')) {
    const m = /^\*\*\* (Add|Update|Delete) File: (.+)$/.exec(line);
    if (m) {
      cur = { path: m[2].trim(), action: m[1] === 'Add' ? 'write' : 'edit', added: [], removed: [] };
      out.push(cur);
    } else if (cur && line.startsWith('+')) cur.added!.push(line.slice(1));
    else if (cur && line.startsWith('-')) cur.removed!.push(line.slice(1));
  }
  return out;
}

function command(call: { name: string; input: unknown }): string | undefined {
  return call.name === 'bash' ? commandText(argsOf(call.input).command) : undefined;
}

const FILE = ['filePath', 'file_path', 'path'];

/** The other tools in one line: a search by its pattern, a listing by its directory, a fetch by its URL, a web or code search by its query. */
const BRIEFS: Briefs = {
  glob: (a) => globView(a.pattern, a.path),
  grep: (a) => grepView(a.pattern, a.path, a.include),
  list: (a) => briefView([a.path ?? '.']),
  webfetch: (a) => briefView([a.url]),
  websearch: (a) => briefView([quoted(a.query)]),
  codesearch: (a) => briefView([quoted(a.query)]),
  skill: (a) => briefView([a.name]),
  question: questionView,
};

/** edit and multiedit as their replacements, write as the file, read, patch as its files, bash as its command, todowrite as a checklist, task as its subagent. */
function view(call: { name: string; input: unknown }): ToolView | undefined {
  const a = argsOf(call.input);
  switch (call.name) {
    case 'read':
      return readView(pathOf(a, FILE));
    case 'write':
      return writeView(pathOf(a, FILE), a.content);
    case 'edit':
      return editView(pathOf(a, FILE), [a], 'oldString', 'newString');
    case 'multiedit':
      return editView(pathOf(a, FILE), Array.isArray(a.edits) ? a.edits : [], 'oldString', 'newString');
    case 'patch':
    case 'apply_patch':
      return patchView(typeof a.patchText === 'string' ? a.patchText : typeof a.patch === 'string' ? a.patch : '');
    case 'bash':
      return shellView(commandText(a.command));
    case 'todowrite':
      return todoView(a.todos, ['content']);
    case 'task':
      return agentView(a);
    default:
      return briefOf(BRIEFS, call.name, a);
  }
}

export const tools: ToolKnowledge = { effects, command, view };
