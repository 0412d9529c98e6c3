// The live-session index: which sessions a runtime hook captured in which git worktree, with what a
// code commit there needs to catch each one up and link it. Derived data under <store>/ctx/live/,
// one directory per worktree (named by a hash of its real path), one small file per session, so a
// commit reads its own worktree's sessions only: never a scan of the store.
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { derivedDir, writeDerived } from '../../store/derived.js';
import { worktreeTop } from '../../store/code/repo.js';

/** What a runtime says of a session for a later catch-up (LiveCapture.live). */
export interface LiveInfo {
  /** the session's branch (its forks, `<branch>.fork-<n>`, follow it) */
  branch: string;
  /** the transcript file, when the runtime appends to one */
  transcript?: string;
  /** whatever else the runtime's catch-up needs (its hook input) */
  input?: unknown;
}

export interface LiveSession extends LiveInfo {
  v: 1;
  runtime: string;
  session: string;
  /** the worktree's top (real path) */
  top: string;
  /** the session's working directory: its tool calls' relative paths start there */
  cwd: string;
  /** the last hook call, ISO time */
  seen: string;
}

/** Where a session's last linked code commit left its context: its tip then (40 hex). */
export interface LinkedMark {
  v: 1;
  tip: string;
  code: string;
  at: string;
}

/** A session not seen by a hook for this long is no longer live: its entry is dropped on the next commit. */
export const LIVE_DAYS = 7;

const safe = (s: string) => s.replace(/[^A-Za-z0-9._-]/g, '_');
const key = (top: string) => createHash('sha256').update(top).digest('hex').slice(0, 16);
const liveDir = (store: string, top: string) => join(store, 'ctx', 'live', key(top));
const entryName = (runtime: string, session: string) => `${safe(runtime)}.${safe(session)}`;

/** Records (or refreshes) a session as live in the worktree holding `cwd`; nothing outside a worktree. */
export function recordLive(store: string, runtime: string, session: string, cwd: string, info: LiveInfo, now: Date): void {
  const top = worktreeTop(cwd);
  if (top === null) return;
  const dir = derivedDir(store, 'live', key(top));
  const entry: LiveSession = { v: 1, runtime, session, top, cwd, seen: now.toISOString(), ...info };
  writeDerived(join(dir, `${entryName(runtime, session)}.json`), `${JSON.stringify(entry)}\n`);
}

function readJson(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return null;
  }
}

/** The sessions live in the worktree `top`, each with its linked mark; stale entries are removed. */
export function liveSessions(store: string, top: string, now: Date): { live: LiveSession; linked: LinkedMark | null }[] {
  const dir = liveDir(store, top);
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch {
    return [];
  }
  const out: { live: LiveSession; linked: LinkedMark | null }[] = [];
  for (const name of names) {
    if (!name.endsWith('.json') || name.endsWith('.linked.json')) continue;
    const e = readJson(join(dir, name)) as LiveSession | null;
    if (e?.v !== 1 || e.top !== top || typeof e.runtime !== 'string' || typeof e.session !== 'string' || typeof e.branch !== 'string' || typeof e.cwd !== 'string') continue;
    const base = name.slice(0, -'.json'.length);
    if (now.getTime() - Date.parse(e.seen) > LIVE_DAYS * 86_400_000) {
      for (const f of [name, `${base}.linked.json`]) try { unlinkSync(join(dir, f)); } catch {}
      continue;
    }
    const m = readJson(join(dir, `${base}.linked.json`)) as LinkedMark | null;
    out.push({ live: e, linked: m?.v === 1 && typeof m.tip === 'string' && /^[0-9a-f]{40}$/.test(m.tip) ? m : null });
  }
  return out;
}

/** Moves a session's "last linked" mark: the next commit looks at what its tool calls did after `tip`. */
export function markLinked(store: string, top: string, runtime: string, session: string, mark: Omit<LinkedMark, 'v'>): void {
  const dir = derivedDir(store, 'live', key(top));
  writeDerived(join(dir, `${entryName(runtime, session)}.linked.json`), `${JSON.stringify({ v: 1, ...mark })}\n`);
}
