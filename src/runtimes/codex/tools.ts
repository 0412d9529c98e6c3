// What Codex's tool calls do to files: apply_patch (a custom tool whose input is the patch), and the
// shell tools (shell, local_shell, exec_command), whose command may itself run apply_patch.
import type { ToolEffect, ToolKnowledge } from '../../api/capture/runtime.js';
import { argsOf, commandEffects, commandText, isPatchInput, patchEffects } from '../tool-effects.js';

function effects(call: { name: string; input: unknown }): ToolEffect[] {
  const a = argsOf(call.input);
  switch (call.name) {
    case 'apply_patch':
      return patchEffects(typeof call.input === 'string' ? call.input : String(a.input ?? a.patch ?? ''));
    case 'shell':
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
  if (call.name === 'shell' || call.name === 'local_shell') return commandText(a.command ?? argsOf(a.action).command);
  return call.name === 'exec_command' ? commandText(a.cmd) : undefined;
}

export const tools: ToolKnowledge = { effects, command };
