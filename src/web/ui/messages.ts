/// <reference lib="dom" />
// A context's messages on the page: each through the neutral model (thinking collapsed, a tool call
// with its result, images from their data), loaded a page at a time as the list scrolls. A part
// longer than the server sends (`cut`) shows its start, and the rest in pieces when asked for.
import type { Block, NeutralMessage } from '../../core/neutral.js';
import { api, failed, h, main, plural, type Cut, type Page, type Piece } from './dom.js';

/** Where a message comes from, to ask for the rest of its cut parts: its context (commit, stop) and its index there. */
export interface Source {
  id: string;
  stop: string;
  entry: number;
}

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
      page.messages.forEach((m, i) => list.append(message(m as NeutralMessage, page.offset + i, list, { id: page.id, stop, entry: page.offset + i })));
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

export function message(m: NeutralMessage, index: number, list: HTMLElement, from: Source): HTMLElement {
  const head = h('div', { class: 'head' }, h('span', { class: 'role' }, m.author ? `${m.role} (${m.author})` : m.role), h('span', {}, `#${index}`), m.timestamp ? h('span', {}, m.timestamp) : null);
  const el = h('article', { class: `msg ${m.role}`, id: `m-${index}`, 'data-index': String(index), 'data-role': m.role }, head);
  for (const b of m.content) el.append(block(b, list, from));
  // a message of results shown with their calls above folds to a line
  if (m.content.length && m.content.every((b) => b.type === 'tool_result') && !el.querySelector('.orphan')) el.classList.add('folded');
  return el;
}

function block(b: Block, list: HTMLElement, from: Source): Node {
  const cut = (b as { cut?: Cut }).cut;
  switch (b.type) {
    case 'text':
      return withRest(h('div', { class: 'text' }, b.text), cut, from);
    case 'thinking':
      return h('details', { class: 'thinking' }, h('summary', {}, 'thinking'), withRest(h('div', { class: 'text' }, b.text), cut, from));
    case 'image':
      if (cut) return imageOnDemand(b.media_type, cut, from);
      return b.data ? h('img', { class: 'shot', alt: 'image', src: `data:${b.media_type ?? 'image/png'};base64,${b.data}` }) : h('div', { class: 'ref' }, `[image${b.url ? `: ${b.url}` : ''}]`);
    case 'tool_call':
      return h(
        'details',
        { class: 'tool', 'data-call-id': b.id, 'data-tool': b.name },
        h('summary', {}, `${b.name} `, h('span', { class: 'mono' }, preview(b.input))),
        withRest(h('pre', { class: 'input' }, typeof b.input === 'string' ? b.input : JSON.stringify(b.input, null, 2)), cut, from),
        h('div', { class: 'result pending' }, 'no result'),
      );
    case 'tool_result': {
      const content = result(b.content, cut, from);
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

function result(content: Block[] | string, cut: Cut | undefined, from: Source): Node[] {
  if (typeof content === 'string') return [withRest(h('pre', {}, content), cut, from)];
  return content.map((b) => (b.type === 'text' ? withRest(h('pre', {}, b.text), (b as { cut?: Cut }).cut, from) : block(b, main, from)));
}

function preview(input: unknown): string {
  const s = typeof input === 'string' ? input : JSON.stringify(input);
  return s.length > 100 ? `${s.slice(0, 100)}…` : s;
}

/** Characters asked for per piece: the server's most. */
const PIECE = 1024 * 1024;

/** `53 MB`, `120 kB` */
const size = (bytes: number) => (bytes >= 1e6 ? `${(bytes / 1e6).toFixed(bytes >= 1e7 ? 0 : 1)} MB` : `${Math.max(1, Math.round(bytes / 1e3))} kB`);

/** The next piece of a cut part, from `offset`. */
async function piece(cut: Cut, from: Source, offset: number): Promise<Piece> {
  const [p] = await api<Piece>('part', { id: from.id, stop: from.stop, entry: from.entry, part: cut.part, offset, limit: PIECE });
  return p;
}

/** The element holding a part's start, and when it was cut, buttons that append the rest a piece at a time, or all of it. */
function withRest(el: HTMLElement, cut: Cut | undefined, from: Source): HTMLElement {
  if (!cut) return el;
  let offset = el.textContent!.length;
  const status = h('span', { class: 'status' });
  const one = h('button', { class: 'more' }, `show ${size(Math.min(PIECE, cut.length - offset))} more`);
  const all = h('button', { class: 'all' }, `show all (${size(cut.bytes)})`);
  const bar = h('div', { class: 'cut', 'data-part': cut.part }, status, ' ', one, ' ', all);
  const shown = () => (status.textContent = `${Math.round((100 * offset) / cut.length)}% shown`);
  shown();
  let busy = false;
  const load = async (everything: boolean) => {
    if (busy) return;
    busy = true;
    try {
      do {
        const p = await piece(cut, from, offset);
        if (p.text === '') break;
        el.append(p.text);
        offset = p.offset + p.text.length;
        shown();
      } while (everything && offset < cut.length);
      if (offset >= cut.length) bar.remove();
    } catch (e) {
      status.textContent = e instanceof Error ? e.message : String(e);
    } finally {
      busy = false;
    }
  };
  one.addEventListener('click', () => void load(false));
  all.addEventListener('click', () => void load(true));
  const box = h('div', { class: 'cut-part' }, el, bar);
  return box;
}

/** An image too big to send with its message: loaded whole when asked for. */
function imageOnDemand(mediaType: string | undefined, cut: Cut, from: Source): HTMLElement {
  const button = h('button', { class: 'all' }, `show image (${size(cut.bytes)})`);
  const slot = h('div', { class: 'cut', 'data-part': cut.part }, button);
  button.addEventListener('click', async () => {
    button.replaceWith(h('span', { class: 'status' }, 'loading…'));
    let data = '';
    try {
      while (data.length < cut.length) {
        const p = await piece(cut, from, data.length);
        if (p.text === '') break;
        data += p.text;
      }
      slot.replaceWith(h('img', { class: 'shot', alt: 'image', src: `data:${mediaType ?? 'image/png'};base64,${data}` }));
    } catch (e) {
      slot.replaceChildren(h('span', { class: 'error' }, e instanceof Error ? e.message : String(e)));
    }
  });
  return slot;
}
