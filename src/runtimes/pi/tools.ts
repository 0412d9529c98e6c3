// What pi's tool calls do to files: read, write, edit (its `edits` list, or the older oldText and
// newText), and the paths a bash command names. grep, find and ls read directories: no file effects.
import type { ToolEffect, ToolKnowledge } from '../../api/capture/runtime.js';
import { isRecord } from '../../core/neutral.js';
import type { ToolView } from '../../api/capture/runtime.js';
import { briefView, editView, globView, grepView, pathOf, readView, shellView, writeView } from '../tool-views.js';
import { argsOf, commandEffects, commandText, linesOf, pathEffects } from '../tool-effects.js';

function effects(call: { name: string; input: unknown }): ToolEffect[] {
  const a = argsOf(call.input);
  switch (call.name) {
    case 'read':
      return pathEffects(a, ['path'], 'read');
    case 'write':
      return pathEffects(a, ['path'], 'write', linesOf(a.content));
    case 'edit': {
      const edits = (Array.isArray(a.edits) ? a.edits : [a]).filter(isRecord);
      return pathEffects(a, ['path'], 'edit', edits.flatMap((e) => linesOf(e.newText)), edits.flatMap((e) => linesOf(e.oldText)));
    }
    case 'bash':
      return commandEffects(commandText(a.command));
    default:
      return [];
  }
}

function command(call: { name: string; input: unknown }): string | undefined {
  return call.name === 'bash' ? commandText(argsOf(call.input).command) : undefined;
}

/** edit as its replacements (its `edits` list, or the older oldText and newText), write as the file, read, bash as its command, grep, find and ls in one line. */
function view(call: { name: string; input: unknown }): ToolView | undefined {
  const a = argsOf(call.input);
  const path = pathOf(a, ['path']);
  switch (call.name) {
    case 'read':
      return readView(path);
    case 'write':
      return writeView(path, a.content);
    case 'edit':
      return editView(path, Array.isArray(a.edits) ? a.edits : [a], 'oldText', 'newText');
    case 'bash':
      return shellView(commandText(a.command));
    case 'grep':
      return grepView(a.pattern, path, a.glob);
    case 'find':
      return globView(a.pattern, path);
    case 'ls':
      return briefView([path ?? '.']);
    default:
      return undefined;
  }
}

export const tools: ToolKnowledge = { effects, command, view };
