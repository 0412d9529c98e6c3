/// <reference lib="dom" />
import { api, h, link, show, type Hit } from '../ui/dom.js';

// ---- search (ctx grep) and file history (ctx files)

/** Hits shown at most; the search says when there may be more. */
const HITS = 500;

export async function searchPage(q: URLSearchParams): Promise<void> {
  const pattern = q.get('q') ?? '';
  (document.querySelector('#search input') as HTMLInputElement).value = pattern;
  // the server marks each match: the pattern is RE2's, and the browser's engine could backtrack for ages on it
  const params: Record<string, string | number> = { q: pattern, n: HITS, mark: 1 };
  for (const k of ['role', 'since', 'i', 'fixed']) if (q.get(k)) params[k] = q.get(k)!;
  const hits = await api<Hit>('grep', params);
  const list = h('div', { class: 'hits' }, ...hits.map((hit) => h('div', { class: 'hit', 'data-commit': hit.commit }, h('div', {}, link(hit.commit), ` ${hit.branch} · entry ${hit.entry} · ${hit.role}${hit.at ? ` · ${hit.at}` : ''}`), h('div', { class: 'snippet mono' }, ...marked(hit.snippet, hit.mark)))));
  show(h('h1', {}, 'Search'), h('p', { class: 'status', id: 'hits' }, hits.length === 0 ? `no match for ${pattern}` : `${hits.length}${hits.length === HITS ? '+' : ''} hits for ${pattern}`), list);
}

/** The text with its match in <mark>. */
function marked(text: string, mark: [number, number] | null): (Node | string)[] {
  if (!mark || mark[0] === mark[1]) return [text];
  return [text.slice(0, mark[0]), h('mark', {}, text.slice(mark[0], mark[1])), text.slice(mark[1])];
}
