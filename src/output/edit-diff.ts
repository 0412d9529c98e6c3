// An edit for the terminal as a unified line diff (jsdiff, as the web view draws it): `---`/`+++`
// the file, an `@@` line a hunk, three lines of context; a patch's own lines as they are.
import type { ChalkInstance } from 'chalk';
import { structuredPatch } from 'diff';
import type { ToolView } from '../api/capture/runtime.js';
import { visible } from './style.js';

type Edit = Extract<ToolView, { kind: 'edit' }>;
type Patch = Extract<ToolView, { kind: 'patch' }>;

const ended = (s: string) => (s === '' || s.endsWith('\n') ? s : `${s}\n`);
const textLines = (s: string) => (s === '' ? [] : ended(s).slice(0, -1).split('\n'));

/** Past this many changed lines an edit is one hunk, all old lines out and all new in: a diff of texts that share little costs time in the product of their lengths, and a transcript is someone else's input (web/ui/hunks.ts bounds the web view's the same way). */
const MAX_EDITS = 1000;

/** One replacement's hunks: `@@` heads and the lines with their signs. */
function replacementLines(old: string, now: string): string[] {
  const patch = structuredPatch('a', 'b', ended(old), ended(now), '', '', { context: 3, maxEditLength: MAX_EDITS });
  if (!patch) {
    const out = textLines(old).map((l) => `-${l}`);
    const into = textLines(now).map((l) => `+${l}`);
    return [`@@ -${out.length ? 1 : 0},${out.length} +${into.length ? 1 : 0},${into.length} @@`, ...out, ...into];
  }
  return patch.hunks.flatMap((h) => [`@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@`, ...h.lines.filter((l) => !l.startsWith('\\'))]);
}

/** One diff line coloured by its sign: removed red, added green, a hunk's head cyan. */
function signed(line: string, c: ChalkInstance): string {
  const l = visible(line);
  return l.startsWith('@@') ? c.cyan(l) : l.startsWith('+') ? c.green(l) : l.startsWith('-') ? c.red(l) : l;
}

/** The replacements' hunks, each replacement's in turn: `@@` heads and the lines with their signs. */
function hunkLines(v: Edit): string[] {
  return v.edits.flatMap((e) => replacementLines(e.old, e.new));
}

/** The lines the edit adds and removes, as its diff counts them (the web view's `+2 −1`). */
export function editCounts(v: Edit): { added: number; removed: number } {
  const lines = hunkLines(v).filter((l) => !l.startsWith('@@'));
  return { added: lines.filter((l) => l.startsWith('+')).length, removed: lines.filter((l) => l.startsWith('-')).length };
}

/** The edit's replacements as one file's diff. */
export function editDiff(v: Edit, c: ChalkInstance): string[] {
  return [c.bold(`--- ${visible(v.path)}`), c.bold(`+++ ${visible(v.path)}`), ...hunkLines(v).map((l) => signed(l, c))];
}

/** A patch's files, each with its head (`/dev/null` for a file added or deleted) and its own lines. */
export function patchDiff(v: Patch, c: ChalkInstance): string[] {
  return v.files.flatMap((f) => [
    c.bold(`--- ${f.action === 'add' ? '/dev/null' : visible(f.path)}`),
    c.bold(`+++ ${f.action === 'delete' ? '/dev/null' : visible(f.path)}`),
    ...(f.diff === '' ? [] : f.diff.split('\n').map((l) => signed(l, c))),
  ]);
}
