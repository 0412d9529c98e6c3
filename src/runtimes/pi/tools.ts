// What pi's tool calls do to files: read, write, edit (its `edits` list, or the older oldText and
// newText), and the paths a bash command names. grep, find and ls read directories: no file effects.
import type { ToolEffect, ToolKnowledge } from '../../api/capture/runtime.js';
import { isRecord } from '../../core/neutral.js';
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

export const tools: ToolKnowledge = { effects, command };
