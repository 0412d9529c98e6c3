// How refs and objects travel to and from a remote: the git binary when it is on PATH (every URL
// kind), else isomorphic-git over HTTP(S). Both are loaded only when a sync command runs.
import { RemoteError } from '../../errors/index.js';
import { gitOnPath } from '../engine-select.js';
import type { Engine } from '../engine.js';
import type { RefStore } from '../refs.js';
import { redact, urlKind, type Remote } from './remotes.js';

export interface PushUpdate {
  /** local ref sent */
  src: string;
  /** remote ref it becomes (same name) */
  dst: string;
  oid: string;
  /** the remote's value before, or null for a new ref */
  old: string | null;
}

export interface PushResult {
  dst: string;
  ok: boolean;
  /** why the remote (or the transport) refused it */
  reason?: string;
}

/** A local ref a fetch did not write, and why (`would clobber existing tag`). */
export interface FetchRejection {
  ref: string;
  reason: string;
}

export interface TransportOptions {
  env: NodeJS.ProcessEnv;
  /** pass git's own progress through (stderr is a terminal) */
  progress: boolean;
  /** one line of progress for people; isomorphic-git's transfers report through it */
  onProgress?: (text: string) => void;
}

export interface Transport {
  readonly name: 'git' | 'isogit';
  /** The remote's branches, tags (unpeeled) and refs/notes/ctx. */
  list(): Promise<Map<string, string>>;
  /** Fast-forward-only push of `updates`; one result per update. */
  push(updates: readonly PushUpdate[]): Promise<PushResult[]>;
  /**
   * Bring the remote's refs into refs/remotes/<remote>/*, refs/tags/* (new tags only) and
   * refs/notes/remotes/<remote>/ctx. Local branches are never written.
   */
  fetch(remoteRefs: Map<string, string>): Promise<FetchRejection[]>;
}

/** The refs sync cares about, from a list of (ref, oid) the remote advertised. */
export function syncedRefs(all: Iterable<[string, string]>): Map<string, string> {
  const out = new Map<string, string>();
  for (const [ref, oid] of all) {
    if (ref.endsWith('^{}')) continue;
    if (ref.startsWith('refs/heads/') || ref.startsWith('refs/tags/') || ref === 'refs/notes/ctx') out.set(ref, oid);
  }
  return out;
}

export async function openTransport(gitdir: string, remote: Remote, engine: Engine, refStore: RefStore, opts: TransportOptions): Promise<Transport> {
  if (gitOnPath(opts.env)) {
    const { createGitTransport } = await import('./git-transport.js');
    return createGitTransport(gitdir, remote, opts);
  }
  const kind = urlKind(remote.url);
  if (kind !== 'https' && kind !== 'http') {
    throw new RemoteError(`remote ${remote.name} is a ${kind} URL (${redact(remote.url)}): without the git binary on PATH only http(s) remotes work`, {
      hint: 'install git, or use an https:// URL',
    });
  }
  const { createIsogitTransport } = await import('./isogit-transport.js');
  return createIsogitTransport(gitdir, remote, engine, refStore, opts);
}
