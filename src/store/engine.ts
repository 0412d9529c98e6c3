// The one interface through which ctx reads and writes git objects. Two implementations
// (isomorphic-git in-process, the git binary) must produce identical object ids.
// Refs, locks and notes are not here: they are the project's own code (refs.ts, notes.ts).

export type ObjectType = 'blob' | 'tree' | 'commit' | 'tag';
export type EngineName = 'git' | 'isogit';

export interface GitObject {
  type: ObjectType;
  data: Uint8Array;
}

/** A person line of a commit: `name <email> <seconds> +0000`. Always UTC. */
export interface Signature {
  name: string;
  email: string;
  /** seconds since the epoch */
  timestamp: number;
}

/**
 * One file of a commit's tree. `path` is `name` or `dir/name` (one level of nesting,
 * used for chunked artifacts and fanned-out notes). Either the bytes or an existing blob id;
 * or, at the root only, an existing tree carried over whole (`tree`: a commit's `state/`).
 */
export type TreeFile = { path: string; data: Uint8Array } | { path: string; oid: string } | { path: string; tree: string };

/**
 * A commit to write. The tree holds exactly `files` (mode 100644; a `tree` entry 040000), nothing inherited.
 * A parent is an existing commit id or `{ index }` of an earlier commit in the same batch.
 */
export interface CommitSpec {
  files: readonly TreeFile[];
  parents: readonly (string | { index: number })[];
  author: Signature;
  committer: Signature;
  /** the whole message, ending in "\n" */
  message: string;
}

/** One commit of a first-parent chain: its id, root tree and message. */
export interface ChainLink {
  oid: string;
  tree: string;
  message: string;
}

export interface Engine {
  readonly name: EngineName;
  /** The object, or null when it does not exist. */
  readObject(oid: string): Promise<GitObject | null>;
  /**
   * Many objects in one pipelined pass, in order. A spec is `<oid>` or `<commit-oid>:<path>`
   * (the entry at that path in the commit's tree). A missing object or path gives null.
   */
  readObjects(specs: readonly string[]): Promise<(GitObject | null)[]>;
  /**
   * The same pass, each object handed to `each` as it arrives, in order, and not kept: memory holds
   * a few objects, not all of them. `obj.data` may be a view valid only during the call: copy what
   * you keep. A throw from `each` ends the read with that error. An engine without it is read with
   * readObjects, batch by batch.
   */
  readEach?(specs: readonly string[], each: (i: number, obj: GitObject | null) => void): Promise<void>;
  /** First-parent history from `tip` (inclusive), tip first, with trees and messages; at most `max`. */
  chain(tip: string, max?: number): Promise<ChainLink[]>;
  /**
   * The same history with trees only, for an engine that lists it without formatting each commit's
   * message: a cold read of a long chain then reads meta.json instead. Links may still carry messages.
   */
  chainTrees?(tip: string): Promise<(Omit<ChainLink, 'message'> & { message?: string })[]>;
  /**
   * First-parent history from several tips at once, each commit once, as id, first parent and
   * committer time (seconds): what orders a whole store's listing, without reading each commit's
   * metadata (the git engine answers from its commit-graph).
   */
  history?(tips: readonly string[]): Promise<{ oid: string; parent: string | null; time: number }[]>;
  /**
   * Write commits (and their blobs and trees) in order; returns their ids. Moves no ref. `pack`: the
   * write (up to 512 MiB of data) goes into one pack of its own rather than a loose file per object or
   * fast-import (where the engine can),
   * held out of a concurrent repack by a `.keep` file whose path goes into `pack.kept` until the
   * caller, its ref moved, removes it (releaseKept).
   * `known`: the objects the files name by id were just read from the store (a notes tree carried
   * over), so a write with many of them need not check each one.
   */
  writeCommits(specs: readonly CommitSpec[], opts?: { pack?: { kept: string[] }; known?: boolean }): Promise<string[]>;
  /** End child processes; the engine is unusable afterwards. */
  close(): Promise<void>;
}
