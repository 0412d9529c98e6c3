// Snapshot commits: the whole context at a branch tip stored as one artifact on top of it, so a
// materialize walks back at most to the newest snapshot of its stop and reads one snapshot plus the
// deltas after it. `--stop root` passes over snapshots: it still gives every original byte.
import { fullId } from '../core/ids.js';
import { NotFoundError, UsageError } from '../errors/index.js';
import { readConfig } from '../store/repo.js';
import { checkBranchName, refs } from '../store/refs.js';
import { readTipMeta } from './context-reader.js';
import { materialize } from './materialize.js';
import type { RepoContext } from './repo-context.js';
import { checkpoint, type WrittenCommit } from './write.js';

export type SnapshotStop = 'compaction' | 'root';

/** A snapshot commit of the context at the branch's tip, for materializations that stop at `stop`. */
export async function snapshot(ctx: RepoContext, branch: string, stop: SnapshotStop = 'compaction'): Promise<WrittenCommit> {
  if (stop !== 'compaction' && stop !== 'root') throw new UsageError(`a snapshot materializes --stop compaction or root, not '${stop}'`);
  const tip = ctx.refs.read(refs.branch(checkBranchName(branch)));
  if (!tip) throw new NotFoundError(`no branch ${branch}`);
  const m = await materialize(ctx, tip, { stop });
  if (m.tier !== 'native' && m.tier !== 'field-level') throw new UsageError(`${branch} mixes formats (${m.from.join(', ')}): a snapshot holds one`);
  const meta = await readTipMeta(ctx, tip);
  return checkpoint(ctx, {
    branch,
    format: m.format,
    artifact: m.bytes,
    parent: tip,
    type: 'snapshot',
    trigger: 'explicit',
    template: meta.template,
    session: meta.session_id,
    summary: `snapshot of ${m.commits.length} commits`,
    snapshotOf: { stop, commit: fullId(tip) },
    // the snapshot is the context as materialized: its last line may be a file's own last line
    lastOfFile: true,
  });
}

/**
 * `ctx.autoSnapshot N`: after a write, a snapshot when the branch's default materialization would
 * walk more than N commits. Off (0) by default: each snapshot stores a whole copy of the context.
 */
export async function autoSnapshot(ctx: RepoContext, branch: string): Promise<WrittenCommit | null> {
  const every = autoSnapshotEvery(ctx.gitdir);
  if (every === 0) return null;
  const tip = ctx.refs.read(refs.branch(branch));
  if (!tip) return null;
  const walked = await ctx.engine.chain(tip, every + 1);
  if (walked.length <= every) return null;
  // the newest commit that ends a default walk: a compaction or a snapshot
  if (walked.some((l) => /^Ctx-Type: (compaction|snapshot)$/m.test(l.message))) return null;
  return snapshot(ctx, branch, 'compaction');
}

function autoSnapshotEvery(gitdir: string): number {
  const v = readConfig(gitdir).get('ctx.autosnapshot');
  if (v === undefined) return 0;
  if (!/^\d+$/.test(v) || (Number(v) !== 0 && Number(v) < 2)) throw new UsageError(`config ctx.autoSnapshot: ${v} is not a number of commits (0: off, else 2 or more)`);
  return Number(v);
}
