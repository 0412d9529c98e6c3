// ctx gc: delete branches past their retention (`--prune-expired`), then `git gc` (pack, prune
// unreachable objects past git's grace period), then drop derived data of commits that are gone.
// Without git on PATH, ctx packs the loose objects itself and prunes nothing.
import { ConflictError, CtxError } from '../../errors/index.js';
import { retentionRules, ruleFor } from '../../core/retention.js';
import { readStoredCommits } from '../../store/context-commits.js';
import { gitOnPath } from '../../store/engine-select.js';
import { packLooseInProcess } from '../../store/pack-loose.js';
import { releaseAbandoned } from '../../store/pack-write.js';
import { nativeGc, objectStats, removeDerived, staleDerived, type ObjectStats } from '../../store/gc.js';
import { notesIndexAt, readNotes } from '../../store/notes.js';
import { refs } from '../../store/refs.js';
import { foldRecords, isCursorRecord, noteRecords } from '../read/read.js';
import type { RepoContext } from '../repo/repo-context.js';

export type { ObjectStats };

export interface GcOptions {
  /** delete branches whose `ctx.<pattern>.retention` has passed */
  pruneExpired?: boolean;
  /** report what would be deleted; change nothing */
  dryRun?: boolean;
  /** git's `--prune=<date>`: unreachable objects older than this go (default: git's gc.pruneExpire, 2 weeks) */
  prune?: string;
}

export interface ExpiredBranch {
  branch: string;
  oid: string;
  created_at: string;
  pattern: string;
  keep: string;
  /** deleted; or kept: a pinned or cursor commit only it reaches, or it moved while gc ran */
  action: 'deleted' | 'would-delete' | 'kept-pinned' | 'kept-moved';
}

export interface GcReport {
  dry_run: boolean;
  branches: ExpiredBranch[];
  before: ObjectStats;
  /** null on a dry run */
  after: ObjectStats | null;
  /** derived files (cache entries, hook states) removed because their commit is gone */
  derived_removed: number;
}

export async function gc(ctx: RepoContext, opts: GcOptions = {}): Promise<GcReport> {
  const dryRun = opts.dryRun === true;
  const native = gitOnPath();
  if (opts.prune !== undefined && (opts.prune === '' || opts.prune.startsWith('-'))) throw new CtxError(`--prune: not a date: ${opts.prune}`);
  if (!dryRun && !native && opts.prune !== undefined)
    throw new CtxError('--prune needs git on PATH: ctx packs loose objects itself but cannot prune; nothing was changed', { hint: 'install git, or run ctx gc without --prune' });
  const before = objectStats(ctx.gitdir);
  const branches = opts.pruneExpired ? await pruneExpired(ctx, dryRun) : [];
  if (dryRun) return { dry_run: true, branches, before, after: null, derived_removed: 0 };
  try {
    // a write that died between its pack and its ref left the pack held: git would never fold it
    releaseAbandoned(ctx.gitdir);
    // without git: the loose objects packed in-process; unreachable ones stay (only git prunes)
    if (native) await nativeGc(ctx.gitdir, opts.prune);
    else await packLooseInProcess(ctx.gitdir, { foldPacks: true });
  } catch (e) {
    const msg = (e as Error).message.replace(/^fatal: /, '');
    // another gc (a writer's auto-pack, another ctx gc) holds git's gc.pid: it is packing this store now
    if (/gc is already running/.test(msg)) throw new ConflictError(`a git gc is already running on the store: ${msg.replace(/ \(use --force if not\)$/, '')}`, { hint: 'try again when it is done' });
    // a lock git could not take: another gc starting (gc.pid.lock) or a writer's ref or packed-refs update
    const lock = /Unable to create '([^']+\.lock)': File exists/.exec(msg);
    if (lock) throw new ConflictError(`another git process holds ${lock[1]}: a gc or a writer is working on the store; try again, or remove the lock if no git process is running`);
    throw new CtxError(`${native ? 'git gc' : 'packing'} failed: ${msg}`);
  }
  const stale = await staleDerived(ctx.gitdir, async (ids) => (await ctx.engine.readObjects(ids)).map((o) => o !== null));
  // the search index forgets the commits no branch reaches any more (SQLite is loaded only when there is one)
  await (await import('../search/search-index.js')).pruneIndex(ctx);
  return { dry_run: false, branches, before, after: objectStats(ctx.gitdir), derived_removed: removeDerived(stale) };
}

/** Branches past their rule's age, deleted (compare-and-swap) unless a protected commit would go with them. */
async function pruneExpired(ctx: RepoContext, dryRun: boolean): Promise<ExpiredBranch[]> {
  const rules = retentionRules(ctx.config);
  const now = ctx.now().getTime();
  const expired: ExpiredBranch[] = [];
  for (const [branch, oid] of ctx.branchTips()) {
    const rule = ruleFor(rules, branch);
    if (!rule || rule.keepMs === null) continue;
    const [tip] = await readStoredCommits(ctx.engine, [oid]);
    if (now - Date.parse(tip.meta.created_at) <= rule.keepMs) continue;
    expired.push({ branch, oid, created_at: tip.meta.created_at, pattern: rule.pattern, keep: rule.keep, action: dryRun ? 'would-delete' : 'deleted' });
  }
  if (expired.length === 0) return expired;
  const held = await protectedCommits(ctx);
  if (held.size) {
    // what stays reachable without the expired branches; a protected commit outside it keeps its branch
    const gone = new Set(expired.map((e) => e.branch));
    const roots = [...ctx.allTips()].filter(([name]) => !gone.has(name)).map(([, oid]) => oid);
    for (const t of ctx.refs.list(refs.tags)) roots.push(await ctx.peel(t.oid));
    const kept = new Set<string>();
    for (const root of new Set(roots)) for (const o of await ctx.firstParents(root).catch(() => [])) kept.add(o);
    for (const e of expired) {
      const chain = await ctx.firstParents(e.oid);
      if (chain.some((o) => held.has(o) && !kept.has(o))) e.action = 'kept-pinned';
    }
  }
  if (!dryRun)
    for (const e of expired) {
      if (e.action !== 'deleted') continue;
      try {
        ctx.refs.delete(refs.branch(e.branch), e.oid);
      } catch {
        e.action = 'kept-moved'; // written to since it was judged: no longer expired
      }
    }
  return expired;
}

/** Commits annotations protect: `pinned: true`, a cursor's commit (`ctx cursor`), and commits a `cursor` or `pin` field names. */
async function protectedCommits(ctx: RepoContext): Promise<Set<string>> {
  const tip = ctx.refs.read(refs.notes);
  if (!tip) return new Set();
  const annotated = [...(await notesIndexAt(ctx.engine, tip)).keys()];
  const notes = await readNotes(ctx.engine, ctx.refs, annotated);
  const out = new Set<string>();
  for (const [oid, note] of notes) {
    const records = noteRecords(note);
    const a = foldRecords(records);
    if (a.pinned === true || records.some(isCursorRecord)) out.add(oid);
    for (const v of [a.cursor, a.pin]) if (typeof v === 'string' && /^(ctx-)?[0-9a-f]{40}$/.test(v)) out.add(v.replace(/^ctx-/, ''));
  }
  return out;
}
