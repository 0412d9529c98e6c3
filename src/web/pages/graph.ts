/// <reference lib="dom" />
import { api, go, h, link, show, short, type GraphLine } from '../ui/dom.js';

// ---- the graph: every branch and fork, as `ctx log --all --graph` draws it

/** Commits the graph shows first (the server's default), and how many more each "older" link adds. */
const GRAPH = 1000;

export async function graphPage(q: URLSearchParams): Promise<void> {
  const n = Number(q.get('n')) || GRAPH;
  const rows = await api<GraphLine>('graph', { n });
  const picked: string[] = [];
  const compare = h('button', { disabled: '' }, 'Compare the two checked');
  compare.addEventListener('click', () => go(`/diff?${new URLSearchParams({ a: picked[0], b: picked[1] })}`));
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
  const older = commits === n ? h('a', { href: `/graph?n=${n + GRAPH}`, class: 'older' }, `${GRAPH.toLocaleString('en-US')} older commits`) : null;
  show(h('h1', {}, 'Branches and forks'), h('div', { class: 'toolbar' }, `${commits} commits${older ? ', the newest' : ''}`, compare), graph, ...(older ? [older] : []));
}
