/// <reference lib="dom" />
import { api, go, h, plural, short, show, type Hit } from '../ui/dom.js';

// ---- search (ctx grep): plain text ignoring case unless a toggle says otherwise, hits grouped by session

/** Hits shown at most; the search says when there may be more. */
const HITS = 500;

/** The toggles, as the URL keeps them (`case=1`): each one's label, name and what it does. */
const TOGGLES = [
  ['case', 'Aa', 'match case'],
  ['word', 'ab', 'whole words only'],
  ['regex', '.*', 'regular expression (RE2)'],
] as const;

export async function searchPage(q: URLSearchParams): Promise<void> {
  const pattern = q.get('q') ?? '';
  const on = (k: string) => q.get(k) === '1';
  const header = document.querySelector<HTMLInputElement>('#search input');
  if (header) header.value = pattern;
  const form = searchForm(pattern, on);
  if (pattern === '') return show(h('h1', {}, 'Search'), form);
  // the server finds and marks each match (RE2, linear time): the browser runs no pattern of the user's
  const params: Record<string, string | number> = { q: pattern, n: HITS, mark: 1, i: on('case') ? 0 : 1, fixed: on('regex') ? 0 : 1, w: on('word') ? 1 : 0 };
  for (const k of ['role', 'since']) if (q.get(k)) params[k] = q.get(k)!;
  let hits: Hit[];
  try {
    hits = await api<Hit>('grep', params);
  } catch (e) {
    // a pattern the server refused (a bad regular expression): said under the box, the box kept
    return show(h('h1', {}, 'Search'), form, h('p', { class: 'error search-error', role: 'alert' }, e instanceof Error ? e.message : String(e)));
  }
  const groups = new Map<string, Hit[]>();
  for (const hit of hits) (groups.get(hit.branch) ?? groups.set(hit.branch, []).get(hit.branch)!).push(hit);
  const count = hits.length === 0 ? `no match for ${pattern}` : `${hits.length}${hits.length === HITS ? '+' : ''} hits for ${pattern} in ${plural(groups.size, 'session')}`;
  show(h('h1', {}, 'Search'), form, h('p', { class: 'status', id: 'hits' }, count), ...[...groups].map(([branch, list]) => group(branch, list)));
}

function searchForm(pattern: string, on: (k: string) => boolean): HTMLFormElement {
  const input = h('input', { name: 'q', value: pattern, placeholder: 'search every session', 'aria-label': 'search for' });
  const toggles = TOGGLES.map(([name, label, title]) => {
    const box = h('input', { type: 'checkbox', name, value: '1', 'aria-label': title });
    box.checked = on(name);
    return h('label', { class: 'toggle', title }, box, h('span', { class: 'mono' }, label));
  });
  const form = h('form', { class: 'find', role: 'search' }, input, h('span', { class: 'toggles' }, ...toggles), h('button', {}, 'Search'));
  const submit = () => {
    const next = new URLSearchParams({ q: input.value });
    for (const [name] of TOGGLES) if ((form.elements.namedItem(name) as HTMLInputElement).checked) next.set(name, '1');
    go(`/search?${next}`);
  };
  form.addEventListener('submit', (e) => (e.preventDefault(), submit()));
  // a toggle searches again at once, as an editor's find box does
  for (const t of toggles) t.addEventListener('change', () => input.value !== '' && submit());
  return form;
}

/** One session's hits: its branch, then each hit's commit, entry, role and time over its snippet. */
function group(branch: string, hits: Hit[]): HTMLElement {
  return h(
    'section',
    { class: 'hit-group', 'data-branch': branch },
    h('h2', {}, h('span', { class: 'branch' }, branch), ' ', h('span', { class: 'status' }, plural(hits.length, 'hit'))),
    ...hits.map((hit) =>
      h(
        'a',
        { class: 'hit', href: `/${hit.commit}#entry-${hit.entry}`, 'data-commit': hit.commit, 'data-entry': String(hit.entry) },
        h('span', { class: 'where' }, h('span', { class: 'mono id', title: hit.commit }, short(hit.commit)), ` · entry ${hit.entry} · ${hit.role}${hit.at ? ` · ${hit.at.slice(0, 16).replace('T', ' ')}` : ''}`),
        h('span', { class: 'snippet mono' }, ...marked(hit.snippet, hit.mark)),
      ),
    ),
  );
}

/** The text with its match in <mark>. */
function marked(text: string, mark: [number, number] | null): (Node | string)[] {
  if (!mark || mark[0] === mark[1]) return [text];
  return [text.slice(0, mark[0]), h('mark', {}, text.slice(mark[0], mark[1])), text.slice(mark[1])];
}
