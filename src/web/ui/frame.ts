/// <reference lib="dom" />
// The frame around every page: the theme (the system's, or the one the toggle chose, kept in
// localStorage), the header's menu on a narrow window, and the keys (j/k rows, n/p commits, / search, ? help).
import { api, go, h, main, type GraphLine } from './dom.js';

const THEME_KEY = 'ctx-theme';

/** The theme the page shows: the one chosen, else the system's. */
function effectiveTheme(): 'light' | 'dark' {
  const chosen = document.documentElement.dataset.theme;
  if (chosen === 'light' || chosen === 'dark') return chosen;
  return matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

function applyTheme(theme: string | null): void {
  if (theme === 'light' || theme === 'dark') document.documentElement.dataset.theme = theme;
  else delete document.documentElement.dataset.theme;
  const button = document.getElementById('theme');
  if (button) button.textContent = effectiveTheme() === 'dark' ? '☀' : '☾';
  button?.setAttribute('aria-label', `switch to the ${effectiveTheme() === 'dark' ? 'light' : 'dark'} theme`);
}

/** Rows j and k move through, on whichever page is shown. */
const ROWS = '.session-row, article.msg, .graph .row[data-id], .hit, table.touches tr[data-id]';

function move(by: number): void {
  const rows = [...main.querySelectorAll<HTMLElement>(ROWS)];
  if (rows.length === 0) return;
  const at = rows.findIndex((r) => r.classList.contains('current'));
  const next = rows[Math.min(rows.length - 1, Math.max(0, at < 0 ? (by > 0 ? 0 : rows.length - 1) : at + by))];
  rows[at]?.classList.remove('current');
  next.classList.add('current');
  next.scrollIntoView({ block: 'nearest' });
}

const KEYS: [string, string][] = [
  ['j / k', 'next / previous row (session, message, commit, hit)'],
  ['Enter', 'open the current row'],
  ['n / p, ] / [', 'next / previous commit on a commit page'],
  ['/', 'search'],
  ['g', 'the sessions page'],
  ['t', 'light or dark theme'],
  ['?', 'these keys'],
];

function toggleHelp(): void {
  const open = document.getElementById('keys');
  if (open) return open.remove();
  const box = h('div', { id: 'keys', role: 'dialog', 'aria-label': 'keyboard shortcuts' }, h('h2', {}, 'Keys'), h('table', {}, ...KEYS.map(([k, what]) => h('tr', {}, h('td', {}, h('kbd', {}, k)), h('td', {}, what)))));
  box.addEventListener('click', () => box.remove());
  document.body.append(box);
}

const TRAIL_KEY = 'ctx-trail';
const trail = (): Record<string, string> => JSON.parse(sessionStorage.getItem(TRAIL_KEY) ?? '{}');

/**
 * On a commit page (main[data-commit]): p goes to the parent, n to the child it was left for (p
 * remembers it for the tab), else to the newest child on any chain.
 */
async function step(dir: 'next' | 'prev'): Promise<void> {
  const id = main.dataset.commit;
  if (!id) return;
  if (dir === 'prev') {
    const parent = main.dataset.parent;
    if (!parent) return;
    sessionStorage.setItem(TRAIL_KEY, JSON.stringify({ ...trail(), [parent]: id }));
    return go(`/${parent}`);
  }
  const child = trail()[id] ?? (await api<NonNullable<GraphLine['commit']>>('log')).find((c) => c.parent === id)?.id;
  if (child) go(`/${child}`);
}

function onKey(e: KeyboardEvent): void {
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  const t = e.target as HTMLElement;
  if (t.closest('input, textarea, select, [contenteditable]')) {
    if (e.key === 'Escape') t.blur();
    return;
  }
  const actions: Record<string, () => void> = {
    j: () => move(1),
    k: () => move(-1),
    n: () => void step('next'),
    ']': () => void step('next'),
    p: () => void step('prev'),
    '[': () => void step('prev'),
    '/': () => document.querySelector<HTMLInputElement>('#search input')?.focus(),
    g: () => go('/'),
    t: toggleTheme,
    '?': toggleHelp,
    Escape: () => document.getElementById('keys')?.remove(),
    Enter: () => main.querySelector<HTMLAnchorElement>('.current a[href]')?.click(),
  };
  const act = actions[e.key];
  if (!act) return;
  e.preventDefault();
  act();
}

function toggleTheme(): void {
  const next = effectiveTheme() === 'dark' ? 'light' : 'dark';
  localStorage.setItem(THEME_KEY, next);
  applyTheme(next);
}

/** Wires the header (theme, menu, keys button) and the keys; the theme is applied before the first page is drawn. */
export function setUpFrame(): void {
  applyTheme(localStorage.getItem(THEME_KEY));
  matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () => applyTheme(localStorage.getItem(THEME_KEY)));
  document.getElementById('theme')?.addEventListener('click', toggleTheme);
  document.getElementById('help')?.addEventListener('click', toggleHelp);
  const header = document.querySelector('header')!;
  const menu = document.getElementById('menu')!;
  menu.addEventListener('click', () => menu.setAttribute('aria-expanded', String(header.classList.toggle('open'))));
  addEventListener('keydown', onKey);
  // a new page: the menu closes, the row cursor starts again
  addEventListener('popstate', () => {
    header.classList.remove('open');
    menu.setAttribute('aria-expanded', 'false');
  });
}
