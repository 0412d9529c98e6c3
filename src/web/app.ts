/// <reference lib="dom" />
// The web view of `ctx serve`: plain DOM, no framework (bundled by esbuild into dist/web/app.js).
// It reads only the server's JSON API; from src it takes types alone.
import { failed, go, h, main, short, show } from './ui/dom.js';
import { blamePage, codePage } from './pages/code.js';
import { graphPage } from './pages/graph.js';
import { commitPage } from './pages/commit.js';
import { diffPage } from './pages/diff.js';
import { searchPage } from './pages/search.js';
import { filesPage } from './pages/files.js';
import { usagePage } from './pages/usage.js';
import { sessionsPage } from './pages/sessions.js';
import { setUpFrame } from './ui/frame.js';

/** Each page's title until the page names itself (a commit by its summary). */
const TITLES: Record<string, string> = { '/': 'Sessions', '/graph': 'Graph', '/diff': 'Compare', '/compare': 'Compare', '/search': 'Search', '/files': 'File history', '/usage': 'Usage', '/blame': 'Blame' };

// ---- routing: real paths, so a permalink is http://HOST:PORT/ctx-<id>

async function route(): Promise<void> {
  // the graph was the start page: /?n=… still opens it
  if (location.pathname === '/' && new URLSearchParams(location.search).has('n')) history.replaceState(null, '', `/graph${location.search}`);
  const { pathname, search } = location;
  const q = new URLSearchParams(search);
  const id = /^\/(ctx-[0-9a-fA-F]{4,40})$/.exec(pathname)?.[1];
  const sha = /^\/code\/([0-9a-fA-F]{4,64})$/.exec(pathname)?.[1];
  document.title = `${id ? short(id) : sha ? `code ${sha.slice(0, 12)}` : (TITLES[pathname] ?? 'ctx')} · ctx`;
  for (const key of ['commit', 'parent']) delete main.dataset[key];
  for (const a of document.querySelectorAll('header nav a')) a.toggleAttribute('aria-current', a.getAttribute('href') === pathname);
  // a code commit's diff and its conversation side by side take the whole width
  main.classList.toggle('wide', sha !== undefined || pathname === '/blame');
  show(h('p', { class: 'status' }, 'loading…'));
  try {
    if (id) await commitPage(id);
    else if (sha) await codePage(sha);
    else if (pathname === '/blame') await blamePage(q);
    else if (pathname === '/diff' || pathname === '/compare') await diffPage(q);
    else if (pathname === '/search') await searchPage(q);
    else if (pathname === '/files') await filesPage(q);
    else if (pathname === '/usage') await usagePage(q);
    else if (pathname === '/graph') await graphPage(q);
    else await sessionsPage(q);
  } catch (e) {
    failed(e);
  }
  document.body.dataset.ready = pathname + search;
}

document.addEventListener('click', (e) => {
  const a = (e.target as Element).closest?.('a');
  if (!a || a.origin !== location.origin || e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0) return;
  e.preventDefault();
  go(a.pathname + a.search + a.hash);
});
for (const form of document.querySelectorAll('header form')) {
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const f = e.target as HTMLFormElement;
    go(`${f.getAttribute('action')}?${new URLSearchParams(new FormData(f) as unknown as Record<string, string>)}`);
  });
}
addEventListener('popstate', () => void route());
setUpFrame();
void route();
