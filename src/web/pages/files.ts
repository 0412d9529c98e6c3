/// <reference lib="dom" />
// ---- file history (ctx files)
import { api, h, link, show, type Touch } from '../ui/dom.js';

export async function filesPage(q: URLSearchParams): Promise<void> {
  const path = q.get('path') ?? '';
  (document.querySelector('#files input') as HTMLInputElement).value = path;
  const touches = await api<Touch>('files', { path });
  const rows = touches.map((t) => h('tr', { class: 'touch', 'data-commit': t.commit }, h('td', {}, t.at.slice(0, 19).replace('T', ' ')), h('td', {}, t.action), h('td', {}, t.tool), h('td', {}, link(t.commit)), h('td', {}, t.branch), h('td', { class: 'mono' }, t.path)));
  show(
    h('h1', {}, 'File history: ', h('span', { class: 'mono' }, path)),
    h('p', { class: 'status', id: 'touches' }, touches.length === 0 ? 'no session touched it' : `${touches.length} tool calls, newest first`),
    h('table', { class: 'meta' }, h('tr', {}, ...['time', 'action', 'tool', 'commit', 'branch', 'path'].map((x) => h('td', {}, x))), ...rows),
  );
}
