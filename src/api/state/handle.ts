// The library's view of one branch's structured state: `store.state('design-room')`, typed by the
// schema (reasoning-v1 unless told otherwise).
import { fullId } from '../../core/ids.js';
import { UsageError } from '../../errors/index.js';
import type { Policy } from '../../core/state/policy.js';
import type { StateRecord } from '../../core/state/record.js';
import type { ReasoningV1 } from '../../core/state/schemas/reasoning-v1.js';
import type { Json } from '../../core/state/values.js';
import type { RepoContext } from '../repo/repo-context.js';
import { auditState, diffState, getState, initState, migrateState, setPolicy, setState, showPolicy, stateStats, type AuditEntry, type StateDiff, type StateStats, type StateWrite } from './state.js';

export interface StateWritten {
  /** `ctx-<40 hex>` of the new commit; null when nothing changed */
  id: string | null;
  record: StateRecord;
}

const written = (w: StateWrite): StateWritten => ({ id: w.commit ? fullId(w.commit.oid) : null, record: w.record });

/** A policy change or a migration names its agent: a JavaScript caller that leaves `as` out is refused, not defaulted. */
function adminNamed(as: string | undefined, doing: string): string {
  if (typeof as !== 'string' || as === '') throw new UsageError(`say which agent ${doing}: { as: AGENT }, an agent with * in the policy (e.g. { as: 'orchestrator' })`);
  return as;
}

type Ns<S> = keyof S & string;

export class BranchState<S extends object = ReasoningV1> {
  constructor(
    private readonly ctx: RepoContext,
    readonly branch: string,
  ) {}
  /** The schema's namespaces and the default policy: a new branch, or a commit on top (`ctx state init`). */
  async init(opts: { schema?: string | object; as?: string; format?: string } = {}): Promise<StateWritten> {
    return written(await initState(this.ctx, this.branch, { schema: opts.schema, agent: opts.as, format: opts.format }));
  }
  /** The whole state at the tip, or at `at` (`design-room~5`). */
  async all(at?: string): Promise<S> {
    return (await getState(this.ctx, at ?? this.branch)).value as S;
  }
  /** One namespace, or one key of it; `at`: an ancestor (`design-room~5`). */
  async get<N extends Ns<S>>(ns: N, opts?: { at?: string }): Promise<S[N]>;
  async get<N extends Ns<S>, K extends keyof S[N] & string>(ns: N, key: K, opts?: { at?: string }): Promise<S[N][K]>;
  async get(ns: string, key?: string | { at?: string }, opts?: { at?: string }): Promise<unknown> {
    const k = typeof key === 'string' ? key : undefined;
    const at = (typeof key === 'object' ? key : opts)?.at ?? this.branch;
    return (await getState(this.ctx, at, k === undefined ? ns : `${ns}.${k}`)).value;
  }
  /** `ns.key = value`, written as `as` under the branch's policy, schema and limits (StateRefusedError otherwise). */
  /** `retry`: when another agent wrote first, read the new state and set again on top of it. */
  async set<N extends Ns<S>, K extends keyof S[N] & string>(ns: N, key: K, value: S[N][K], opts: { as: string; retry?: boolean }): Promise<StateWritten> {
    return written(await setState(this.ctx, this.branch, `${ns}.${key}`, value as Json, opts.as, opts));
  }
  async delete<N extends Ns<S>>(ns: N, key: keyof S[N] & string, opts: { as: string; retry?: boolean }): Promise<StateWritten> {
    return written(await setState(this.ctx, this.branch, `${ns}.${key}`, undefined, opts.as, opts));
  }
  async policy(at?: string): Promise<Policy> {
    return (await showPolicy(this.ctx, at ?? this.branch)).agents;
  }
  /** `agent` may write `namespaces` (`['*']`: everything; null: nothing, removed); `as`: an agent with `*`, named (no default). */
  async setPolicy(agent: string, namespaces: string[] | null, opts: { as: string; retry?: boolean }): Promise<StateWritten> {
    return written(await setPolicy(this.ctx, this.branch, agent, namespaces, adminNamed(opts?.as, 'changes the policy'), opts));
  }
  /** Keys added, removed and changed per namespace from `from` to `to` (default: the tip). */
  diff(from: string, to?: string): Promise<StateDiff> {
    return diffState(this.ctx, from, to ?? this.branch);
  }
  /** Every state write on the chain, newest first. */
  audit(): Promise<AuditEntry[]> {
    return auditState(this.ctx, this.branch);
  }
  stats(at?: string): Promise<StateStats> {
    return stateStats(this.ctx, at ?? this.branch);
  }
  /** Through the registered migrations up to version `to`, as one commit. */
  async migrate(to: number, opts: { as: string }): Promise<StateWritten> {
    return written(await migrateState(this.ctx, this.branch, to, adminNamed(opts?.as, 'migrates the state')));
  }
}
