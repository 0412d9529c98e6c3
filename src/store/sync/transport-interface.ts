// What a transport is: the interface the git and isomorphic-git transports implement, and the refs
// sync cares about. Apart from transport.ts, which loads the transports, so that they need not import it.
import { RemoteError } from '../../errors/index.js';
import { refNameProblem } from '../refs.js';
import { redact, type Remote } from './remotes.js';

export interface PushUpdate {
  /** local ref sent */
  src: string;
  /** remote ref it becomes (same name) */
  dst: string;
  oid: string;
  /** the remote's value before, or null for a new ref */
  old: string | null;
}

/**
 * A namespace (`refs/heads/`) a push may send with one glob refspec, but `except` (a prefix under it):
 * every local ref there is an update or already up to date on the remote, so the glob sends just the updates.
 */
export interface PushGlob {
  prefix: string;
  except?: string;
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
  /** Fast-forward-only push of `updates`; one result per update. `globs`: namespaces the transport may send whole instead of ref by ref. */
  push(updates: readonly PushUpdate[], globs?: readonly PushGlob[]): Promise<PushResult[]>;
  /**
   * Bring the remote's refs into refs/remotes/<remote>/*, refs/tags/* (new tags only) and
   * refs/notes/remotes/<remote>/ctx. Local branches are never written.
   */
  fetch(remoteRefs: Map<string, string>): Promise<FetchRejection[]>;
}

/**
 * A name a remote advertised, checked before anything is written: a fetched name becomes a path
 * under the store (`refs/heads/../../config` would be the store's config), so one bad name refuses it all.
 */
export function checkAdvertisedRef(remote: Remote, ref: string): void {
  const name = ref.endsWith('^{}') ? ref.slice(0, -3) : ref;
  // `capabilities^{}`: what an empty repository advertises in place of a ref
  if (ref === 'capabilities^{}' || refNameProblem(name) === null) return;
  const shown = name.length > 200 ? `${name.slice(0, 200)}…` : name;
  const printable = shown.replace(/[\x00-\x1f\x7f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
  throw new RemoteError(`remote ${remote.name} (${redact(remote.url)}) advertises a bad ref name '${printable}'; nothing written`, {
    hint: `a git server never serves such a name: check the remote's URL (${refNameProblem(name)})`,
  });
}

/** The refs sync cares about, from a list of (ref, oid) the remote advertised; every name is checked first. */
export function syncedRefs(remote: Remote, all: Iterable<[string, string]>): Map<string, string> {
  const list = [...all];
  for (const [ref, oid] of list) {
    checkAdvertisedRef(remote, ref);
    if (!/^[0-9a-f]{40}$/.test(oid)) throw new RemoteError(`remote ${remote.name} (${redact(remote.url)}) advertises ${ref} at '${oid.slice(0, 64)}', not an object id; nothing written`);
  }
  const out = new Map<string, string>();
  for (const [ref, oid] of list) {
    if (ref.endsWith('^{}')) continue;
    if (ref.startsWith('refs/heads/') || ref.startsWith('refs/tags/') || ref === 'refs/notes/ctx') out.set(ref, oid);
  }
  return out;
}
