/// <reference lib="dom" />
import { api, copyButton, h, link, main, plural, short, show, type Commit, type Page, type Resume, type Runtime } from '../ui/dom.js';
import { FIRST_PAGE, firstOffset, messagePages, targetOf } from '../ui/messages.js';
import { codeCommits } from './code.js';
import { inline } from '../ui/markdown.js';

// ---- a commit: metadata, annotations, resume commands, its context's messages page by page

/** The session's title and its pull request (a link only to an http(s) address), where the chain has them. */
function sessionLine(source: Record<string, unknown> | undefined): HTMLElement | null {
  const title = typeof source?.title === 'string' ? source.title : null;
  const pr = source?.pr as { number?: unknown; url?: unknown; repository?: unknown } | undefined;
  const prLink = pr && typeof pr.url === 'string' && /^https?:\/\//.test(pr.url) ? h('a', { href: pr.url, class: 'pr', rel: 'noopener noreferrer' }, `${typeof pr.repository === 'string' ? pr.repository : ''}#${String(pr.number)}`) : null;
  if (title === null && prLink === null) return null;
  return h('p', { class: 'session-title' }, ...(title !== null ? [h('b', {}, title)] : []), ...(prLink ? [title !== null ? ' · pull request ' : 'pull request ', prLink] : []));
}

export async function commitPage(id: string): Promise<void> {
  // the first page of messages is asked for with the commit, not after it
  const stop = new URLSearchParams(location.search).get('stop') === 'root' ? 'root' : 'compaction';
  // a message named in the hash (a search hit, a message's link): the list may start near it
  const target = targetOf(location.hash);
  const first = api<Page>('messages', { id, stop, offset: firstOffset(target), limit: FIRST_PAGE });
  first.catch(() => {}); // a missing commit is reported by show
  const [c] = await api<Commit>('show', { id });
  const heading = h('h1', {}, c.summary ? inline(c.summary) : short(c.id));
  document.title = `${heading.textContent} · ctx`;
  // the keys n/p (ui/frame.ts) step from here
  main.dataset.commit = c.id;
  if (c.parent) main.dataset.parent = c.parent;
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
    ' ',
    copyButton(c.id, 'Copy id'),
  );
  // annotations (ctx annotate) in sight: the summary is the title already
  const notes = Object.entries(c.annotations).filter(([k]) => k !== 'summary' && k !== 'at' && k !== 'by');
  const noted = notes.length ? h('p', { class: 'notes' }, ...notes.flatMap(([k, v], i) => [i ? ' · ' : '', h('b', {}, k), ` ${typeof v === 'string' ? v : Array.isArray(v) ? v.join(', ') : JSON.stringify(v)}`])) : null;
  // the code commits it led to (ctx's git hooks recorded them)
  const led = codeCommits(c);
  const titled = sessionLine(m.source);
  show(heading, ...(titled ? [titled] : []), meta, ...(noted ? [noted] : []), nav, ...(led ? [led] : []), resume, count, list);
  // the messages first: a resume command renders the whole session on the server
  await messagePages(c.id, stop, list, count, first, target);
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
  const code = h('code', { class: 'command' }, r.command);
  return h('div', { class: 'cmd', 'data-runtime': r.runtime }, h('span', {}, `${r.title}${r.native ? '' : ' (translated)'}`), code, copyButton(r.command));
}
