/// <reference lib="dom" />
import type { NeutralMessage } from '../../core/neutral.js';
import { api, h, link, plural, show, type Diff } from '../ui/dom.js';
import { message } from '../ui/messages.js';

// ---- the difference between two commits: messages only in one or the other

export async function diffPage(a: string, b: string): Promise<void> {
  const [d] = await api<Diff>('diff', { a, b });
  const side = (id: string, only: Diff['only_a']) => {
    const list = h('div', { class: 'messages' });
    for (const o of only) list.append(message(o.message as NeutralMessage, o.index, list, { id, stop: 'compaction', entry: o.index }));
    return h('section', { class: 'side' }, h('h2', {}, 'only in ', link(id)), h('p', { class: 'status' }, plural(only.length, 'message')), list);
  };
  show(h('h1', {}, 'Difference'), h('p', { class: 'status' }, `${plural(d.common, 'message')} in both`), h('div', { class: 'diff' }, side(d.a, d.only_a), side(d.b, d.only_b)));
}
