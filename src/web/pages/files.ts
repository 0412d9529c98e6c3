/// <reference lib="dom" />
// ---- file history (ctx files): each tool call that touched the path, opened to the lines it changed
import type { editJson } from '../../output/records.js';
import { api, copyButton, h, link, short, show, type Touch } from '../ui/dom.js';
import { diffArrays } from 'diff';

type Edit = ReturnType<typeof editJson>;

export async function filesPage(q: URLSearchParams): Promise<void> {
  const path = q.get('path') ?? '';
  const header = document.querySelector<HTMLInputElement>('#files input');
  if (header) header.value = path;
  const touches = await api<Touch>('files', { path });
  show(
    h('h1', {}, 'File history: ', h('span', { class: 'mono path' }, path)),
    h('p', { class: 'status', id: 'touches' }, touches.length === 0 ? 'no session touched it' : `${touches.length} tool calls, newest first`),
    h('div', { class: 'touches' }, ...touches.map(touchRow)),
  );
}

/** A tool call's line (time, action, tool, commit, branch, path), opening to its edit's lines when asked for. */
function touchRow(t: Touch): HTMLElement {
  const body = h('div', { class: 'edit' }, h('span', { class: 'status' }, 'loading…'));
  const row = h(
    'details',
    { class: `touch ${t.action}`, 'data-commit': t.commit, 'data-entry': String(t.entry) },
    h(
      'summary',
      {},
      h('span', { class: 'time' }, t.at.slice(0, 19).replace('T', ' ')),
      h('span', { class: 'action' }, t.action),
      h('span', { class: 'tool' }, t.tool),
      h('span', { class: 'id' }, link(t.commit, short(t.commit)), copyId(t.commit)),
      h('span', { class: 'branch' }, t.branch),
      h('span', { class: 'mono path' }, t.path),
    ),
    body,
  );
  row.querySelector('a')!.title = t.commit;
  let loaded = false;
  row.addEventListener('toggle', async () => {
    if (!row.open || loaded) return;
    loaded = true;
    try {
      const edits = (await api<Edit>('edits', { commit: t.commit, entry: t.entry, path: t.path })).filter((e) => e.tool === t.tool && e.action === t.action);
      const changed = edits.filter((e) => e.added.length || e.removed.length);
      body.replaceChildren(...(changed.length ? changed.map(editLines) : [h('p', { class: 'status' }, t.action === 'read' || t.action === 'run' ? `a ${t.action}: no lines changed` : 'its arguments do not say which lines')]));
      body.dataset.loaded = '1';
    } catch (e) {
      body.replaceChildren(h('p', { class: 'error' }, e instanceof Error ? e.message : String(e)));
    }
  });
  return row;
}

/** The lines an edit took out and put in, as a diff: lines both hold once, as context. */
function editLines(e: Edit): HTMLElement {
  return h('div', { class: 'edit-lines mono' }, ...diffArrays(e.removed, e.added).flatMap((part) => part.value.map((text) => h('div', { class: `line ${part.removed ? 'del' : part.added ? 'add' : 'same'}` }, h('span', { class: 'sign' }, part.removed ? '-' : part.added ? '+' : ' '), text))));
}

/** Copies a full id (the row shows its start). */
function copyId(id: string): HTMLElement {
  const button = copyButton(id, 'copy');
  button.classList.add('copy-id');
  return button;
}
