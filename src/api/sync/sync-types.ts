// What push, fetch, pull and clone report and take: a module of its own, so the light push path and the
// fetch path share it without importing each other.

export interface RefReport {
  /** the ref on the remote (refs/heads/x, refs/tags/x, refs/notes/ctx) */
  ref: string;
  /** the local ref written or read (refs/remotes/origin/x, refs/heads/x, …) */
  local: string;
  old: string | null;
  new: string | null;
  /** up to date, new, fast-forward, forced update, merged, rejected: … */
  status: string;
  ok: boolean;
  /** a local branch and its remote-tracking branch both have commits the other lacks */
  diverged: boolean;
  /** what to do about a failed ref */
  hint?: string;
}

export interface SyncReport {
  remote: string;
  /** the URL with any credential redacted */
  url: string;
  transport: 'git' | 'isogit';
  refs: RefReport[];
  ok: boolean;
  /** for people: remote-tracking branches fetched onto forged state writes (kept; pull refuses them) */
  warnings?: string[];
  /** push: the scratch forks (fork/*) left out, without `all` */
  held?: string[];
}

export interface SyncOptions {
  /** git's own progress passed through (stderr is a terminal) */
  progress?: boolean;
  onProgress?: (text: string) => void;
  /** push even when the secret scan finds something */
  allowSecrets?: boolean;
  /** where git finds PATH and credentials; CTX_TOKEN / GIT_TOKEN for isomorphic-git */
  env?: NodeJS.ProcessEnv;
  /** pull: the branches to create or fast-forward (default: the local branches the remote also has) */
  branches?: readonly string[];
  /** push: scratch forks too (fork/*, the branches `ctx fork` names when given no name) */
  all?: boolean;
  /** fetch: the store is being created by this command (a clone): nothing else writes it, and a failure removes it */
  fresh?: boolean;
}
