/// <reference lib="dom" />
// A part longer than the server sends with its message (`cut`): its start on the page, and the rest
// in pieces when asked for; an image too big to send, loaded whole when asked for.
import { api, h, type Cut, type Piece } from './dom.js';

/** Where a message comes from, to ask for the rest of its cut parts: its context (commit, stop) and its index there. */
export interface Source {
  id: string;
  stop: string;
  entry: number;
}

/** Characters asked for per piece: the server's most. */
const PIECE = 1024 * 1024;

/** `53 MB`, `120 kB` */
export const size = (bytes: number) => (bytes >= 1e6 ? `${(bytes / 1e6).toFixed(bytes >= 1e7 ? 0 : 1)} MB` : `${Math.max(1, Math.round(bytes / 1e3))} kB`);

/** The next piece of a cut part, from `offset`. */
async function piece(cut: Cut, from: Source, offset: number): Promise<Piece> {
  const [p] = await api<Piece>('part', { id: from.id, stop: from.stop, entry: from.entry, part: cut.part, offset, limit: PIECE });
  return p;
}

/** The element holding a part's start, and when it was cut, buttons that append the rest a piece at a time, or all of it. */
export function withRest(el: HTMLElement, cut: Cut | undefined, from: Source): HTMLElement {
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
  return h('div', { class: 'cut-part' }, el, bar);
}

/** An image too big to send with its message: loaded whole when asked for. */
export function imageOnDemand(mediaType: string, cut: Cut, from: Source): HTMLElement {
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
      slot.replaceWith(h('img', { class: 'shot', alt: 'image', src: `data:${mediaType};base64,${data}` }));
    } catch (e) {
      slot.replaceChildren(h('span', { class: 'error' }, e instanceof Error ? e.message : String(e)));
    }
  });
  return slot;
}
