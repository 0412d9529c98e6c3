/// <reference lib="dom" />
// The pages between code and contexts: a code commit's diff beside the contexts that made it, the
// code commits a context led to (on its page), and a file's blame. Code is text nodes only.
import { api, codeLink, h, link, plural, short, show, type BlameLine, type CodeCommit, type CodeContext, type Commit } from '../ui/dom.js';

type DiffFile = CodeCommit['files'][number];

const STATUS: Record<DiffFile['status'], string> = { added: 'added', deleted: 'deleted', modified: 'modified', renamed: 'renamed', copied: 'copied' };
const OP_CLASS = { ' ': 'ctx', '+': 'add', '-': 'del', '\\': 'note' } as const;

/** A code commit: its message and diff on the left, the contexts that made it on the right. */
export async function codePage(sha: string): Promise<void> {
  const [c, ...contexts] = await api<CodeCommit | CodeContext>('code', { sha });
  const commit = c as CodeCommit;
  const [subject, ...body] = commit.message.split('\n');
  const head = h(
    'p',
    { class: 'status mono' },
    commit.sha,
    ` · ${commit.author} <${commit.author_email}> · ${commit.authored_at}`,
    ...commit.parents.flatMap((p, i) => [i ? ', ' : ' · parent ', codeLink(p)]),
  );
  const text = body.join('\n').trim();
  const diff = h('section', { class: 'code-diff', id: 'diff' }, h('h2', {}, plural(commit.files.length, 'file')), ...commit.files.map(fileDiff));
  const made = h('section', { class: 'code-contexts', id: 'contexts' }, h('h2', {}, 'The conversation'), ...contextList(contexts as CodeContext[]));
  show(h('h1', {}, subject || short(commit.sha)), head, ...(text ? [h('pre', { class: 'code-message' }, text)] : []), h('div', { class: 'code-commit-page' }, diff, made));
}

function fileDiff(f: DiffFile): HTMLElement {
  const blame = f.status === 'deleted' ? [] : [' ', h('a', { href: `/blame?${new URLSearchParams({ file: f.path })}`, class: 'blame-link' }, 'blame')];
  const title = h('h3', { class: 'mono' }, h('span', { class: `file-status ${f.status}` }, STATUS[f.status]), ' ', f.path, ...(f.old_path ? [h('span', { class: 'status' }, ` (from ${f.old_path})`)] : []), ...blame);
  const rows: HTMLElement[] = [];
  for (const hunk of f.hunks) {
    rows.push(h('tr', { class: 'hunk' }, h('td', { colspan: '3', class: 'mono' }, hunk.header)));
    for (const l of hunk.lines) rows.push(h('tr', { class: OP_CLASS[l.op] }, h('td', { class: 'no' }, l.old === null ? '' : String(l.old)), h('td', { class: 'no' }, l.new === null ? '' : String(l.new)), h('td', { class: 'src' }, `${l.op}${l.text}`)));
  }
  const notes = [...(f.binary ? [h('p', { class: 'status' }, 'binary file')] : []), ...(f.cut ? [h('p', { class: 'status' }, 'the rest of this diff is longer than the page shows: git show it')] : [])];
  return h('div', { class: 'file', 'data-path': f.path }, title, ...(rows.length ? [h('table', { class: 'hunks mono' }, ...rows)] : []), ...notes);
}

/** What `known` says, for people. */
const KNOWN: Record<string, string> = { recorded: 'recorded by ctx when the commit was made', verified: 'named by the commit, and its tool calls wrote these files', matched: 'its tool calls wrote these lines (the commit names no context)', claimed: 'named by the commit, unverified: its tool calls did not write these files' };

function contextList(contexts: CodeContext[]): HTMLElement[] {
  if (contexts.length === 0) return [h('p', { class: 'status', id: 'no-context' }, 'no context made this commit: a person did, or ctx was not there')];
  return contexts.map((c) => {
    const who = [c.runtime, c.model, c.principal, c.branch && `branch ${c.branch}`, c.session && `session ${c.session}`].filter((x): x is string => Boolean(x)).join(' · ');
    const entries = c.entries.map(sliceEntry);
    // total null: the slice reached its limit before its start, so neither is known
    const from = c.total === null ? [`: the last ${plural(c.entries.length, 'step')}`] : c.since ? [' since ', link(c.since), ' (its previous code commit)'] : [' from its start'];
    const shown = c.total !== null && c.entries.length < c.total ? `, the last ${c.entries.length} of ${plural(c.total, 'step')}` : '';
    return h(
      'article',
      { class: `code-context ${c.known}`, 'data-context': c.context, 'data-known': c.known },
      h('div', { class: 'head' }, c.in_store ? link(c.context) : h('span', { class: 'mono' }, short(c.context)), h('span', { class: `known ${c.known}` }, c.known), c.in_store ? '' : h('span', { class: 'status' }, 'not in this store')),
      h('p', { class: 'status' }, KNOWN[c.known] ?? c.known),
      ...(who ? [h('p', { class: 'who' }, who)] : []),
      ...(c.files.length ? [h('p', { class: 'mono files' }, c.files.join(', '))] : []),
      ...(c.in_store ? [h('p', { class: 'status slice-from' }, 'The conversation', ...from, shown)] : []),
      h('div', { class: 'slice' }, ...entries),
    );
  });
}

const KIND: Record<string, string> = { prompt: 'prompt', text: 'assistant', reasoning: 'reasoning', tool: 'tool call' };

/** One step of the conversation that led to the commit: a prompt, the assistant's text or reasoning (folded), a tool call. */
function sliceEntry(e: CodeContext['entries'][number]): HTMLElement {
  // the context commit that holds the step, where `entry` counts its own messages
  const label = h('a', { class: 'kind', href: `/${e.commit}`, title: e.commit }, `${KIND[e.kind] ?? e.kind} #${e.entry}`);
  const attrs = { class: `step ${e.kind}`, 'data-entry': String(e.entry), 'data-kind': e.kind };
  if (e.kind === 'reasoning') return h('details', attrs, h('summary', {}, label), h('div', { class: 'text' }, e.text));
  if (e.kind === 'tool') return h('div', attrs, label, ' ', h('b', {}, e.tool ?? ''), ' ', h('span', { class: 'mono' }, (e.paths ?? []).join(', ')), h('pre', { class: 'text' }, e.text));
  return h('div', attrs, label, h('div', { class: 'text' }, e.text));
}

/** The code commits a context commit led to (its note's link records), on its page; nothing when there are none. */
export function codeCommits(c: Commit): HTMLElement | null {
  if (c.links.length === 0) return null;
  const rows = c.links.map((l) => h('li', { 'data-code': l.code }, codeLink(l.code), ` ${l.how}`, ...(l.from ? [' from ', codeLink(l.from)] : []), ...(l.files ? [h('span', { class: 'mono files' }, ` ${l.files.join(', ')}`)] : []), ...(l.repo ? [h('span', { class: 'status' }, ` in ${l.repo}`)] : []), h('span', { class: 'status' }, ` · ${l.at.slice(0, 16).replace('T', ' ')} by ${l.by}`)));
  return h('section', { class: 'code-commits', id: 'code-commits' }, h('h2', {}, 'Code commits'), h('ul', {}, ...rows));
}

const ZERO = /^0+$/;

/** A file's blame: each line with its code commit, and the context that wrote it or `human`. */
export async function blamePage(q: URLSearchParams): Promise<void> {
  const file = q.get('file') ?? '';
  (document.querySelector('#blame input') as HTMLInputElement).value = file;
  const range = q.get('lines');
  const lines = await api<BlameLine>('blame', range ? { file, lines: range } : { file });
  const rows = lines.map((l, i) => {
    // a run of lines from one commit and context names them once
    const same = i > 0 && lines[i - 1].code === l.code && lines[i - 1].context === l.context;
    const commit = same ? '' : ZERO.test(l.code) ? h('span', { class: 'status' }, 'not committed') : codeLink(l.code, l.code.slice(0, 8));
    const who = same ? '' : l.context === null ? h('span', { class: 'human' }, 'human') : h('span', {}, link(l.context), l.how === 'matched' ? h('span', { class: 'status' }, ' matched') : '', l.entry === null ? '' : h('span', { class: 'status' }, ` #${l.entry}`));
    const title: Record<string, string> = l.prompt ? { title: l.prompt } : {};
    return h('tr', { id: `L${l.line}`, class: `blame-line ${l.context === null ? 'human' : 'agent'}`, 'data-line': String(l.line), 'data-code': l.code, 'data-context': l.context ?? 'human', ...title }, h('td', { class: 'commit' }, commit), h('td', { class: 'who' }, who), h('td', { class: 'no' }, String(l.line)), h('td', { class: 'src' }, l.text));
  });
  const agents = lines.filter((l) => l.context !== null).length;
  show(h('h1', {}, 'Blame: ', h('span', { class: 'mono' }, file)), h('p', { class: 'status', id: 'blame-count' }, `${plural(lines.length, 'line')}, ${agents} written by a context`), h('table', { class: 'blame mono' }, ...rows));
  // a permalink to a line (#L12) scrolls to it once the rows are there
  const target = location.hash.startsWith('#L') ? document.getElementById(location.hash.slice(1)) : null;
  target?.classList.add('target');
  target?.scrollIntoView({ block: 'center' });
}
