// Shapes of tool arguments more than one runtime's tools share: a patch in the apply_patch
// envelope, a shell command, a file's text. Each runtime's tools.ts says which tool has which.
import { isRecord } from '../core/neutral.js';
import type { ToolEffect, TouchAction } from '../api/capture/runtime.js';

/** Text as the lines it puts in a file: `\r\n` and `\n` end lines; a final newline adds no empty line. */
export function linesOf(text: unknown): string[] {
  if (typeof text !== 'string' || text === '') return [];
  const lines = text.split(/\r?\n/);
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** The arguments as an object ({} when they are not one). */
export const argsOf = (input: unknown): Record<string, unknown> => (isRecord(input) ? input : {});

/** The first of `keys` the arguments hold. */
export function firstArg(input: Record<string, unknown>, keys: readonly string[]): unknown {
  const key = keys.find((k) => input[k] !== undefined);
  return key === undefined ? undefined : input[key];
}

/** One effect per path named (a string or a list of strings) under the first of `keys`. */
export function pathEffects(input: Record<string, unknown>, keys: readonly string[], action: TouchAction, added?: string[], removed?: string[]): ToolEffect[] {
  const v = firstArg(input, keys);
  return (Array.isArray(v) ? v : [v])
    .filter((p): p is string => typeof p === 'string' && p !== '')
    .map((path) => ({ path, action, ...(added?.length ? { added } : {}), ...(removed?.length ? { removed } : {}) }));
}

/**
 * The files of a patch in the apply_patch envelope (`*** Update File:`, `*** Delete File:` are edits,
 * `*** Add File:` and a `*** Move to:` target are writes), each with the patch's `+` and `-` lines.
 */
export function patchEffects(patch: string): ToolEffect[] {
  const out: ToolEffect[] = [];
  let cur: ToolEffect | null = null;
  for (const line of patch.split(/\r?\n/)) {
    const m = /^\*\*\* (Update|Add|Delete) File: (.+)$/.exec(line);
    const move = /^\*\*\* Move to: (.+)$/.exec(line);
    if (m || move) {
      cur = { path: (m ? m[2] : move![1]).trim(), action: m?.[1] === 'Add' || move ? 'write' : 'edit' };
      out.push(cur);
    } else if (line.startsWith('*** ')) cur = null;
    else if (cur && line.startsWith('+')) (cur.added ??= []).push(line.slice(1));
    else if (cur && line.startsWith('-')) (cur.removed ??= []).push(line.slice(1));
  }
  return out;
}

/** A shell command: the patch it applies when it runs apply_patch, else each word that may be a path, as `run`. */
export function commandEffects(command: string): ToolEffect[] {
  const patched = patchEffects(command);
  if (patched.length) return patched;
  return [...new Set(commandWords(command))].map((path) => ({ path, action: 'run' as const }));
}

/** A command given as a string or as argv, as one string. */
export function commandText(raw: unknown): string {
  return Array.isArray(raw) ? raw.map(String).join(' ') : typeof raw === 'string' ? raw : '';
}

/** Words of a shell command that may be paths: unquoted, redirections stripped. */
function commandWords(command: string): string[] {
  return command
    .split(/[\s;|&()]+/)
    .map((w) => w.replace(/^[<>0-9]*[<>]+/, '').replace(/^['"]|['"]$/g, ''))
    .filter((w) => /[A-Za-z0-9]/.test(w) && !w.startsWith('-'));
}

/** Whether a custom tool's input is a patch in the apply_patch envelope. */
export const isPatchInput = (input: unknown): input is string => typeof input === 'string' && input.trimStart().startsWith('*** Begin Patch');
