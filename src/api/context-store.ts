// The library: what an in-process agent wrapper imports. The CLI is built on the same calls.
import { materialize, type Materialized, type MaterializeOptions } from './materialize.js';
import { annotate, deleteBranch, fork, type AnnotateInput } from './branch-ops.js';
import { budget, type BudgetOptions, type BudgetReport } from './budget.js';
import { artifactOf, branches, log, show, type BranchInfo, type CommitRecord, type LogOptions } from './read.js';
import { RepoContext, type RepoOptions } from './repo-context.js';
import { verify, type VerifyReport } from './verify.js';
import { checkpoint, type CheckpointInput, type WrittenCommit } from './write.js';
import { importClaudeCode } from '../runtimes/claude-code/import.js';
import type { ImportOptions, ImportResult } from '../runtimes/transcript.js';
import { initRepo, isContextRepo } from '../store/repo.js';
import { NotFoundError } from '../errors/index.js';
import { resolve } from 'node:path';

export interface OpenOptions extends RepoOptions {
  /** create the repo when it does not exist (default false) */
  create?: boolean;
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
  checkpoint(input: CheckpointInput): Promise<WrittenCommit> {
    return checkpoint(this.ctx, input);
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
  branches(): Promise<BranchInfo[]> {
    return branches(this.ctx);
  }
  deleteBranch(name: string) {
    return deleteBranch(this.ctx, name);
  }
  fork(id: string, name?: string) {
    return fork(this.ctx, id, name);
  }
  materialize(id: string, opts?: MaterializeOptions): Promise<Materialized> {
    return materialize(this.ctx, id, opts);
  }
  /** Tokens the context at `id` uses of a model window (ContextTokenBudget). */
  budget(id: string, opts: BudgetOptions): Promise<BudgetReport> {
    return budget(this.ctx, id, opts);
  }
  annotate(id: string, input: AnnotateInput) {
    return annotate(this.ctx, id, input);
  }
  verify(id?: string): Promise<VerifyReport> {
    return verify(this.ctx, id);
  }
  resolve(id: string): Promise<string> {
    return this.ctx.resolve(id);
  }
  importClaudeCode(file: string, opts?: ImportOptions): Promise<ImportResult> {
    return importClaudeCode(this.ctx, file, opts);
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
  }
  return new ContextStore(new RepoContext(gitdir, opts));
}
