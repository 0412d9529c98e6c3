// The neutral views of tool calls (ToolView) that more than one runtime's tools build: an edit, a
// file written, a shell command, a todo list, a patch. Each runtime's tools.ts says which tool is which.
import { isRecord } from '../core/neutral.js';
import type { TodoItem, ToolView } from '../api/capture/runtime.js';
import { firstArg } from './tool-effects.js';

const text = (v: unknown): string => (typeof v === 'string' ? v : '');

/** The first of `keys` naming a path, or undefined: a view without its file would say nothing. */
export function pathOf(input: Record<string, unknown>, keys: readonly string[]): string | undefined {
  const p = firstArg(input, keys);
  return typeof p === 'string' && p !== '' ? p : undefined;
}

/** An edit of `path`: each `[old, new]` pair of the edits (objects) under the keys given. */
export function editView(path: string | undefined, edits: readonly unknown[], oldKey: string, newKey: string): ToolView | undefined {
  if (path === undefined) return undefined;
  return { kind: 'edit', path, edits: edits.filter(isRecord).map((e) => ({ old: text(e[oldKey]), new: text(e[newKey]) })) };
}

export const writeView = (path: string | undefined, content: unknown): ToolView | undefined => (path === undefined ? undefined : { kind: 'write', path, text: text(content) });
export const readView = (path: string | undefined): ToolView | undefined => (path === undefined ? undefined : { kind: 'read', path });
/** A subagent started with a task: its `description`, `prompt` and `subagent_type`. */
export function agentView(a: Record<string, unknown>): ToolView {
  return { kind: 'agent', description: text(a.description), prompt: text(a.prompt), ...(typeof a.subagent_type === 'string' ? { agent: a.subagent_type } : {}) };
}

export const shellView = (command: string): ToolView | undefined => (command === '' ? undefined : { kind: 'shell', command });

/** A status as a checklist shows it: done, doing, cancelled, else to do. */
export function todoStatus(v: unknown): TodoItem['status'] {
  const s = String(v ?? '').toLowerCase();
  if (s === 'completed' || s === 'done' || s === 'complete') return 'completed';
  if (s === 'in_progress' || s === 'in-progress' || s === 'active' || s === 'doing') return 'in_progress';
  if (s === 'cancelled' || s === 'canceled') return 'cancelled';
  return 'pending';
}

/** A todo list from a list of items, each's text under the first of `textKeys` and its state under `statusKey`. */
export function todoView(items: unknown, textKeys: readonly string[], statusKey = 'status'): ToolView | undefined {
  if (!Array.isArray(items)) return undefined;
  return { kind: 'todo', items: items.filter(isRecord).map((i) => ({ text: text(firstArg(i, textKeys)), status: todoStatus(i[statusKey]) })) };
}

/** A todo list written as a markdown checklist (`- [x] done`, `- [ ] to do`). */
export function checklistView(markdown: unknown): ToolView | undefined {
  const items = text(markdown)
    .split(/\r?\n/)
    .flatMap((l): TodoItem[] => {
      const m = /^\s*[-*]\s+\[([ xX~-])\]\s+(.*)$/.exec(l);
      return m ? [{ text: m[2], status: m[1] === ' ' ? 'pending' : m[1] === '~' || m[1] === '-' ? 'in_progress' : 'completed' }] : [];
    });
  return items.length ? { kind: 'todo', items } : undefined;
}

/** A patch in the apply_patch envelope as its files, each with its own lines (`@@`, `+`, `-`, ` `). */
export function patchView(patch: string): ToolView | undefined {
  const files: { path: string; action: 'add' | 'update' | 'delete'; lines: string[] }[] = [];
  let cur: (typeof files)[number] | null = null;
  for (const line of patch.split(/\r?\n/)) {
    const m = /^\*\*\* (Update|Add|Delete) File: (.+)$/.exec(line);
    const move = /^\*\*\* Move to: (.+)$/.exec(line);
    if (m) {
      cur = { path: m[2].trim(), action: m[1].toLowerCase() as 'add' | 'update' | 'delete', lines: [] };
      files.push(cur);
    } else if (move && cur) cur.path = `${cur.path} → ${move[1].trim()}`;
    else if (line.startsWith('*** ')) cur = null;
    else if (cur) cur.lines.push(line);
  }
  if (files.length === 0) return undefined;
  return { kind: 'patch', files: files.map((f) => ({ path: f.path, action: f.action, diff: f.lines.join('\n').replace(/\n+$/, '') })) };
}

const given = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '';
/** A line of a longer text, cut for a one-line summary. */
const oneLine = (s: string) => {
  const l = s.trim().split('\n')[0].replace(/^#+\s+/, '');
  return l.length > 120 || s.trim().includes('\n') ? `${l.slice(0, 120)}…` : l;
};
/** A string argument quoted (a query, a search pattern): `"text"`. */
export const quoted = (v: unknown): string | undefined => (given(v) ? `"${oneLine(v)}"` : undefined);
/** `in dir`, when a directory is given. */
export const within = (v: unknown): string | undefined => (given(v) ? `in ${v}` : undefined);
/** `(filter)`, when a file filter is given. */
export const filtered = (v: unknown): string | undefined => (given(v) ? `(${v})` : undefined);

/** A call in one line by its parts given (strings; others skipped), or by its `markdown`'s first line; undefined when neither says anything. */
export function briefView(parts: readonly unknown[], markdown?: unknown): ToolView | undefined {
  const text = parts.filter(given).map(oneLine).join(' ');
  const md = given(markdown) ? markdown : undefined;
  if (text === '' && md === undefined) return undefined;
  return { kind: 'brief', text: text || oneLine(md!), ...(md !== undefined ? { markdown: md } : {}) };
}

/** A search of files' text: `"pattern" in dir (filter)`. */
export const grepView = (pattern: unknown, dir: unknown, filter?: unknown) => briefView([quoted(pattern), within(dir), filtered(filter)]);
/** A search of file names: `pattern in dir`. */
export const globView = (pattern: unknown, dir: unknown) => briefView([pattern, within(dir)]);

/** A question put to the user (`question`, or the first of `questions`, each with its `question`), its options in the detail. */
export function questionView(a: Record<string, unknown>): ToolView | undefined {
  const first = Array.isArray(a.questions) ? a.questions.find(isRecord) : undefined;
  return briefView([a.question ?? first?.question]);
}

/** The tools a runtime says in one line, by name (read as an own property: a tool named `constructor` is not a function of Object). */
export type Briefs = Record<string, (a: Record<string, unknown>) => ToolView | undefined>;
export const briefOf = (briefs: Briefs, name: string, a: Record<string, unknown>) => (Object.hasOwn(briefs, name) ? briefs[name](a) : undefined);
