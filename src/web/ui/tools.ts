/// <reference lib="dom" />
// A tool call and its result in one block, drawn from the call's neutral view (the server asks the
// runtime's plug-in for it: the page knows no tool names): an edit as a diff, a file written as
// highlighted code, a shell command as `$ command` with its coloured output, a todo list as a
// checklist, a patch by file, a subagent's task, any other tool in one line with its arguments as
// `key: value` lines (the server's generic form when no runtime describes it). Long output shows its
// first lines and a button for the rest; the result's text stays whole.
import type { ArgEntry, ToolView } from '../../api/capture/runtime.js';
import type { Block, ToolCallBlock } from '../../core/neutral.js';
import { ansiInto } from './ansi.js';
import { editDiff, patchLines } from './diff.js';
import { h, lazyDetails } from './dom.js';
import { codeBlock, languageOf } from './highlight.js';
import { markdown } from './markdown.js';

/** Lines of output or of a written file shown before "show all". */
export const FOLD_LINES = 20;

type View = ToolView & { cut?: true };

const CHECK = { completed: '☑', in_progress: '◐', pending: '☐', cancelled: '☒' } as const;

const lineCount = (s: string) => s.split('\n').length - (s.endsWith('\n') ? 1 : 0);
const firstLine = (s: string, n = 120) => {
  const l = s.split('\n')[0];
  return l.length > n || s.includes('\n') ? `${l.slice(0, n)}…` : l;
};

/** The call as its block: summary line, what it does, and the slot its result fills. */
export function toolCall(b: ToolCallBlock & { view?: View }): HTMLElement {
  // every call the server sends has a view: the generic one when no runtime describes the tool
  const v: View = b.view ?? { kind: 'args', line: '', args: [] };
  const open = v.kind === 'edit' || v.kind === 'patch' || v.kind === 'todo' || v.kind === 'shell';
  const el = h('details', { class: `tool view-${v.kind}`, 'data-call-id': b.id, 'data-tool': b.name, 'data-view': v.kind, ...(open ? { open: '' } : {}) });
  const parts = body(v);
  el.append(h('summary', {}, ...summary(b, v, parts)), ...parts);
  if (v.kind === 'write') {
    const fill = () => {
      el.removeEventListener('toggle', fill);
      el.querySelector(':scope > .file-slot')!.replaceWith(...folded(codeBlock(v.text, languageOf(v.path), 'code file'), lineCount(v.text)));
    };
    el.addEventListener('toggle', fill);
  }
  if (v.cut) el.append(h('p', { class: 'cut' }, 'arguments cut: their long texts show their start only'));
  el.append(h('div', { class: 'result pending' }, 'no result'));
  return el;
}

/** The summary line; `parts`: the body drawn (an edit counts the lines its diffs add and remove). */
function summary(b: ToolCallBlock, v: View, parts: HTMLElement[]): (Node | string)[] {
  const name = h('span', { class: 'tool-name' }, b.name);
  const mono = (s: string) => h('span', { class: 'mono' }, s);
  switch (v.kind) {
    case 'brief':
      return [name, ' ', mono(v.text)];
    case 'args':
      return v.line ? [name, ' ', h('span', { class: 'mono args-line' }, v.line)] : [name];
    case 'edit': {
      const added = parts.reduce((n, p) => n + p.querySelectorAll('.line.add').length, 0);
      const removed = parts.reduce((n, p) => n + p.querySelectorAll('.line.del').length, 0);
      return [name, ' ', mono(v.path), ' ', h('span', { class: 'stat add' }, `+${added}`), ' ', h('span', { class: 'stat del' }, `−${removed}`)];
    }
    case 'write':
      return [name, ' ', mono(v.path), ' ', h('span', { class: 'stat' }, `${lineCount(v.text)} lines`)];
    case 'read':
      return [name, ' ', mono(v.path)];
    case 'shell':
      return [h('span', { class: 'mono shell-line' }, `$ ${firstLine(v.command)}`)];
    case 'todo':
      return [name, ' ', h('span', { class: 'stat' }, `${v.items.filter((i) => i.status === 'completed').length} of ${v.items.length} done`)];
    case 'patch':
      return [name, ' ', mono(v.files.map((f) => f.path).join(', '))];
    case 'agent':
      return [name, v.agent ? ` (${v.agent})` : '', ' ', h('span', {}, v.description || firstLine(v.prompt, 80))];
  }
}

function body(v: View): HTMLElement[] {
  switch (v.kind) {
    case 'brief':
      return v.markdown !== undefined ? [markdown(v.markdown)] : argList(v.args ?? []);
    case 'args':
      return argList(v.args);
    case 'edit':
      return v.edits.map((e) => editDiff(e.old, e.new));
    case 'write': {
      // drawn (highlighted) when the block opens: a session writes many files nobody opens
      const slot = h('div', { class: 'file-slot' });
      return [slot];
    }
    case 'read':
      return [];
    case 'shell':
      // the summary shows a one-line command whole
      return firstLine(v.command) === v.command ? [] : [h('pre', { class: 'shell' }, h('span', { class: 'prompt' }, '$ '), v.command)];
    case 'todo':
      return [h('ul', { class: 'todo' }, ...v.items.map((i) => h('li', { class: `todo-item ${i.status}`, 'data-status': i.status }, h('span', { class: 'check', 'aria-hidden': 'true' }, CHECK[i.status]), ' ', h('span', { class: 'todo-text' }, i.text))))];
    case 'patch':
      return v.files.map((f) => h('div', { class: 'patch-file', 'data-action': f.action }, h('div', { class: 'mono patch-path' }, `${f.action} ${f.path}`), patchLines(f.diff)));
    case 'agent':
      return [lazyDetails({ class: 'agent-prompt' }, h('summary', {}, 'task'), () => [markdown(v.prompt)]), h('div', { class: 'subagent-run' })];
  }
}

/** Arguments as `key: value` lines; a value of several lines under its key, folded when long. */
function argList(args: readonly ArgEntry[]): HTMLElement[] {
  if (args.length === 0) return [];
  const rows = args.map((a) => {
    const key = a.key === '' ? [] : [h('span', { class: 'arg-key' }, `${a.key}:`)];
    if (!a.value.includes('\n')) return h('div', { class: 'arg' }, ...key, ' ', h('span', { class: 'arg-value' }, a.value));
    return h('div', { class: 'arg' }, ...key, ...folded(h('pre', { class: 'arg-value' }, a.value), lineCount(a.value)));
  });
  return [h('div', { class: 'args' }, ...rows)];
}

/** `el` cut to its first lines (by CSS: its text stays whole) and a button showing the rest, when it is longer. */
function folded(el: HTMLElement, lines: number): HTMLElement[] {
  if (lines <= FOLD_LINES) return [el];
  el.classList.add('folded');
  const button = h('button', { class: 'show-all' }, `show all ${lines} lines`);
  button.addEventListener('click', () => {
    el.classList.remove('folded');
    button.remove();
  });
  return [el, button];
}

/** A call's result where its call waits for it (its slot replaced), coloured, folded when long. */
export function placeResult(call: HTMLElement, slot: Element, b: Extract<Block, { type: 'tool_result' }>, nodes: Node[]): void {
  const el = h('div', { class: `result${b.is_error ? ' is-error' : ''}`, 'data-result-of': b.call_id }, ...nodes);
  const text = el.textContent ?? '';
  slot.replaceWith(...folded(el, lineCount(text)));
  call.dataset.done = b.is_error ? 'error' : 'ok';
}

/** A result's text block: terminal colours drawn. */
export const output = (text: string) => ansiInto(h('pre', { class: 'output' }), text);
