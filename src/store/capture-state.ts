// Derived data of live capture: per transcript file, how far it is in the repo. Kept under
// `<repo>/ctx/hooks/`, never trusted over the repo: it is used only while it names the branch tip.
import { nodeCrypto } from './node-crypto.js';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { derivedDir, writeDerived } from './derived.js';
import { tryLock } from './lock-owner.js';

/** How many bytes before the offset are checked on every call: a rewritten transcript shows there. */
export const TAIL_BYTES = 4096;

export interface StreamState {
  v: 1;
  /** the branch the stream extends */
  branch: string;
  /** its tip when the state was written; a different tip means the state is stale */
  tip: string;
  /** bytes of the file already in the chain (always at a line end) */
  offset: number;
  /** sha256 of the `tail_len` bytes before `offset` */
  tail_sha256: string;
  tail_len: number;
  /** the transcript file the stream reads, so `ctx compact` can catch up first (states written before it lack it) */
  transcript?: string;
  /** the Claude Code session the stream belongs to (with `transcript`) */
  session?: string;
  /** old-layout agent files of other sessions, by name, so they are not read again */
  foreign?: string[];
}

export function hooksDir(gitdir: string): string {
  return join(gitdir, 'ctx', 'hooks');
}

/** `ctx/hooks/<session>.json` for the main transcript, `<session>.agent-<id>.json` for a subagent. */
export function statePath(gitdir: string, key: string): string {
  return join(hooksDir(gitdir), `${key.replace(/[^A-Za-z0-9._-]/g, '_')}.json`);
}

export function readState(file: string): StreamState | null {
  try {
    const s = JSON.parse(readFileSync(file, 'utf8')) as StreamState;
    if (s?.v !== 1 || typeof s.branch !== 'string' || typeof s.tip !== 'string' || !Number.isSafeInteger(s.offset)) return null;
    return s;
  } catch {
    return null;
  }
}

/** The state (and its key) of the stream that extends `branch` at `tip`, if any; `file` is preferred when several do. */
export function findState(gitdir: string, branch: string, tip: string, file?: string): { key: string; state: StreamState } | null {
  let names: string[];
  try {
    names = readdirSync(hooksDir(gitdir));
  } catch {
    return null;
  }
  let found: { key: string; state: StreamState } | null = null;
  for (const name of names.sort()) {
    if (!name.endsWith('.json') || name.endsWith('.foreign.json')) continue;
    const state = readState(join(hooksDir(gitdir), name));
    if (state?.branch !== branch || state.tip !== tip) continue;
    const key = name.slice(0, -'.json'.length);
    if (file === undefined || state.transcript === file) return { key, state };
    found ??= { key, state };
  }
  return found;
}

/** Written whole, then renamed: a reader never sees half a state. */
export function writeState(gitdir: string, key: string, state: StreamState): void {
  derivedDir(gitdir, 'hooks');
  writeDerived(statePath(gitdir, key), `${JSON.stringify(state)}\n`);
}

export function tailHash(bytes: Uint8Array): string {
  return nodeCrypto().createHash('sha256').update(bytes).digest('hex');
}

/**
 * A per-session lock so that two hook processes (Stop and SubagentStop, say) do not capture the same
 * bytes twice. Returns a release function, or null when another live process holds it (see tryLock).
 */
export function lockSession(gitdir: string, session: string): (() => void) | null {
  const dir = derivedDir(gitdir, 'hooks');
  return tryLock(join(dir, `${session.replace(/[^A-Za-z0-9._-]/g, '_')}.lock`), dir);
}
