/// <reference lib="dom" />
import { api, copyButton, go, h, plural, show, timeAgo, type Runtime, type SessionRow } from '../ui/dom.js';
import { inline } from '../ui/markdown.js';

// ---- the start page: every session, by project then runtime, newest first, forks under their session

/** The filters, as the URL's query keeps them (a filtered list is a permalink). */
interface Filters {
  runtime: string;
  project: string;
  /** a glob over branch names: `*` any characters, `?` one */
  branch: string;
  /** YYYY-MM-DD, or a count of days (`7d`) */
  since: string;
}

const NO_PROJECT = '(no project recorded)';
/** one formatter for every row (toLocaleString builds one a call) */
const NUMBER = new Intl.NumberFormat('en-US');

const filtersOf = (q: URLSearchParams): Filters => ({ runtime: q.get('runtime') ?? '', project: q.get('project') ?? '', branch: q.get('branch') ?? '', since: q.get('since') ?? '' });

function globRegex(glob: string): RegExp {
  const body = glob.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.');
  return new RegExp(`^${body}$`);
}

/** The ISO time `since` names, or null when it names none. */
function sinceTime(since: string, now = Date.now()): string | null {
  const days = /^(\d{1,5})d$/.exec(since);
  if (days) return new Date(now - Number(days[1]) * 86_400_000).toISOString();
  return /^\d{4}-\d{2}-\d{2}$/.test(since) && !Number.isNaN(Date.parse(since)) ? `${since}T00:00:00.000Z` : null;
}

function matcher(f: Filters): (s: SessionRow) => boolean {
  const branch = f.branch ? globRegex(f.branch) : null;
  const since = sinceTime(f.since);
  return (s) => (!f.runtime || s.runtime === f.runtime) && (!f.project || (s.project ?? NO_PROJECT) === f.project) && (!branch || branch.test(s.branch)) && (!since || s.updated_at >= since);
}

const newest = (rows: SessionRow[]) => rows.reduce((t, s) => (s.updated_at > t ? s.updated_at : t), '');
const byNewest = (a: SessionRow[], b: SessionRow[]) => (newest(b) < newest(a) ? -1 : newest(b) > newest(a) ? 1 : 0);

/** Rows by a key, groups ordered by their newest session. */
function groupBy(rows: SessionRow[], key: (s: SessionRow) => string): [string, SessionRow[]][] {
  const groups = new Map<string, SessionRow[]>();
  for (const s of rows) (groups.get(key(s)) ?? groups.set(key(s), []).get(key(s))!).push(s);
  return [...groups].sort((a, b) => byNewest(a[1], b[1]));
}

export async function sessionsPage(q: URLSearchParams): Promise<void> {
  const [all, runtimes] = await Promise.all([api<SessionRow>('sessions'), api<Runtime>('runtimes')]);
  const f = filtersOf(q);
  const shown = all.filter(matcher(f));
  const visible = new Set(shown.map((s) => s.branch));
  // a fork sits under its session when that one is listed too; else it stands in its own group
  const forksOf = new Map<string, SessionRow[]>();
  const top: SessionRow[] = [];
  for (const s of shown) {
    if (s.fork && visible.has(s.fork.branch)) (forksOf.get(s.fork.branch) ?? forksOf.set(s.fork.branch, []).get(s.fork.branch)!).push(s);
    else top.push(s);
  }
  const title = (name: string | null) => runtimes.find((r) => r.runtime === name)?.title ?? name ?? 'another format';
  const tree = (s: SessionRow): HTMLElement => {
    const forks = forksOf.get(s.branch) ?? [];
    return h('li', { class: 'session', 'data-branch': s.branch }, sessionRow(s, title(s.runtime), !visible.has(s.fork?.branch ?? '')), ...(forks.length ? [h('ul', { class: 'forks' }, ...forks.map(tree))] : []));
  };
  const groups = groupBy(top, (s) => s.project ?? NO_PROJECT).map(([project, rows]) =>
    h(
      'section',
      { class: 'project', 'data-project': project },
      h('h2', {}, project),
      ...groupBy(rows, (s) => s.runtime ?? '').map(([runtime, list]) => h('div', { class: 'runtime-group', 'data-runtime': runtime }, h('h3', {}, title(runtime || null)), h('ul', { class: 'sessions' }, ...list.map(tree)))),
    ),
  );
  const count = shown.length === all.length ? plural(all.length, 'session') : `${shown.length} of ${plural(all.length, 'session')}`;
  show(
    h('div', { class: 'page-head' }, h('h1', {}, 'Sessions'), h('a', { href: '/graph', class: 'graph-link' }, 'Graph of every branch and fork →')),
    filterForm(f, all, title),
    h('p', { class: 'status', id: 'session-count' }, count),
    ...(groups.length ? groups : [h('p', { class: 'empty' }, all.length ? 'No session matches these filters.' : 'No session yet: ctx import, or a runtime hook (ctx hooks install), writes one.')]),
  );
}

function sessionRow(s: SessionRow, runtimeTitle: string, forkNote: boolean): HTMLElement {
  const badges = [h('span', { class: 'badge runtime', 'data-runtime': s.runtime ?? '' }, runtimeTitle), ...(s.model ? [h('span', { class: 'badge model' }, s.model)] : [])];
  const counts = [plural(s.message_count, 'message'), ...(s.token_count ? [`${NUMBER.format(s.token_count)} tokens`] : [])].join(' · ');
  return h(
    'div',
    { class: 'session-row' },
    h('a', { href: `/${s.id}`, class: `title${s.titled ? ' titled' : ''}` }, inline(s.title)),
    h(
      'div',
      { class: 'facts' },
      ...badges,
      timeAgo(s.updated_at),
      h('span', { class: 'counts' }, counts),
      h('span', { class: 'branch mono' }, s.branch),
      ...(s.fork && forkNote ? [h('span', { class: 'fork-of' }, 'fork of ', h('a', { href: `/${s.fork.at}`, class: 'mono' }, s.fork.branch))] : []),
      copyButton(s.id, 'Copy id'),
    ),
  );
}

function filterForm(f: Filters, all: SessionRow[], title: (name: string | null) => string): HTMLElement {
  const select = (name: keyof Filters, label: string, values: [string, string][]) =>
    h('label', {}, `${label} `, h('select', { name }, h('option', { value: '' }, 'all'), ...values.map(([v, text]) => h('option', v === f[name] ? { value: v, selected: '' } : { value: v }, text))));
  const runtimes = [...new Set(all.map((s) => s.runtime).filter((r): r is string => r !== null))].sort();
  const projects = [...new Set(all.map((s) => s.project ?? NO_PROJECT))].sort();
  const form = h(
    'form',
    { id: 'filters', class: 'filters' },
    select('runtime', 'runtime', runtimes.map((r) => [r, title(r)])),
    select('project', 'project', projects.map((p) => [p, p])),
    h('label', {}, 'branch ', h('input', { name: 'branch', value: f.branch, placeholder: 'alice/*', size: '12' })),
    h('label', {}, 'since ', h('input', { name: 'since', value: f.since, placeholder: '7d or 2026-03-01', size: '12' })),
    h('a', { href: '/', class: 'clear' }, 'clear'),
  );
  const apply = () => {
    const q = new URLSearchParams();
    for (const [k, v] of new FormData(form)) if (v !== '') q.set(k, String(v));
    go(`/${q.size ? `?${q}` : ''}`);
  };
  form.addEventListener('change', apply);
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    apply();
  });
  return form;
}
