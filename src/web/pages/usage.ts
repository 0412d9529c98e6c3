/// <reference lib="dom" />
// ---- usage (ctx usage): tokens and estimated cost per session, day, model or project, as bar charts
// drawn with CSS (a bar is a div as wide as its share): no chart library, they reflow to any width
// and take the theme's colours.
import type { usageJson } from '../../output/records.js';
import { api, go, h, show } from '../ui/dom.js';

type Usage = ReturnType<typeof usageJson>;

const GROUPS = ['session', 'day', 'model', 'project'] as const;
/** The four kinds of token, as the records name them, and as the page says them. */
const KINDS = [
  ['input_tokens', 'input'],
  ['output_tokens', 'output'],
  ['cache_read_tokens', 'cache read'],
  ['cache_write_tokens', 'cache write'],
] as const;

const thousands = (n: number) => n.toLocaleString('en-US');

/** USD as `ctx usage` prints it: 2 decimals from a dollar up, else 4; `?` unpriced, `+ ?` partly priced. */
function usd(r: Usage): string {
  if (r.cost_usd === null) return '?';
  const digits = r.cost_usd >= 1 ? 2 : 4;
  const text = r.cost_usd.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
  return r.unpriced_models.length ? `${text} + ?` : text;
}

const tokens = (r: Usage) => KINDS.reduce((s, [k]) => s + r[k], 0);

export async function usagePage(q: URLSearchParams): Promise<void> {
  const by = (GROUPS as readonly string[]).includes(q.get('by') ?? '') ? q.get('by')! : 'session';
  const since = q.get('since') ?? '';
  const records = await api<Usage>('usage', since ? { by, since } : { by });
  const rows = records.filter((r) => r.by !== 'total');
  const total = records.find((r) => r.by === 'total')!;
  const unpriced = total.unpriced_models;
  show(
    h('h1', {}, 'Usage'),
    controls(by, since),
    h('p', { class: 'status', id: 'usage-total' }, `${thousands(total.responses)} responses · ${thousands(tokens(total))} tokens · USD ${usd(total)}${since ? ` since ${since}` : ''}`),
    ...(rows.length === 0 ? [h('p', { class: 'status' }, 'no response recorded its usage')] : [tokenChart(rows), costChart(rows), table(by, rows, total)]),
    ...(unpriced.length ? [h('p', { class: 'status' }, `? no price for ${unpriced.join(', ')}: tokens counted, cost not (prices go in the store's prices.json)`)] : []),
  );
}

/** The grouping as tabs, and the since filter: both kept in the URL. */
function controls(by: string, since: string): HTMLElement {
  const at = (group: string, from: string) => `/usage?${new URLSearchParams({ by: group, ...(from ? { since: from } : {}) })}`;
  const tabs = h('nav', { class: 'by', 'aria-label': 'group by' }, ...GROUPS.map((g) => h('a', { href: at(g, since), ...(g === by ? { 'aria-current': 'page' } : {}) }, g)));
  const input = h('input', { name: 'since', value: since, placeholder: '7d, 24h, 2026-11-01', 'aria-label': 'since' });
  const form = h('form', { class: 'since' }, h('label', {}, 'since ', input), h('button', {}, 'Show'));
  form.addEventListener('submit', (e) => (e.preventDefault(), go(at(by, input.value.trim()))));
  return h('div', { class: 'usage-controls' }, tabs, form);
}

/** One bar per group, its four kinds of token stacked, as long as its share of the largest group's tokens. */
function tokenChart(rows: Usage[]): HTMLElement {
  const most = Math.max(1, ...rows.map(tokens));
  const legend = h('p', { class: 'legend' }, ...KINDS.map(([k, name]) => h('span', { class: `key ${k}` }, name)));
  return h(
    'section',
    { class: 'chart tokens' },
    h('h2', {}, 'Tokens'),
    legend,
    ...rows.map((r) =>
      bar(r.key!, `${thousands(tokens(r))}`, (100 * tokens(r)) / most, ...KINDS.filter(([k]) => r[k] > 0).map(([k, name]) => part(k, r[k], `${name}: ${thousands(r[k])}`))),
    ),
  );
}

/** One bar per group, as long as its share of the most expensive group's cost; `?` for a group with no price. */
function costChart(rows: Usage[]): HTMLElement {
  const most = Math.max(0, ...rows.map((r) => r.cost_usd ?? 0));
  return h('section', { class: 'chart cost' }, h('h2', {}, 'Estimated cost (USD)'), ...rows.map((r) => bar(r.key!, usd(r), most > 0 ? (100 * (r.cost_usd ?? 0)) / most : 0, part('cost_usd', 1, usd(r)))));
}

/** A share of a bar, as wide as `weight` among its siblings (styles set through the DOM, not attributes a policy could block). */
function part(kind: string, weight: number, title: string): HTMLElement {
  const el = h('span', { class: `part ${kind}`, title });
  el.style.flexGrow = String(weight);
  return el;
}

function bar(key: string, figure: string, percent: number, ...parts: HTMLElement[]): HTMLElement {
  const fill = h('span', { class: 'fill' }, ...parts);
  fill.style.width = `${percent.toFixed(2)}%`;
  return h('div', { class: 'bar-row', 'data-key': key }, h('span', { class: 'key-name', title: key }, key), h('span', { class: 'bar' }, fill), h('span', { class: 'figure' }, figure));
}

/** The figures exactly, as `ctx usage` prints them, in a box that scrolls sideways on a narrow screen. */
function table(by: string, rows: Usage[], total: Usage): HTMLElement {
  const head = [by, 'responses', ...KINDS.map(([, name]) => name), 'cost (USD)'];
  const line = (r: Usage, key: string) =>
    h('tr', { 'data-key': key }, h('td', { class: 'key-name' }, key), ...[r.responses, ...KINDS.map(([k]) => r[k])].map((n) => h('td', { class: 'n', 'data-n': String(n) }, thousands(n))), h('td', { class: 'n', 'data-n': String(r.cost_usd) }, usd(r)));
  return h('div', { class: 'usage-table' }, h('table', {}, h('thead', {}, h('tr', {}, ...head.map((x) => h('th', {}, x)))), h('tbody', {}, ...rows.map((r) => line(r, r.key!)), line(total, 'total'))));
}
