/// <reference lib="dom" />
// What every view of the page uses: elements built from text only, the API's JSON lines, links to commits.
import type { blameLineJson, codeCommitJson, commitJson, diffJson, fileTouchJson, graphLineJson, messagesJson, partJson, resumeJson, runtimeJson, searchHitJson, whyJson } from '../../output/records.js';
export type { Cut, Divider } from '../../output/records.js';

export type Commit = ReturnType<typeof commitJson>;
export type GraphLine = ReturnType<typeof graphLineJson>;
export type Page = ReturnType<typeof messagesJson>;
export type Diff = ReturnType<typeof diffJson>;
export type Resume = ReturnType<typeof resumeJson>;
export type Runtime = ReturnType<typeof runtimeJson>;
export type Hit = ReturnType<typeof searchHitJson>;
export type Touch = ReturnType<typeof fileTouchJson>;
export type Piece = ReturnType<typeof partJson>;
export type CodeCommit = ReturnType<typeof codeCommitJson>;
export type CodeContext = ReturnType<typeof whyJson>;
export type BlameLine = ReturnType<typeof blameLineJson>;

export const main = document.getElementById('main')!;

/** An element with attributes and children; strings become text nodes (never HTML). */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string> = {}, ...children: (Node | string | null)[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  for (const c of children) if (c !== null) el.append(c);
  return el;
}

/** The API's JSON lines; a failed request throws its `message`. */
export async function api<T>(path: string, params: Record<string, string | number> = {}): Promise<T[]> {
  const q = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]));
  const res = await fetch(`/api/${path}?${q}`);
  const text = await res.text();
  const records = text.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l));
  if (!res.ok) throw new Error(records[0]?.message ?? `${res.status} ${res.statusText}`);
  return records;
}

export const short = (id: string) => id.slice(0, 16);
/** `1 message`, `2 messages` */
export const plural = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;
export const link = (id: string, text = short(id)) => h('a', { href: `/${id}`, class: 'mono' }, text);
/** A code commit's page. */
export const codeLink = (sha: string, text = sha.slice(0, 12)) => h('a', { href: `/code/${sha}`, class: 'mono code-commit' }, text);

/** A details element whose body is built the first time it opens: a folded block costs nothing until read. */
export function lazyDetails(attrs: Record<string, string>, summary: Node, body: () => Node[]): HTMLDetailsElement {
  const el = h('details', attrs, summary);
  const fill = () => {
    el.removeEventListener('toggle', fill);
    el.append(...body());
  };
  if ('open' in attrs) fill();
  else el.addEventListener('toggle', fill);
  return el;
}

export function show(...nodes: Node[]): void {
  main.replaceChildren(...nodes);
}

export function failed(e: unknown): void {
  show(h('p', { class: 'error' }, e instanceof Error ? e.message : String(e)));
}

/** Go to a page of the view without reloading it (app.ts routes on popstate). */
export function go(url: string): void {
  history.pushState(null, '', url);
  dispatchEvent(new PopStateEvent('popstate'));
}
