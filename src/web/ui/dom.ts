/// <reference lib="dom" />
// What every view of the page uses: elements built from text only, the API's JSON lines, links to commits.
import type { blameLineJson, sessionSummaryJson, codeCommitJson, commitJson, diffJson, fileTouchJson, graphLineJson, messagesJson, partJson, resumeJson, runtimeJson, searchHitJson, whyJson } from '../../output/records.js';
export type { Cut, Divider, SubagentRun } from '../../output/records.js';

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
export type SessionRow = ReturnType<typeof sessionSummaryJson>;

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

/** A button that copies `text` (an id, a command): "Copied" after, or the text selected where there is no clipboard (an insecure origin). */
export function copyButton(text: string, label = 'Copy'): HTMLButtonElement {
  const button = h('button', { class: 'copy', type: 'button', title: `copy ${text}` }, label);
  button.addEventListener('click', async (e) => {
    e.stopPropagation();
    e.preventDefault(); // inside a <summary>: copy, do not open or close its details
    try {
      await navigator.clipboard.writeText(text);
      button.textContent = 'Copied';
    } catch {
      const shown = h('code', { class: 'copy-text' }, text);
      button.after(shown);
      getSelection()?.selectAllChildren(shown);
      button.textContent = 'Selected';
    }
  });
  return button;
}

const UNITS: [number, string][] = [
  [365 * 24 * 3600, 'year'],
  [30 * 24 * 3600, 'month'],
  [7 * 24 * 3600, 'week'],
  [24 * 3600, 'day'],
  [3600, 'h'],
  [60, 'min'],
];

/** "3 h ago", "2 days ago", "just now" (a time in the future reads "in 3 h"). */
export function ago(iso: string, now = Date.now()): string {
  const seconds = Math.round((now - Date.parse(iso)) / 1000);
  const abs = Math.abs(seconds);
  const unit = UNITS.find(([s]) => abs >= s);
  if (!unit) return 'just now';
  const n = Math.floor(abs / unit[0]);
  const text = unit[1] === 'h' || unit[1] === 'min' ? `${n} ${unit[1]}` : plural(n, unit[1]);
  return seconds < 0 ? `in ${text}` : `${text} ago`;
}

/** `2026-03-04 09:15 UTC` */
export const absolute = (iso: string) => `${iso.slice(0, 16).replace('T', ' ')} UTC`;

/** A <time> reading relatively, the absolute time in its title. */
export const timeAgo = (iso: string) => h('time', { datetime: iso, title: absolute(iso), class: 'ago' }, ago(iso));
