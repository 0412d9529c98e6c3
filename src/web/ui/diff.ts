/// <reference lib="dom" />
// An edit as a coloured line diff (jsdiff): removed lines `-`, added `+`, three lines of context
// around each change and the lines between hunks left out; a patch's own lines coloured by their sign.
import { h } from './dom.js';
import { lineHunks } from './hunks.js';

const line = (sign: string, text: string) => h('div', { class: `line ${sign === '+' ? 'add' : sign === '-' ? 'del' : sign === '@' ? 'hunk' : 'ctx'}` }, h('span', { class: 'sign' }, sign === '@' ? '' : sign), text);

/** The change from `old` to `new` as diff lines; an `@@` line between hunks. */
export function editDiff(old: string, now: string): HTMLElement {
  const rows: HTMLElement[] = [];
  lineHunks(old, now).forEach((hunk, i) => {
    if (i > 0 || hunk.oldStart > 1) rows.push(line('@', `@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`));
    for (const l of hunk.lines) rows.push(line(l[0], l.slice(1)));
  });
  return h('div', { class: 'diff-view' }, ...rows);
}

/** A patch's lines (`+`, `-`, ` `, `@@`) coloured as they are. */
export function patchLines(diff: string): HTMLElement {
  return h('div', { class: 'diff-view' }, ...diff.split('\n').map((l) => (l.startsWith('@@') ? line('@', l) : /^[+-]/.test(l) ? line(l[0], l.slice(1)) : line(' ', l.startsWith(' ') ? l.slice(1) : l))));
}
