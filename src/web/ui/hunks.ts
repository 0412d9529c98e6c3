// An edit's line diff as hunks (jsdiff), bounded: a diff of two texts that share little costs time in
// the product of their lengths (8,000 unlike lines each side: 25 s), and a transcript's edit is
// someone else's input. Past MAX_EDITS changed lines the edit is one hunk: all old lines out, all new in.
import { structuredPatch, type StructuredPatchHunk } from 'diff';

const MAX_EDITS = 1000;

const ended = (s: string) => (s === '' || s.endsWith('\n') ? s : `${s}\n`);
const lines = (s: string) => (s === '' ? [] : ended(s).slice(0, -1).split('\n'));

/** The change from `old` to `now`, three lines of context around each change. */
export function lineHunks(old: string, now: string): StructuredPatchHunk[] {
  const patch = structuredPatch('a', 'b', ended(old), ended(now), '', '', { context: 3, maxEditLength: MAX_EDITS });
  if (patch) return patch.hunks.map((h) => ({ ...h, lines: h.lines.filter((l) => !l.startsWith('\\')) }));
  const out = lines(old).map((l) => `-${l}`);
  const into = lines(now).map((l) => `+${l}`);
  return [{ oldStart: out.length ? 1 : 0, oldLines: out.length, newStart: into.length ? 1 : 0, newLines: into.length, lines: [...out, ...into] }];
}
