/// <reference lib="dom" />
// A context's messages on the page as people read chat: text as markdown, thinking collapsed, a tool
// call with its result in one block (tools.ts), images from their data, a subagent's messages nested
// under the call that started it, a compaction or clear as a divider. Loaded a page at a time as the
// list scrolls; each message lays out only near the screen (content-visibility in conversation.css).
import type { ToolOutput } from '../../api/capture/runtime.js';
import type { Block, NeutralMessage } from '../../core/neutral.js';
import { imageOnDemand, withRest, type Source } from './cut.js';
import { api, failed, h, lazyDetails, main, plural, short, type Cut, type Divider, type Page, type SubagentRun } from './dom.js';
import { markdown } from './markdown.js';
import { output, placeResult, toolCall } from './tools.js';

export type { Source } from './cut.js';

/** Messages fetched per page while scrolling; the first page is smaller, to draw sooner. */
const PAGE = 100;
export const FIRST_PAGE = 40;
/** Milliseconds of drawing in one task while scrolling: the page answers the wheel in between. */
const BUDGET = 6;
/** Messages a block of the list holds: the browser lays out and watches blocks near the screen, not each message (conversation.css). */
const BLOCK = 8;

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

/** The message a page opens at (`#m-<index>`, or `#entry-<n>`: a search hit's entry among the commit's own messages). */
export type Target = { index: number } | { entry: number };

/** Messages drawn above a target the list starts at. */
export const LEAD = 3;

/** The target a URL's hash names, if any. */
export function targetOf(hash: string): Target | null {
  const m = /^#(m|entry)-(\d{1,9})$/.exec(hash);
  if (!m) return null;
  return m[1] === 'm' ? { index: Number(m[2]) } : { entry: Number(m[2]) };
}

/** Where the first page starts: a few messages before a target past it, so a hit deep in a long session opens without drawing what is before. */
export const firstOffset = (target: Target | null) => (target && 'index' in target && target.index >= FIRST_PAGE ? target.index - LEAD : 0);

/** Loads the first page, then the next each time the end of the list scrolls into view; `target`: the message scrolled to and marked. */
export async function messagePages(id: string, stop: string, list: HTMLElement, count: HTMLElement, first: Promise<Page[]>, target: Target | null = null): Promise<void> {
  const sentinel = h('div', { class: 'sentinel' });
  let [opened] = await first;
  let at = target === null ? null : 'index' in target ? target.index : opened.own + target.entry;
  if (at !== null && at >= opened.total) at = null;
  if (at !== null && (at < opened.offset || at >= opened.offset + opened.messages.length)) [opened] = await api<Page>('messages', { id, stop, offset: Math.max(0, at - LEAD), limit: FIRST_PAGE });
  // the list starts past the beginning: a link opens it from the start
  if (opened.offset > 0) list.before(h('p', { class: 'status earlier' }, `${plural(opened.offset, 'earlier message')} not shown · `, h('a', { href: `/${id}${stop === 'root' ? '?stop=root' : ''}` }, 'show from the start')));
  let offset = opened.offset;
  let total = Infinity;
  let loading = false;
  const more = async () => {
    if (loading || offset >= total) return;
    loading = true;
    try {
      const [page] = offset === opened.offset ? [opened] : await api<Page>('messages', { id, stop, offset, limit: PAGE });
      total = page.total;
      const firstPage = page === opened;
      // the first page at once; the next ones a few milliseconds of drawing at a time, the page breathing in between: no long task while scrolling
      let since = performance.now();
      for (let i = 0; i < page.messages.length; i++) {
        if (!firstPage && performance.now() - since > BUDGET) {
          await new Promise((done) => setTimeout(done));
          since = performance.now();
        }
        place(list, message(page.messages[i] as Message, page.offset + i, list, { id: page.id, stop, entry: page.offset + i }));
      }
      offset = page.offset + page.messages.length;
      count.textContent = `${offset} of ${plural(total, 'message')}`;
      list.dataset.loaded = String(offset);
      list.dataset.total = String(total);
      if (firstPage && at !== null) reveal(list, at);
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
 * The target message scrolled to and marked; a message of results (drawn in its calls' blocks) by
 * the block of its first call. The folds around it open.
 */
function reveal(list: HTMLElement, index: number): void {
  let el = list.querySelector<HTMLElement>(`#m-${index}`);
  if (!el) return;
  const ref = el.classList.contains('folded') ? el.querySelector<HTMLElement>('.ref[data-call]') : null;
  const call = ref ? callsOf(list).byId.get(ref.dataset.call!) : undefined;
  if (call) el = call;
  for (let d: HTMLElement | null = el; d && d !== list; d = d.parentElement) if (d instanceof HTMLDetailsElement) d.open = true;
  el.classList.add('target');
  el.scrollIntoView({ block: 'center' });
}

/**
 * A message into the list: a subagent's goes into the run of the subagent call still waiting for its
 * result (the call that started it), else into the subagent group the list ends with, else a new one.
 */
function place(list: HTMLElement, el: HTMLElement): void {
  const into = tailBlock(list);
  if (el.dataset.author !== 'subagent') return void into.append(el);
  const agents = callsOf(list).agents;
  while (agents.length && agents[agents.length - 1].dataset.done) agents.pop();
  const waiting = agents.length ? agents[agents.length - 1].querySelector<HTMLElement>(':scope > .subagent-run') : null;
  let group = waiting ?? (into.lastElementChild?.matches('details.subagent') ? into.lastElementChild.querySelector<HTMLElement>('.subagent-run') : null);
  if (!group) {
    group = h('div', { class: 'subagent-run' });
    into.append(h('details', { class: 'subagent' }, h('summary', {}, 'subagent'), group));
  }
  const n = group.querySelectorAll(':scope > article.msg').length + 1;
  group.append(el);
  const host = group.closest('details');
  const label = host?.matches('details.tool') ? host.querySelector('.agent-count') ?? host.querySelector('summary')!.appendChild(h('span', { class: 'agent-count' })) : host?.querySelector('summary');
  if (label) label.textContent = host!.matches('details.tool') ? ` · ${plural(n, 'subagent message')}` : `subagent · ${plural(n, 'message')}`;
}

/** The block of the list the next message goes into: the last one, or a new one when it is full. */
function tailBlock(list: HTMLElement): HTMLElement {
  const last = list.lastElementChild as HTMLElement | null;
  if (last?.matches('.block') && last.childElementCount < BLOCK) return last;
  return list.appendChild(h('div', { class: 'block' }));
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
    const run = (b as { run?: SubagentRun }).run;
    if (run) subagentRun(node as HTMLElement, run);
    if ((node as HTMLElement).dataset.view === 'agent' && !m.author) c.agents.push(node as HTMLElement);
  }
  // a message of results shown with their calls above says nothing more: it is not drawn
  if (m.content.length && m.content.every((b) => b.type === 'tool_result') && !el.querySelector('.orphan')) el.classList.add('folded');
  return el;
}

/**
 * The subagent run an agent call started, kept on a branch of its own: its messages (the run's own
 * commits) loaded into the call's block the first time it opens.
 */
function subagentRun(call: HTMLElement, run: SubagentRun): void {
  const slot = call.querySelector<HTMLElement>(':scope > .subagent-run')!;
  slot.dataset.branch = run.branch;
  const label = call.querySelector(':scope > summary')!.appendChild(h('span', { class: 'agent-count' }, ' · subagent run'));
  const load = async () => {
    const sub = h('div', { class: 'subagent-messages' });
    slot.replaceChildren(h('p', { class: 'status' }, 'loading the subagent run…'));
    let offset = 0;
    let total = Infinity;
    while (offset < total) {
      const [page] = await api<Page>('messages', { id: run.id, stop: run.stop, offset, limit: PAGE });
      total = page.total;
      page.messages.forEach((m, i) => {
        const el = message(m as Message, page.offset + i, sub, { id: page.id, stop: run.stop, entry: page.offset + i });
        // its place is in the subagent's own context, not in this list
        el.removeAttribute('id');
        el.querySelector('a.index')?.removeAttribute('href');
        sub.append(el);
      });
      if (page.messages.length === 0) break;
      offset = page.offset + page.messages.length;
    }
    label.textContent = ` · ${plural(offset, 'subagent message')}`;
    slot.replaceChildren(h('p', { class: 'status run-branch' }, 'on its branch ', h('a', { href: `/${run.id}`, class: 'mono' }, run.branch)), sub);
  };
  call.addEventListener('toggle', () => void load().catch((e) => slot.replaceChildren(h('p', { class: 'error' }, e instanceof Error ? e.message : String(e)))), { once: true });
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
      return toolCall(b);
    case 'tool_result': {
      // a result its runtime unwraps (Codex's shell: output and exit code in JSON): the output, and the exit code when it failed
      const unwrapped = (b as { output?: ToolOutput }).output;
      const content = unwrapped ? [output(unwrapped.text), ...(unwrapped.exit ? [h('div', { class: 'exit' }, `exit ${unwrapped.exit}`)] : [])] : result(b.content, cut, from);
      const r = unwrapped?.exit ? { ...b, is_error: true } : b;
      // the call is above (pages load in order): its result goes with it
      const call = callsOf(list).byId.get(b.call_id);
      const slot = call?.querySelector(':scope > .result.pending');
      if (call && slot) {
        placeResult(call, slot, r, content);
        return h('div', { class: 'ref', 'data-call': b.call_id }, `↑ result of ${call.dataset.tool}`);
      }
      return h('div', { class: `result orphan${r.is_error ? ' is-error' : ''}`, 'data-result-of': b.call_id }, h('div', { class: 'ref' }, 'result of a call not in this context'), ...content);
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
