/// <reference lib="dom" />
// The web view of `ctx serve`: plain DOM, no framework (bundled by esbuild into dist/web/app.js).
// It reads only the server's JSON API; from src it takes types alone.
import type { NeutralMessage } from '../core/neutral.js';
import { api, failed, h, link, main, plural, short, show, type Commit, type Diff, type GraphLine, type Hit, type Page, type Resume, type Runtime, type Touch } from './dom.js';
import { FIRST_PAGE, message, messagePages } from './messages.js';
import { blamePage, codeCommits, codePage } from './code.js';

// ---- the graph: every branch and fork, as `ctx log --all --graph` draws it

/** Commits the graph shows first (the server's default), and how many more each "older" link adds. */
const GRAPH = 1000;

async function graphPage(q: URLSearchParams): Promise<void> {
  const n = Number(q.get('n')) || GRAPH;
  const rows = await api<GraphLine>('graph', { n });
  const picked: string[] = [];
  const compare = h('button', { disabled: '' }, 'Compare the two checked');
  compare.addEventListener('click', () => navigate(`/diff?${new URLSearchParams({ a: picked[0], b: picked[1] })}`));
  const graph = h('div', { class: 'graph' });
  for (const row of rows) {
    const line = h('div', { class: 'row' }, h('span', { class: 'lanes' }, row.graph));
    const c = row.commit;
    if (c) {
      const box = h('input', { type: 'checkbox', 'aria-label': `compare ${short(c.id)}` });
      box.addEventListener('change', () => {
        if (box.checked) picked.push(c.id);
        else picked.splice(picked.indexOf(c.id), 1);
        compare.toggleAttribute('disabled', picked.length !== 2);
      });
      line.append(
        box,
        link(c.id),
        h('span', { class: 'type' }, c.type),
        h('span', { class: 'time' }, c.created_at.slice(0, 16).replace('T', ' ')),
        c.branches.length ? h('span', { class: 'branches' }, `(${c.branches.join(', ')})`) : '',
        h('span', { class: 'summary' }, c.summary),
      );
      line.dataset.id = c.id;
    }
    graph.append(line);
  }
  // the lanes in one column as wide as the widest, so the commits line up
  const width = Math.max(1, ...rows.map((r) => r.graph.length));
  for (const lanes of graph.querySelectorAll<HTMLElement>('.lanes')) lanes.style.width = `${width}ch`;
  const commits = rows.filter((r) => r.commit).length;
  // as many as asked for: there may be older ones
  const older = commits === n ? h('a', { href: `/?n=${n + GRAPH}`, class: 'older' }, `${GRAPH.toLocaleString('en-US')} older commits`) : null;
  show(h('h1', {}, 'Branches and forks'), h('div', { class: 'toolbar' }, `${commits} commits${older ? ', the newest' : ''}`, compare), graph, ...(older ? [older] : []));
}

// ---- a commit: metadata, annotations, resume commands, its context's messages page by page

/** The session's title and its pull request (a link only to an http(s) address), where the chain has them. */
function sessionLine(source: Record<string, unknown> | undefined): HTMLElement | null {
  const title = typeof source?.title === 'string' ? source.title : null;
  const pr = source?.pr as { number?: unknown; url?: unknown; repository?: unknown } | undefined;
  const prLink = pr && typeof pr.url === 'string' && /^https?:\/\//.test(pr.url) ? h('a', { href: pr.url, class: 'pr', rel: 'noopener noreferrer' }, `${typeof pr.repository === 'string' ? pr.repository : ''}#${String(pr.number)}`) : null;
  if (title === null && prLink === null) return null;
  return h('p', { class: 'session-title' }, ...(title !== null ? [h('b', {}, title)] : []), ...(prLink ? [title !== null ? ' · pull request ' : 'pull request ', prLink] : []));
}

async function commitPage(id: string): Promise<void> {
  // the first page of messages is asked for with the commit, not after it
  const stop = new URLSearchParams(location.search).get('stop') === 'root' ? 'root' : 'compaction';
  const first = api<Page>('messages', { id, stop, offset: 0, limit: FIRST_PAGE });
  first.catch(() => {}); // a missing commit is reported by show
  const [c] = await api<Commit>('show', { id });
  const rows: [string, Node | string][] = [
    ['id', c.id],
    ['parent', c.parent ?? '(root)'],
    ...(c.branches.length ? [['branches', c.branches.join(', ')] as [string, string]] : []),
    ...Object.entries(c.meta).filter(([k]) => k !== 'summary').map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)] as [string, string]),
    ...Object.entries(c.annotations).map(([k, v]) => [`note: ${k}`, typeof v === 'string' ? v : JSON.stringify(v)] as [string, string]),
  ];
  const table = h('table', { class: 'meta' }, ...rows.map(([k, v]) => h('tr', {}, h('td', {}, k), h('td', {}, v))));
  const m = c.meta;
  const line = [c.id, m.type, m.created_at.slice(0, 16).replace('T', ' '), `${m.principal}@${m.machine}`, plural(m.message_count, 'message'), ...(c.branches.length ? [c.branches.join(', ')] : [])].join(' · ');
  const meta = h('details', { class: 'metadata' }, h('summary', { class: 'mono' }, line), table);
  const resume = h('section', { class: 'resume' }, h('p', { class: 'status' }, 'resume commands…'));
  const list = h('div', { class: 'messages', id: 'messages' });
  const count = h('p', { class: 'status', id: 'count' });
  const nav = h(
    'p',
    { class: 'toolbar' },
    ...(c.parent ? ['parent ', link(c.parent), ' · ', h('a', { href: `/diff?${new URLSearchParams({ a: c.parent, b: c.id })}` }, 'difference with its parent'), ' · '] : ['(root) · ']),
    // the context as a resume reads it (from the nearest compaction), or the whole chain
    stop === 'root' ? h('a', { href: `/${id}`, class: 'stop' }, 'from the nearest compaction') : h('a', { href: `/${id}?stop=root`, class: 'stop' }, 'the whole chain from its root'),
  );
  // annotations (ctx annotate) in sight: the summary is the title already
  const notes = Object.entries(c.annotations).filter(([k]) => k !== 'summary' && k !== 'at' && k !== 'by');
  const noted = notes.length ? h('p', { class: 'notes' }, ...notes.flatMap(([k, v], i) => [i ? ' · ' : '', h('b', {}, k), ` ${typeof v === 'string' ? v : Array.isArray(v) ? v.join(', ') : JSON.stringify(v)}`])) : null;
  // the code commits it led to (ctx's git hooks recorded them)
  const led = codeCommits(c);
  const titled = sessionLine(m.source);
  show(h('h1', {}, c.summary || short(c.id)), ...(titled ? [titled] : []), meta, ...(noted ? [noted] : []), nav, ...(led ? [led] : []), resume, count, list);
  // the messages first: a resume command renders the whole session on the server
  await messagePages(c.id, stop, list, count, first);
  const runtimes = (await api<Runtime>('runtimes')).sort((x, y) => Number(y.formats.includes(m.format)) - Number(x.formats.includes(m.format)));
  resume.replaceChildren(h('h2', {}, 'Resume'), ...runtimes.map((r) => resumeSlot(c.id, r, r.formats.includes(m.format))));
}

/** A runtime's resume command: its own runtime's at once, a translated one when asked for. */
function resumeSlot(id: string, r: Runtime, native: boolean): HTMLElement {
  const slot = h('div', { class: 'cmd', 'data-runtime': r.runtime }, h('span', {}, `${r.title}${native ? '' : ' (translated)'}`));
  const load = () =>
    api<Resume>('resume', { id, runtime: r.runtime }).then(
      ([cmd]) => slot.replaceWith(resumeLine(cmd)),
      (e) => slot.replaceChildren(h('span', { class: 'error' }, `${r.title}: ${e.message}`)),
    );
  if (native) void load();
  else {
    const button = h('button', { class: 'show' }, 'Show the command');
    button.addEventListener('click', () => {
      button.replaceWith(h('span', { class: 'status' }, 'rendering…'));
      void load();
    });
    slot.append(button);
  }
  return slot;
}

function resumeLine(r: Resume): HTMLElement {
  const button = h('button', { class: 'copy', 'data-runtime': r.runtime }, 'Copy');
  button.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(r.command);
      button.textContent = 'Copied';
    } catch {
      // no clipboard here (an insecure origin): select the text to copy by hand
      getSelection()?.selectAllChildren(code);
      button.textContent = 'Selected';
    }
  });
  const code = h('code', { class: 'command' }, r.command);
  return h('div', { class: 'cmd', 'data-runtime': r.runtime }, h('span', {}, `${r.title}${r.native ? '' : ' (translated)'}`), code, button);
}

// ---- the difference between two commits: messages only in one or the other

async function diffPage(a: string, b: string): Promise<void> {
  const [d] = await api<Diff>('diff', { a, b });
  const side = (id: string, only: Diff['only_a']) => {
    const list = h('div', { class: 'messages' });
    for (const o of only) list.append(message(o.message as NeutralMessage, o.index, list, { id, stop: 'compaction', entry: o.index }));
    return h('section', { class: 'side' }, h('h2', {}, 'only in ', link(id)), h('p', { class: 'status' }, plural(only.length, 'message')), list);
  };
  show(h('h1', {}, 'Difference'), h('p', { class: 'status' }, `${plural(d.common, 'message')} in both`), h('div', { class: 'diff' }, side(d.a, d.only_a), side(d.b, d.only_b)));
}

// ---- search (ctx grep) and file history (ctx files)

/** Hits shown at most; the search says when there may be more. */
const HITS = 500;

async function searchPage(q: URLSearchParams): Promise<void> {
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

async function filesPage(q: URLSearchParams): Promise<void> {
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

// ---- routing: real paths, so a permalink is http://HOST:PORT/ctx-<id>

async function route(): Promise<void> {
  const { pathname, search } = location;
  const q = new URLSearchParams(search);
  const id = /^\/(ctx-[0-9a-fA-F]{4,40})$/.exec(pathname)?.[1];
  const sha = /^\/code\/([0-9a-fA-F]{4,64})$/.exec(pathname)?.[1];
  document.title = id ? `ctx ${short(id)}` : sha ? `code ${sha.slice(0, 12)}` : 'ctx';
  // a code commit's diff and its conversation side by side take the whole width
  main.classList.toggle('wide', sha !== undefined || pathname === '/blame');
  show(h('p', { class: 'status' }, 'loading…'));
  try {
    if (id) await commitPage(id);
    else if (sha) await codePage(sha);
    else if (pathname === '/blame') await blamePage(q);
    else if (pathname === '/diff') await diffPage(q.get('a') ?? '', q.get('b') ?? '');
    else if (pathname === '/search') await searchPage(q);
    else if (pathname === '/files') await filesPage(q);
    else await graphPage(q);
  } catch (e) {
    failed(e);
  }
  document.body.dataset.ready = pathname + search;
}

function navigate(url: string): void {
  history.pushState(null, '', url);
  void route();
}

document.addEventListener('click', (e) => {
  const a = (e.target as Element).closest?.('a');
  if (!a || a.origin !== location.origin || e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0) return;
  e.preventDefault();
  navigate(a.pathname + a.search + a.hash);
});
for (const form of document.querySelectorAll('header form')) {
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const f = e.target as HTMLFormElement;
    navigate(`${f.getAttribute('action')}?${new URLSearchParams(new FormData(f) as unknown as Record<string, string>)}`);
  });
}
addEventListener('popstate', () => void route());
void route();
