// What a transport is: the interface the git and isomorphic-git transports implement, and the refs
// sync cares about. Apart from transport.ts, which loads the transports, so that they need not import it.

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
