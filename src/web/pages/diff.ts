/// <reference lib="dom" />
import type { NeutralMessage } from '../../core/neutral.js';
import { api, h, link, plural, short, show, type Commit, type Diff, type Page } from '../ui/dom.js';
import { inline } from '../ui/markdown.js';
import { message } from '../ui/messages.js';

// ---- two commits compared from their fork point: what both begin with folded, then each one's continuation side by side

/** Messages the fold asks for at a time: the server's page at most. */
const FOLD_PAGE = 500;

export async function diffPage(q: URLSearchParams): Promise<void> {
  const a = q.get('a') ?? '';
  const b = q.get('b') ?? '';
  const stop = q.get('stop') ?? 'root';
  const limit = q.get('limit');
  const [[d], [ca], [cb]] = await Promise.all([api<Diff>('diff', { a, b, stop, ...(limit ? { limit } : {}) }), api<Commit>('show', { id: a }), api<Commit>('show', { id: b })]);
  const side = (c: Commit, only: Diff['only_a'], total: number, which: string) => {
    const list = h('div', { class: 'messages' });
    for (const o of only) list.append(message(o.message as NeutralMessage, o.index, list, { id: c.id, stop, entry: o.index }));
    const after = total - d.common;
    const name = c.branches.length ? c.branches.join(', ') : 'commit';
    return h(
      'section',
      { class: `side side-${which}`, 'data-id': c.id },
      h('h2', {}, h('span', { class: 'branch' }, name), ' ', link(c.id)),
      c.summary ? h('p', { class: 'summary' }, inline(c.summary)) : null,
      h('p', { class: 'status count' }, after ? `${plural(after, 'message')} after the fork point` : 'nothing after the fork point'),
      list,
      ...(d.common + only.length < total ? [moreButton(c.id, stop, list, d.common + only.length, total)] : []),
    );
  };
  show(
    h('h1', {}, 'Compare'),
    forkLine(d),
    ...(d.common ? [commonFold(d, stop)] : []),
    h('div', { class: 'compare' }, side(ca, d.only_a, d.total_a, 'a'), side(cb, d.only_b, d.total_b, 'b')),
  );
}

/** Where the two part: the commit their chains meet at and the last message they share. */
function forkLine(d: Diff): HTMLElement {
  const at = d.fork_point === null ? 'they begin with no message in common' : `they share messages #0–#${d.fork_point}`;
  if (d.base === null) return h('p', { class: 'fork', 'data-base': '' }, `No commit in common; ${at}.`);
  const base = h('a', { href: `/${d.base}`, class: 'mono', title: d.base }, short(d.base));
  return h('p', { class: 'fork', 'data-base': d.base }, 'Forked at ', base, `: ${at}.`);
}

/** The messages both begin with, as one line until asked for; then loaded from the first commit's context a page at a time. */
function commonFold(d: Diff, stop: string): HTMLElement {
  const list = h('div', { class: 'messages' });
  const fold = h('details', { class: 'common' }, h('summary', {}, `${plural(d.common, 'message')} in common — show`), list);
  let loaded = false;
  fold.addEventListener('toggle', async () => {
    if (!fold.open || loaded) return;
    loaded = true;
    try {
      for (let offset = 0; offset < d.common; offset += FOLD_PAGE) {
        const [page] = await api<Page>('messages', { id: d.a, stop, offset, limit: Math.min(FOLD_PAGE, d.common - offset) });
        page.messages.forEach((m, i) => list.append(message(m as NeutralMessage, page.offset + i, list, { id: d.a, stop, entry: page.offset + i })));
      }
      list.dataset.loaded = String(d.common);
    } catch (e) {
      list.append(h('p', { class: 'error' }, e instanceof Error ? e.message : String(e)));
    }
  });
  return fold;
}

/** The rest of a long continuation, a page at a time when asked for. */
function moreButton(id: string, stop: string, list: HTMLElement, from: number, total: number): HTMLElement {
  let offset = from;
  const button = h('button', { class: 'more' }, `show ${Math.min(FOLD_PAGE, total - offset)} more`);
  button.addEventListener('click', async () => {
    button.disabled = true;
    try {
      const [page] = await api<Page>('messages', { id, stop, offset, limit: FOLD_PAGE });
      page.messages.forEach((m, i) => list.append(message(m as NeutralMessage, page.offset + i, list, { id, stop, entry: page.offset + i })));
      offset = page.offset + page.messages.length;
      if (offset >= total || page.messages.length === 0) button.remove();
      else button.textContent = `show ${Math.min(FOLD_PAGE, total - offset)} more`;
    } catch (e) {
      button.replaceWith(h('p', { class: 'error' }, e instanceof Error ? e.message : String(e)));
    } finally {
      button.disabled = false;
    }
  });
  return button;
}
