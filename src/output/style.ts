// Colour and layout for people; data for scripts. `--color auto|always|never`, NO_COLOR honoured.
import { Chalk, type ChalkInstance } from 'chalk';
import { UsageError } from '../errors/index.js';

export type ColorMode = 'auto' | 'always' | 'never';

export function colorLevel(mode: string, isTTY: boolean, env: NodeJS.ProcessEnv): 0 | 1 | 2 | 3 {
  if (!['auto', 'always', 'never'].includes(mode)) throw new UsageError(`--color takes auto, always or never, not '${mode}'`);
  if (mode === 'never') return 0;
  if (mode === 'always') return 1;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return 0;
  return isTTY && env.TERM !== 'dumb' ? 1 : 0;
}

export function makeChalk(level: 0 | 1 | 2 | 3): ChalkInstance {
  return new Chalk({ level });
}

/** Columns padded to their widest cell; the last column is not padded. Cells are made inert (`cell`). */
export function table(cells: readonly string[][], visibleWidth: (s: string) => number = (s) => s.length): string {
  if (cells.length === 0) return '';
  const rows = cells.map((r) => r.map(cell));
  const widths: number[] = [];
  for (const r of rows) r.forEach((c, i) => (widths[i] = Math.max(widths[i] ?? 0, visibleWidth(c))));
  return rows.map((r) => r.map((c, i) => (i === r.length - 1 ? c : c + ' '.repeat(widths[i] - visibleWidth(c)))).join('  ').trimEnd()).join('\n') + '\n';
}

/** One TAB-separated line of cells, each made inert (`cell`): a TAB or newline inside one cannot split it. */
export function tsvLine(cells: readonly (string | number)[]): string {
  const texts = cells.map(String);
  // most lines hold no control character at all: the cells as they are (one test instead of a replace per cell)
  if (!HAS_CONTROL.test(texts.join(''))) return `${texts.join('\t')}\n`;
  return `${texts.map(cell).join('\t')}\n`;
}

// C0 (escape, tab, newline, carriage return…), DEL and C1 (0x9b is CSI on some terminals)
// eslint-disable-next-line no-control-regex
const CONTROL = /[\x00-\x1f\x7f-\x9f]/g;
// eslint-disable-next-line no-control-regex
const COLOUR_OR_CONTROL = /(\x1b\[[0-9;]*m)|[\x00-\x1f\x7f-\x9f]/g;
// eslint-disable-next-line no-control-regex
const HAS_CONTROL = /[\x00-\x1f\x7f-\x9f]/;

/** Text from a store made inert on a terminal: every control character shown as U+FFFD, as grep's snippets show them. */
export function visible(s: string): string {
  return s.replace(CONTROL, '\ufffd');
}

/** A table or TSV cell: the colours chalk added kept, any other control character shown as U+FFFD. */
export function cell(s: string): string {
  return s.replace(COLOUR_OR_CONTROL, (m, colour: string | undefined) => colour ?? '\ufffd');
}

/** Lines for people on stderr: newlines and TABs kept, any other control character shown as U+FFFD. */
export function visibleLines(s: string): string {
  return s.replace(CONTROL, (c) => (c === '\n' || c === '\t' ? c : '\ufffd'));
}

// eslint-disable-next-line no-control-regex
const ANSI = /\x1b\[[0-9;]*m/g;
export const plainWidth = (s: string) => s.replace(ANSI, '').length;

/** 2025-11-17T15:30:28.123Z → 2025-11-17 15:30 */
export function shortTime(iso: string): string {
  return iso.slice(0, 16).replace('T', ' ');
}

// what oneLine changes: white space other than a space, two in a row, one at either end, a control character
// eslint-disable-next-line no-control-regex
const UNTIDY = /[^\S ]| {2}|^ | $|[\x00-\x1f\x7f-\x9f]/;

/** One line, at most `max` characters, control characters visible; a longer one cut at a word, with an ellipsis. */
export function oneLine(s: string, max = 72): string {
  // most text is one line already: one test instead of two replaces (a blame makes one per line of a file)
  const line = UNTIDY.test(s) ? visible(s.replace(/\s+/g, ' ').trim()) : s;
  if (line.length <= max) return line;
  let cut = line.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  if (space > max / 2) cut = cut.slice(0, space);
  else if (/[\ud800-\udbff]$/.test(cut)) cut = cut.slice(0, -1); // never half a surrogate pair
  return `${cut.trimEnd()}…`;
}
