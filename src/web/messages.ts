/// <reference lib="dom" />
// A context's messages on the page: each through the neutral model (thinking collapsed, a tool call
// with its result, images from their data), loaded a page at a time as the list scrolls.
import type { Block, NeutralMessage } from '../core/neutral.js';
import { api, failed, h, main, plural, type Page } from './dom.js';

/** Messages fetched per page while scrolling; the first page is smaller, to draw sooner. */
const PAGE = 100;
export const FIRST_PAGE = 40;

/** Loads the first page, then the next each time the end of the list scrolls into view. */
export async function messagePages(id: string, stop: string, list: HTMLElement, count: HTMLElement, first: Promise<Page[]>): Promise<void> {
  const sentinel = h('div', { class: 'sentinel' });
  let offset = 0;
  let total = Infinity;
  let loading = false;
  const more = async () => {
    if (loading || offset >= total) return;
    loading = true;
    try {
      const [page] = await (offset === 0 ? first : api<Page>('messages', { id, stop, offset, limit: PAGE }));
      total = page.total;
      page.messages.forEach((m, i) => list.append(message(m as NeutralMessage, page.offset + i, list)));
      offset = page.offset + page.messages.length;
      count.textContent = `${offset} of ${plural(total, 'message')}`;
      list.dataset.loaded = String(offset);
      list.dataset.total = String(total);
      if (offset >= total) {
        observer.disconnect();
        sentinel.remove();
      }
    } finally {
      loading = false;
    }
    // the page did not fill the screen: the sentinel is still in view
    if (offset < total && sentinel.getBoundingClientRect().top < innerHeight) await more();
  };
  const observer = new IntersectionObserver((seen) => seen.some((e) => e.isIntersecting) && void more().catch(failed));
  list.after(sentinel);
  await more();
  if (offset < total) observer.observe(sentinel);
}

export function message(m: NeutralMessage, index: number, list: HTMLElement): HTMLElement {
  const head = h('div', { class: 'head' }, h('span', { class: 'role' }, m.author ? `${m.role} (${m.author})` : m.role), h('span', {}, `#${index}`), m.timestamp ? h('span', {}, m.timestamp) : null);
  const el = h('article', { class: `msg ${m.role}`, id: `m-${index}`, 'data-index': String(index), 'data-role': m.role }, head);
  for (const b of m.content) el.append(block(b, list));
  // a message of results shown with their calls above folds to a line
  if (m.content.length && m.content.every((b) => b.type === 'tool_result') && !el.querySelector('.orphan')) el.classList.add('folded');
  return el;
}

function block(b: Block, list: HTMLElement): Node {
  switch (b.type) {
    case 'text':
      return h('div', { class: 'text' }, b.text);
    case 'thinking':
      return h('details', { class: 'thinking' }, h('summary', {}, 'thinking'), h('div', { class: 'text' }, b.text));
    case 'image':
      return b.data ? h('img', { class: 'shot', alt: 'image', src: `data:${b.media_type ?? 'image/png'};base64,${b.data}` }) : h('div', { class: 'ref' }, `[image${b.url ? `: ${b.url}` : ''}]`);
    case 'tool_call':
      return h(
        'details',
        { class: 'tool', 'data-call-id': b.id, 'data-tool': b.name },
        h('summary', {}, `${b.name} `, h('span', { class: 'mono' }, preview(b.input))),
        h('pre', { class: 'input' }, typeof b.input === 'string' ? b.input : JSON.stringify(b.input, null, 2)),
        h('div', { class: 'result pending' }, 'no result'),
      );
    case 'tool_result': {
      const content = result(b.content);
      // the call is above (pages load in order): its result goes with it
      const call = list.querySelector<HTMLElement>(`details.tool[data-call-id="${CSS.escape(b.call_id)}"]`);
      const slot = call?.querySelector('.result.pending');
      if (call && slot) {
        slot.replaceWith(h('div', { class: `result${b.is_error ? ' is-error' : ''}`, 'data-result-of': b.call_id }, ...content));
        return h('div', { class: 'ref' }, `↑ result of ${call.dataset.tool}`);
      }
      return h('div', { class: `result orphan${b.is_error ? ' is-error' : ''}`, 'data-result-of': b.call_id }, h('div', { class: 'ref' }, 'result of a call not in this context'), ...content);
    }
  }
}

function result(content: Block[] | string): Node[] {
  if (typeof content === 'string') return [h('pre', {}, content)];
  return content.map((b) => (b.type === 'text' ? h('pre', {}, b.text) : block(b, main)));
}

function preview(input: unknown): string {
  const s = typeof input === 'string' ? input : JSON.stringify(input);
  return s.length > 100 ? `${s.slice(0, 100)}…` : s;
}
