// `store.session(branch, opts)`: what an agent loop lives in. `append` checkpoints only the messages
// new since the last append (the store remembers how many the branch holds, not the caller);
// `messages` gives the context back parsed, ready for the model, compacted in memory when a budget
// is given and the context is over it; `fork`, `compact`, `budget` as the CLI does them.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { canonicalJson } from '../../core/canonical-json.js';
import { STAGES, compactMessages, type CompactionResult } from '../../core/compaction.js';
import type { NeutralMessage } from '../../core/neutral.js';
import { ConflictError, UsageError } from '../../errors/index.js';
import { SESSION_FORMAT, appendable, storageFormat } from '../../formats/registry.js';
import type { StorageFormat } from '../../formats/format.js';
import { derivedDir, writeDerived } from '../../store/derived.js';
import { checkBranchName, refs } from '../../store/refs.js';
import { budget, type BudgetOptions, type BudgetReport } from '../read/budget.js';
import { fork } from '../write/branch-ops.js';
import { compact, type CompactOptions, type CompactResult } from '../write/compact.js';
import { materialize, type MaterializeOptions } from '../read/materialize.js';
import type { RepoContext } from '../repo/repo-context.js';
import { checkpoint, written, type CommitFields, type Written } from '../write/write.js';

export interface SessionOptions extends Omit<CommitFields, 'type' | 'snapshotOf' | 'lastOfFile' | 'source'> {
  /** the format messages are appended and given back in (default: Chat Completions messages; the neutral ones: bureau-agent-v1) */
  format?: string;
}

export interface MessagesOptions extends Pick<MaterializeOptions, 'for' | 'thread' | 'since' | 'view' | 'maskToolOutputs'> {
  /** `compaction` (default), `root` or an ancestor id */
  stop?: string;
  /** over `window - reserveOutput` tokens, the messages are compacted in memory (nothing written) */
  budget?: { window: number; reserveOutput?: number };
}

/** How many entries the branch held at a tip, and the hash of the last: an append checks the caller's list against it. */
interface Position {
  tip: string;
  count: number;
  last: string | null;
}

export class Session {
  private readonly fmt: StorageFormat;
  constructor(
    private readonly ctx: RepoContext,
    readonly branch: string,
    private readonly opts: SessionOptions = {},
  ) {
    checkBranchName(branch);
    this.fmt = storageFormat(opts.format ?? SESSION_FORMAT);
    if (!appendable().includes(this.fmt.name)) throw new UsageError(`a session cannot append ${this.fmt.name} messages (formats: ${appendable().join(', ')})`);
  }

  get format(): string {
    return this.fmt.name;
  }

  /**
   * The messages of the whole conversation so far, as the caller keeps them; only those past what the
   * branch holds are checkpointed (one commit), null when there are none. A list that does not start
   * with what the branch holds is refused (ConflictError): fork first.
   */
  async append(messages: readonly unknown[], fields: Omit<SessionOptions, 'format'> = {}): Promise<Written | null> {
    const at = await this.position();
    if (messages.length < at.count || (at.count > 0 && hash(messages[at.count - 1]) !== at.last))
      throw new ConflictError(`${this.branch} holds ${at.count} messages that these do not start with`, { hint: 'append the whole conversation, or fork and append there' });
    const fresh = messages.slice(at.count);
    if (fresh.length === 0) return null;
    const { format: _f, ...given } = this.opts;
    const w = await checkpoint(this.ctx, { ...given, ...fields, branch: this.branch, format: this.fmt.name, artifact: this.encode(fresh), parent: at.tip || undefined });
    this.remember({ tip: w.oid, count: messages.length, last: hash(messages[messages.length - 1]) });
    return written(w);
  }

  /** The context as the model is given it: parsed entries of the session's format, compacted in memory when over `budget`. */
  async messages(opts: MessagesOptions = {}): Promise<unknown[]> {
    if (this.ctx.refs.read(refs.branch(this.branch)) === null) return [];
    const { budget: limit, ...read } = opts;
    const m = await materialize(this.ctx, this.branch, { ...read, format: this.fmt.name });
    // an empty window is no bytes at all
    const entries = m.bytes.length ? this.fmt.parse(m.bytes) : [];
    if (!limit) return entries;
    const target = limit.window - (limit.reserveOutput ?? 0);
    const counter = await this.ctx.tokenCounter();
    const neutral = this.fmt.toNeutral!(entries);
    const done: CompactionResult = await compactMessages(neutral, { stages: STAGES, budget: target, counter });
    if (done.messages.length === neutral.length && done.report.every((r) => r.changed === 0)) return entries;
    return this.fmt.parse(this.fmt.fromNeutral!(done.messages as NeutralMessage[]));
  }

  /** A new branch at this session's tip, and the session on it. */
  async fork(name: string): Promise<Session> {
    await fork(this.ctx, this.branch, name);
    return new Session(this.ctx, name, this.opts);
  }

  /** A compaction commit on the branch (every stage by default), as `ctx compact` writes it. */
  compact(opts: Partial<CompactOptions> = {}): Promise<CompactResult> {
    return compact(this.ctx, this.branch, { stages: STAGES, ...opts });
  }

  budget(opts: BudgetOptions): Promise<BudgetReport> {
    return budget(this.ctx, this.branch, opts);
  }

  private encode(entries: readonly unknown[]): Uint8Array {
    if (this.fmt.encode) return this.fmt.encode(entries);
    return Buffer.from(entries.map((e) => `${JSON.stringify(e)}\n`).join(''), 'utf8');
  }

  /** Where the branch is, from the remembered position while the branch has not moved, else counted from its messages. */
  private async position(): Promise<Position> {
    const tip = this.ctx.refs.read(refs.branch(this.branch));
    if (tip === null) return { tip: '', count: 0, last: null };
    const kept = this.recalled();
    if (kept?.tip === tip) return kept;
    // moved by another writer (or never appended here): the whole conversation the branch holds
    const m = await materialize(this.ctx, this.branch, { format: this.fmt.name, stop: 'root' });
    const entries = this.fmt.parse(m.bytes);
    const at = { tip, count: entries.length, last: entries.length ? hash(entries[entries.length - 1]) : null };
    this.remember(at);
    return at;
  }

  private statePath(): string {
    return join(derivedDir(this.ctx.gitdir, 'sessions'), `${createHash('sha1').update(`${this.fmt.name}\0${this.branch}`).digest('hex')}.json`);
  }

  private recalled(): Position | null {
    try {
      const p = JSON.parse(readFileSync(this.statePath(), 'utf8'));
      return typeof p?.tip === 'string' && Number.isInteger(p.count) ? p : null;
    } catch {
      return null;
    }
  }

  private remember(at: Position): void {
    try {
      writeDerived(this.statePath(), JSON.stringify(at));
    } catch {
      // derived data: the next append counts again
    }
  }
}

const hash = (entry: unknown) => createHash('sha256').update(canonicalJson(entry)).digest('hex');
