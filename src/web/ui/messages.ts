/// <reference lib="dom" />
// A context's messages on the page as people read chat: text as markdown, thinking collapsed, a tool
// call with its result in one block (tools.ts), images from their data, a subagent's messages nested
// under the call that started it, a compaction or clear as a divider. Loaded a page at a time as the
// list scrolls; each message lays out only near the screen (content-visibility in conversation.css).
import type { Block, NeutralMessage } from '../../core/neutral.js';
import { imageOnDemand, withRest, type Source } from './cut.js';
import { api, failed, h, lazyDetails, main, plural, short, type Cut, type Divider, type Page } from './dom.js';
import { markdown } from './markdown.js';
import { output, placeResult, toolCall } from './tools.js';

export type { Source } from './cut.js';

/** Messages fetched per page while scrolling; the first page is smaller, to draw sooner. */
const PAGE = 100;
export const FIRST_PAGE = 40;
/** Messages drawn in one task. */
const CHUNK = 10;

/** The only images drawn: data of these types from the transcript (never an address to fetch). */
const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

type Message = NeutralMessage & { divider?: Divider };

/** Each list's tool calls by id, and its subagent calls in order: a result or a subagent's message finds its call without searching the page. */
const calls = new WeakMap<HTMLElement, { byId: Map<string, HTMLElement>; agents: HTMLElement[] }>();
const callsOf = (list: HTMLElement) => {
  let c = calls.get(list);
  if (!c) calls.set(list, (c = { byId: new Map(), agents: [] }));
  return c;
};

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
      // the first page at once; the next ones a few at a time, the page breathing in between: no long task while scrolling
      for (let i = 0; i < page.messages.length; i++) {
        if (page.offset > 0 && i > 0 && i % CHUNK === 0) await new Promise((done) => setTimeout(done));
        place(list, message(page.messages[i] as Message, page.offset + i, list, { id: page.id, stop, entry: page.offset + i }));
      }
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

/**
 * A message into the list: a subagent's goes into the run of the subagent call still waiting for its
 * result (the call that started it), else into the subagent group the list ends with, else a new one.
 */
function place(list: HTMLElement, el: HTMLElement): void {
  if (el.dataset.author !== 'subagent') return void list.append(el);
  const agents = callsOf(list).agents;
  while (agents.length && agents[agents.length - 1].dataset.done) agents.pop();
  const waiting = agents.length ? agents[agents.length - 1].querySelector<HTMLElement>(':scope > .subagent-run') : null;
  let group = waiting ?? (list.lastElementChild?.matches('details.subagent') ? list.lastElementChild.querySelector<HTMLElement>('.subagent-run') : null);
  if (!group) {
    group = h('div', { class: 'subagent-run' });
    list.append(h('details', { class: 'subagent' }, h('summary', {}, 'subagent'), group));
  }
  const n = group.querySelectorAll(':scope > article.msg').length + 1;
  group.append(el);
  const host = group.closest('details');
  const label = host?.matches('details.tool') ? host.querySelector('.agent-count') ?? host.querySelector('summary')!.appendChild(h('span', { class: 'agent-count' })) : host?.querySelector('summary');
  if (label) label.textContent = host!.matches('details.tool') ? ` · ${plural(n, 'subagent message')}` : `subagent · ${plural(n, 'message')}`;
}

export function message(m: Message, index: number, list: HTMLElement, from: Source): HTMLElement {
  const head = h('div', { class: 'head' }, h('span', { class: 'role' }, m.author ? `${m.role} (${m.author})` : m.role), h('a', { class: 'index', href: `#m-${index}` }, `#${index}`), m.timestamp ? h('time', { datetime: m.timestamp, title: m.timestamp }, m.timestamp.slice(0, 19).replace('T', ' ')) : null);
  const el = h('article', { class: `msg ${m.role}`, id: `m-${index}`, 'data-index': String(index), 'data-role': m.role }, head);
  if (m.author) el.dataset.author = m.author;
  if (m.divider) return divided(el, m, m.divider, list, from);
  for (const b of m.content) {
    const node = block(b, list, from);
    el.append(node);
    if (b.type !== 'tool_call') continue;
    const c = callsOf(list);
    c.byId.set(b.id, node as HTMLElement);
    if ((node as HTMLElement).dataset.view === 'agent' && !m.author) c.agents.push(node as HTMLElement);
  }
  // a message of results shown with their calls above says nothing more: it is not drawn
  if (m.content.length && m.content.every((b) => b.type === 'tool_result') && !el.querySelector('.orphan')) el.classList.add('folded');
  return el;
}

/** A compaction's summary as a divider holding it (folded), or a clear's divider above the message after it. */
function divided(el: HTMLElement, m: Message, d: Divider, list: HTMLElement, from: Source): HTMLElement {
  const bar = h('div', { class: `divider ${d.kind}`, 'data-commit': d.commit }, h('span', {}, d.kind === 'clear' ? 'context cleared' : 'context compacted'), ' ', h('a', { href: `/${d.commit}`, class: 'mono' }, short(d.commit)));
  if (!d.summary) {
    el.prepend(bar);
    for (const b of m.content) el.append(block(b, list, from));
    return el;
  }
  el.classList.add('divided');
  el.dataset.divider = d.kind;
  el.replaceChildren(bar, h('details', { class: 'summary' }, h('summary', {}, 'summary'), ...m.content.map((b) => block(b, list, from))));
  return el;
}

function block(b: Block, list: HTMLElement, from: Source): Node {
  const cut = (b as { cut?: Cut }).cut;
  switch (b.type) {
    case 'text':
      return cut ? withRest(h('div', { class: 'text plain' }, b.text), cut, from) : markdown(b.text);
    case 'thinking':
      return lazyDetails({ class: 'thinking' }, h('summary', {}, 'thinking'), () => [cut ? withRest(h('div', { class: 'text plain' }, b.text), cut, from) : markdown(b.text)]);
    case 'image':
      return image(b, cut, from);
    case 'tool_call':
      return toolCall(b, cut, from);
    case 'tool_result': {
      const content = result(b.content, cut, from);
      // the call is above (pages load in order): its result goes with it
      const call = callsOf(list).byId.get(b.call_id);
      const slot = call?.querySelector(':scope > .result.pending');
      if (call && slot) {
        placeResult(call, slot, b, content);
        return h('div', { class: 'ref' }, `↑ result of ${call.dataset.tool}`);
      }
      return h('div', { class: `result orphan${b.is_error ? ' is-error' : ''}`, 'data-result-of': b.call_id }, h('div', { class: 'ref' }, 'result of a call not in this context'), ...content);
    }
  }
}

/** An image from the transcript's data, of a type a browser draws safely; never fetched from an address. */
function image(b: Extract<Block, { type: 'image' }>, cut: Cut | undefined, from: Source): Node {
  const type = b.media_type ?? 'image/png';
  if (!IMAGE_TYPES.has(type)) return h('div', { class: 'ref' }, `[image of type ${type}: not shown]`);
  if (cut) return imageOnDemand(type, cut, from);
  if (!b.data || !/^[A-Za-z0-9+/=\s]*$/.test(b.data)) return h('div', { class: 'ref' }, `[image${b.url ? `: ${b.url}` : ''}]`);
  return h('img', { class: 'shot', alt: 'image', loading: 'lazy', src: `data:${type};base64,${b.data}` });
}

function result(content: Block[] | string, cut: Cut | undefined, from: Source): Node[] {
  if (typeof content === 'string') return [cut ? withRest(h('pre', { class: 'output' }, content), cut, from) : output(content)];
  return content.map((b) => {
    const c = (b as { cut?: Cut }).cut;
    return b.type === 'text' ? (c ? withRest(h('pre', { class: 'output' }, b.text), c, from) : output(b.text)) : block(b, main, from);
  });
}
