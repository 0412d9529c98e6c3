// api/library: the library a program imports (ContextStore, the agent-loop session), over every other family.
// The library: what an in-process agent wrapper imports. The CLI is built on the same calls. Every
// commit it returns or takes is named by one id shape: `ctx-` and the 40-hex git commit id.
import { fullId } from '../../core/ids.js';
import { clear, compact, type ClearOptions, type ClearResult, type CompactOptions, type CompactResult } from '../write/compact.js';
import { restore, save, sessions, type SavedSession, type SaveOptions } from '../sync/saves.js';
import { gc, type GcOptions, type GcReport } from '../maintain/gc.js';
import { addRemote, deleteRemote, remotes, type Remote } from '../sync/remote-config.js';
import { Session, type SessionOptions } from './session.js';
import { summarize, type SummarizeOptions, type SummaryOutcome } from '../write/summarize.js';
import { fetch, pull, push, type SyncOptions, type SyncReport } from '../sync/sync.js';
import { materialize, type Materialized, type MaterializeOptions } from '../read/materialize.js';
import { annotate, deleteBranch, fork, setCursor, type AnnotateInput } from '../write/branch-ops.js';
import { budget, type BudgetOptions, type BudgetReport } from '../read/budget.js';
import { artifactOf, branches, log, show, threads, type BranchInfo, type CommitRecord, type LogOptions, type ThreadInfo } from '../read/read.js';
import { cursorOf, type Cursor } from '../read/cursors.js';
import { RepoContext, type RepoOptions } from '../repo/repo-context.js';
import { currentOf, resolveAt, type ResolveQuery } from '../capture/resolve.js';
import { verify, type VerifyReport } from '../maintain/verify.js';
import { commitMessages, grep, type GrepHit, type GrepOptions } from '../search/grep.js';
import { filesTouched, type FileTouch } from '../search/touched.js';
import type { NeutralMessage } from '../../core/neutral.js';
import type { ExportOptions, ImportOptions } from '../capture/runtime.js';
import { exportSession, importSession, type ExportResult } from '../capture/sessions.js';
import { checkpoint, snapshot, written, type CheckpointInput, type SnapshotStop, type Written } from '../write/write.js';
import { initRepo, isContextRepo } from '../../store/repo.js';
import { checkStoreTrust } from '../../store/trust.js';
import { BranchState } from '../state/handle.js';
import type { ReasoningV1 } from '../../core/state/schemas/reasoning-v1.js';

export { initRepo };
import { NotFoundError } from '../../errors/index.js';
import { resolve } from 'node:path';

export interface OpenOptions extends RepoOptions {
  /** create the repo when it does not exist (default false) */
  create?: boolean;
}

export type { Written };

export interface Imported {
  branch: string;
  session: string;
  bytes: number;
  commits: Written[];
  /** the branch already held these bytes: nothing written */
  unchanged: boolean;
  /** the branch's tip after the import */
  tip: string;
}

export interface Resolved {
  /** `ctx-<40 hex>` */
  id: string;
  principal: string;
  /** the time asked about, ISO with milliseconds */
  at: string;
  /** the commit's created_at */
  created_at: string;
}

export interface SessionCurrent {
  /** `ctx-<40 hex>` of the tip */
  id: string;
  branch: string;
  created_at: string;
  /** every branch whose tip is of the session, the chosen one first */
  branches: string[];
}

export interface Compacted extends Omit<CompactResult, 'commit' | 'caughtUp'> {
  /** null: every stage was skipped (already under budget), nothing written */
  commit: Written | null;
  caughtUp: Written[];
}

export interface Cleared extends Omit<ClearResult, 'commit' | 'caughtUp'> {
  commit: Written;
  caughtUp: Written[];
}


export class ContextStore {
  /** @internal */
  readonly ctx: RepoContext;
  constructor(ctx: RepoContext) {
    this.ctx = ctx;
  }
  get path(): string {
    return this.ctx.gitdir;
  }
  async checkpoint(input: CheckpointInput): Promise<Written> {
    return written(await checkpoint(this.ctx, input));
  }
  /** A snapshot commit of the branch's whole context on top of it (materialize then reads it and what follows). */
  async snapshot(branch: string, stop?: SnapshotStop): Promise<Written> {
    return written(await snapshot(this.ctx, branch, stop));
  }
  show(id: string): Promise<CommitRecord> {
    return show(this.ctx, id);
  }
  artifact(id: string): Promise<Uint8Array> {
    return artifactOf(this.ctx, id);
  }
  log(id?: string, opts?: LogOptions): Promise<CommitRecord[]> {
    return log(this.ctx, id, opts);
  }
  /** The threads on the chain at `id`, by their last commit, newest first (`ctx threads`). */
  threads(id: string): Promise<ThreadInfo[]> {
    return threads(this.ctx, id);
  }
  /** `agent` has now seen `branch` up to `id` (default: its tip): `ctx cursor set`. */
  cursor(branch: string, agent: string, id?: string): Promise<Cursor> {
    return setCursor(this.ctx, branch, agent, id);
  }
  /** Where the cursor of `agent` on `branch` is (`id` null: it has none): `ctx cursor show`. */
  cursorOf(branch: string, agent: string): Promise<Cursor> {
    return cursorOf(this.ctx, branch, agent);
  }
  branches(): Promise<BranchInfo[]> {
    return branches(this.ctx);
  }
  /** `damaged`: the branch's ref held no commit id (what it held instead); its `id` is then null. */
  deleteBranch(name: string): { branch: string; id: string | null; damaged?: string } {
    const { branch, oid, damaged } = deleteBranch(this.ctx, name);
    return oid === null ? { branch, id: null, damaged } : { branch, id: fullId(oid) };
  }
  async fork(id: string, name?: string): Promise<{ branch: string; id: string }> {
    const { branch, oid } = await fork(this.ctx, id, name);
    return { branch, id: fullId(oid) };
  }
  materialize(id: string, opts?: MaterializeOptions): Promise<Materialized> {
    return materialize(this.ctx, id, opts);
  }
  /** Tokens the context at `id` uses of a model window (ContextTokenBudget). */
  budget(id: string, opts: BudgetOptions): Promise<BudgetReport> {
    return budget(this.ctx, id, opts);
  }
  async annotate(id: string, input: AnnotateInput): Promise<{ id: string; record: Record<string, unknown>; warnings?: string[] }> {
    const { oid, record, warnings } = await annotate(this.ctx, id, input);
    return { id: fullId(oid), record, ...(warnings ? { warnings } : {}) };
  }
  /** A compaction commit on `branch`: its context through the compaction policy. */
  async compact(branch: string, opts: CompactOptions): Promise<Compacted> {
    const r = await compact(this.ctx, branch, opts);
    return { ...r, commit: r.commit && written(r.commit), caughtUp: r.caughtUp.map(written) };
  }
  /** An empty compaction on `branch` (`ctx clear`): the default materialization starts after it, `stop: 'root'` still reads everything. */
  async clear(branch: string, opts?: ClearOptions): Promise<Cleared> {
    const r = await clear(this.ctx, branch, opts);
    return { ...r, commit: written(r.commit), caughtUp: r.caughtUp.map(written) };
  }
  /** A saved session (`ctx save`): an annotated tag on the branch's tip with description, summary, message count and window. */
  save(branch: string, opts: SaveOptions): Promise<SavedSession & { warnings?: string[] }> {
    return save(this.ctx, branch, opts);
  }
  /** Saved sessions, newest first (`ctx sessions`). */
  sessions(): Promise<SavedSession[]> {
    return sessions(this.ctx);
  }
  /** The saved context back as the working context of `branch` (default: the one saved), on top of its tip (`ctx restore`). */
  async restore(name: string, opts?: { branch?: string }): Promise<{ name: string; branch: string; previous: string | null; commit: Written }> {
    const r = await restore(this.ctx, name, opts);
    return { name: r.session.name, branch: r.branch, previous: r.previous === null ? null : fullId(r.previous), commit: written(r.commit) };
  }
  /** Messages matching a pattern across the branches, each commit searched once (`ctx grep`). */
  grep(opts: GrepOptions): AsyncIterable<GrepHit> {
    return grep(this.ctx, opts);
  }
  /** A commit's own artifact as neutral messages, numbered as grep and filesTouched number `entry`; null for a format read into no messages. */
  commitMessages(id: string): Promise<NeutralMessage[] | null> {
    return commitMessages(this.ctx, id);
  }
  /** The tool calls that read, edited, wrote or ran a command on `path`, newest first (`ctx files`). */
  filesTouched(path: string, opts?: { branches?: string[] }): Promise<FileTouch[]> {
    return filesTouched(this.ctx, path, opts);
  }
  verify(id?: string): Promise<VerifyReport> {
    return verify(this.ctx, id);
  }
  /** Any commit name (`ctx-1a2b`, a branch, `NAME~N`, a tag) → its `ctx-` id. */
  resolve(id: string): Promise<string>;
  /** The latest commit by `principal` at or before `at` (`ctx resolve`); NotFoundError before the first. */
  resolve(query: ResolveQuery): Promise<Resolved>;
  async resolve(q: string | ResolveQuery): Promise<string | Resolved> {
    if (typeof q === 'string') return fullId(await this.ctx.resolve(q));
    const r = await resolveAt(this.ctx, q);
    return { id: fullId(r.oid), principal: r.principal, at: r.at, created_at: r.created_at };
  }
  /** The tip of the branch holding `session` (meta.json session_id; `ctx current`); NotFoundError when none does. */
  async current(session: string): Promise<SessionCurrent> {
    const { oid, ...rest } = await currentOf(this.ctx, session);
    return { id: fullId(oid), ...rest };
  }
  /** A runtime's transcript into a chain (`claude-code`, `codex`, `gemini-cli`: the runtime registry). */
  async import(runtime: string, file: string, opts: ImportOptions = {}): Promise<Imported> {
    const r = await importSession(this.ctx, runtime, file, opts);
    const commits = r.commits.map(written);
    const tip = commits.length ? commits[commits.length - 1].id : fullId(r.tip!);
    return { branch: r.branch, session: r.session, bytes: r.bytes, commits, unchanged: r.unchanged ?? false, tip };
  }
  /** The context at `id` as a new session of the runtime, written where it looks (`write: false`: only returned). */
  export(runtime: string, id: string, opts: ExportOptions & { write?: boolean } = {}): Promise<ExportResult> {
    return exportSession(this.ctx, runtime, id, opts);
  }
  /** Packs the store and prunes what nothing reaches; `pruneExpired` deletes branches past their retention (`ctx gc`). */
  gc(opts?: GcOptions): Promise<GcReport> {
    return gc(this.ctx, opts);
  }
  /** The branch's structured state (`ctx state`, `policy`, `diff`, `audit`, `stats`, `migrate`), typed by its schema. */
  state<S extends object = ReasoningV1>(branch: string): BranchState<S> {
    return new BranchState<S>(this.ctx, branch);
  }
  /** An agent loop's view of a branch: append the conversation, get the context back for the model. */
  session(branch: string, opts?: SessionOptions): Session {
    return new Session(this.ctx, branch, opts);
  }
  summarize(opts: SummarizeOptions): Promise<SummaryOutcome[]> {
    return summarize(this.ctx, opts);
  }
  remotes(): Remote[] {
    return remotes(this.ctx);
  }
  addRemote(name: string, url: string): Remote {
    return addRemote(this.ctx, name, url);
  }
  deleteRemote(name: string): Remote {
    return deleteRemote(this.ctx, name);
  }
  push(remote?: string, opts?: SyncOptions): Promise<SyncReport> {
    return push(this.ctx, remote, opts);
  }
  fetch(remote?: string, opts?: SyncOptions): Promise<SyncReport> {
    return fetch(this.ctx, remote, opts);
  }
  pull(remote?: string, opts?: SyncOptions): Promise<SyncReport> {
    return pull(this.ctx, remote, opts);
  }
  /** Ends the engine's git processes; call when done. */
  close(): Promise<void> {
    return this.ctx.close();
  }
}

/** Open the context repo at `path` (a bare git repo, e.g. `.ctx`). */
export async function openStore(path: string, opts: OpenOptions = {}): Promise<ContextStore> {
  const gitdir = resolve(path);
  if (!isContextRepo(gitdir)) {
    if (!opts.create) throw new NotFoundError(`${gitdir} is not a context repository`, { hint: 'ctx init, or openStore(path, { create: true })' });
    initRepo(gitdir);
  } else checkStoreTrust(gitdir, opts.env ?? process.env);
  return new ContextStore(new RepoContext(gitdir, opts));
}
