// A tool call's arguments as people read them when no runtime describes the tool: one `key: value`
// entry an argument, a string's own lines kept (not JSON's escaped "\n"), a nested list or object
// as indented `- item` and `key: value` lines. The web view and `ctx show -v` both draw these.
import { isRecord } from './neutral.js';

/** One argument: its name ('' for an input that is not an object) and its value as lines of text. */
export interface ArgEntry {
  key: string;
  value: string;
}

/** The arguments as entries, in the order the call gives them. */
export function argEntries(input: unknown): ArgEntry[] {
  if (isRecord(input)) return Object.entries(input).map(([key, v]) => ({ key, value: valueText(v) }));
  return input === undefined || input === null || input === '' ? [] : [{ key: '', value: valueText(input) }];
}

const indent = (s: string) => s.replace(/\n/g, '\n  ');

/** Lists and objects deeper than this show as `…`: a transcript's arguments can nest past the stack. */
const MAX_DEPTH = 16;

/** A value as text: a scalar as itself, a list as `- item` lines, an object as `key: value` lines. */
function valueText(v: unknown, depth = 0): string {
  if (typeof v === 'string') return v;
  if ((Array.isArray(v) || isRecord(v)) && depth >= MAX_DEPTH) return '…';
  if (Array.isArray(v)) return v.length === 0 ? '(none)' : v.map((x) => `- ${indent(valueText(x, depth + 1))}`).join('\n');
  if (isRecord(v)) {
    const entries = Object.entries(v);
    if (entries.length === 0) return '(none)';
    return entries.map(([key, x]) => entryText({ key, value: valueText(x, depth + 1) })).join('\n');
  }
  return String(v);
}

/** An entry as lines: `key: value`, or `key:` with the value's lines indented under it when it has several. */
export function entryText(e: ArgEntry): string {
  if (e.key === '') return e.value;
  if (!e.value.includes('\n')) return `${e.key}: ${e.value}`;
  return `${e.key}:\n  ${indent(e.value)}`;
}

/** The generic view of a call no runtime describes: its arguments as entries and in one line. */
export function argsView(input: unknown): { kind: 'args'; line: string; args: ArgEntry[] } {
  return { kind: 'args', line: argsLine(input), args: argEntries(input) };
}

/** The arguments in one line, for a summary: `key: value · key: a, b · key: k: v, k: v`, a text by its first line, cut at `max` characters. */
export function argsLine(input: unknown, max = 100): string {
  const line = isRecord(input) ? Object.entries(input).map(([k, v]) => `${k}: ${compact(v)}`).join(' · ') : input === undefined || input === null ? '' : compact(input);
  return line.length > max ? `${line.slice(0, max)}…` : line;
}

function compact(v: unknown, depth = 0): string {
  if (typeof v === 'string') return v.includes('\n') ? `${v.split('\n')[0]} …` : v;
  if ((Array.isArray(v) || isRecord(v)) && depth >= MAX_DEPTH) return '…';
  if (Array.isArray(v)) return v.map((x) => compact(x, depth + 1)).join(', ');
  if (isRecord(v)) return Object.entries(v).map(([k, x]) => `${k}: ${compact(x, depth + 1)}`).join(', ');
  return String(v);
}
