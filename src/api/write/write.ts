// api/write: writing context commits (checkpoint, chains, secret policy, compaction, summaries, annotations, forks). Imports api/capture, api/read and api/repo.
// Writing context commits: objects first, then a compare-and-swap of the branch; after a write,
// what the repo's settings ask for (packing loose objects, a snapshot every ctx.autoSnapshot commits).
import { AlreadyExistsError, ConflictError, NotFoundError, UsageError } from '../../errors/index.js';
import { artifactHash } from '../../core/blake3.js';
import { fullId } from '../../core/ids.js';
import { derivedSummary } from '../../core/summary.js';
import { COMMIT_TYPES, TRIGGERS, isoMs, type CommitType, type Meta, type Trigger } from '../../core/meta.js';
import { storageFormat } from '../../formats/registry.js';
import type { SessionInfo } from '../../formats/format.js';
import { addInPieces, tallyOf } from '../../core/tokens.js';
import { LongStrings } from '../../formats/jsonl.js';
import { commitSpec } from '../../store/context-commits.js';
import type { TreeFile } from '../../store/engine.js';
import { subtreeOf } from '../../store/subtree.js';
import { STATE_DIR, type StateRecord } from '../../core/state/record.js';
import { checkBranchName, refs } from '../../store/refs.js';
import { packIfLoose } from '../repo/auto-pack.js';
import { releaseKept } from '../../store/pack-write.js';
import { readTipMeta } from '../read/context-reader.js';
import { recordWrite } from '../repo/timeline.js';
import type { RepoContext } from '../repo/repo-context.js';
import { addCounts, screenArtifact, screenFields, secretPolicy, type SecretPolicy } from './secrets.js';

export interface CommitFields {
  type?: CommitType;
  template?: string;
  principal?: string;
  machine?: string;
  session?: string;
  trigger?: Trigger;
  ticket?: string;
  thread?: string;
  /** the agent whose entries these are (meta.json `author`) */
  author?: string;
  /** none: derived from the artifact's messages (core/summary.ts derivedSummary) */
  summary?: string;
  /** a summary derived: from what the agent did only (import and capture: the runtime's splitter found no prompt) */
  summaryFromReplies?: boolean;
  /** ISO time; default: now */
  createdAt?: string;
  /** the artifact ends an imported file, whose last line may lack its newline */
  lastOfFile?: boolean;
  source?: Record<string, unknown>;
  snapshotOf?: { stop: string; commit: string };
  /** secret policy for this write (`--secrets`); default: git config ctx.secrets, else redact */
  secrets?: SecretPolicy;
  /** a structured-state write's audit record (meta.json `state`) */
  state?: StateRecord;
  /** secrets already redacted from what the commit stores besides its artifact (a state value): rule id → count */
  redactions?: Record<string, number>;
}

export interface CheckpointInput extends CommitFields {
  branch: string;
  format: string;
  artifact: Uint8Array;
  /** the commit the new one follows; the branch must still point there */
  parent?: string;
  /** on a moved branch, re-read the tip and try again */
  retry?: boolean;
}

export interface WrittenCommit {
  oid: string;
  parent: string | null;
  meta: Meta;
  /** for people (stderr): secrets stored as they are under the `warn` policy */
  warnings?: string[];
}

/** A commit the store wrote, as the library gives it: ids are `ctx-<40 hex>`. */
export interface Written {
  /** `ctx-<40 hex>` */
  id: string;
  parent: string | null;
  meta: Meta;
  /** for people: secrets stored as they are under the `warn` policy */
  warnings?: string[];
}

export const written = (w: WrittenCommit): Written => ({ id: fullId(w.oid), parent: w.parent === null ? null : fullId(w.parent), meta: w.meta, ...(w.warnings ? { warnings: w.warnings } : {}) });

export const MAX_RETRIES = 200;

/**
 * The artifact as it will be stored and its metadata: the secret policy applied first (redacted
 * spans recorded in meta.json `redactions`), so hashes and objects never see a redacted secret.
 */
export async function prepareCommit(
  ctx: RepoContext,
  format: string,
  artifact: Uint8Array,
  f: CommitFields,
  policy: SecretPolicy = secretPolicy(ctx.config, f.secrets),
): Promise<{ meta: Meta; artifact: Uint8Array; warnings: string[] }> {
  const source = f.source as { file?: unknown; path?: unknown; offset?: unknown } | undefined;
  const name = source?.file ?? source?.path;
  const origin = { path: typeof name === 'string' ? name : undefined, offset: typeof source?.offset === 'number' ? source.offset : undefined };
  const screened = screenArtifact(storageFormat(format), artifact, policy, origin);
  // no summary given: one derived from the messages as stored (a state write says what it wrote)
  const summary = f.summary ?? (f.state ? undefined : derivedOf(format, screened.artifact, f));
  // then the metadata: it lands in meta.json, the commit message and its author
  const d = ctx.defaults;
  const text = screenFields(
    { summary, ticket: f.ticket, thread: f.thread, author: f.author, session: f.session ?? d.session, template: f.template ?? d.template, principal: f.principal ?? d.principal, machine: f.machine ?? d.machine },
    policy,
    (field) => `the ${field}`,
  );
  const meta = await buildMeta(ctx, format, screened.artifact, { ...f, ...text.fields });
  const redactions = addCounts(addCounts(screened.redactions, text.redactions), f.redactions);
  if (redactions) meta.redactions = redactions;
  return { meta, artifact: screened.artifact, warnings: [...screened.warnings, ...text.warnings] };
}

/** A summary from the artifact's neutral messages, for every format that reads into them; '' for one that does not, or bytes that do not parse (buildMeta says why). */
function derivedOf(format: string, artifact: Uint8Array, f: CommitFields): string {
  const fmt = storageFormat(format);
  if (!fmt.toNeutral) return '';
  try {
    return derivedSummary(fmt.toNeutral(fmt.parse(artifact, { lastOfFile: f.lastOfFile })), f.type ?? 'delta', { replies: f.summaryFromReplies });
  } catch {
    return '';
  }
}

/** Metadata for one artifact as stored (see prepareCommit for the secret policy); checks the bytes parse as the format. */
export async function buildMeta(ctx: RepoContext, format: string, artifact: Uint8Array, f: CommitFields): Promise<Meta> {
  const fmt = storageFormat(format);
  const type = f.type ?? 'delta';
  if (!COMMIT_TYPES.includes(type)) throw new UsageError(`unknown commit type '${type}' (${COMMIT_TYPES.join(', ')})`);
  const trigger = f.trigger ?? 'explicit';
  if (!TRIGGERS.includes(trigger)) throw new UsageError(`unknown trigger '${trigger}' (${TRIGGERS.join(', ')})`);
  // counted as parsed, entry by entry where the format can: a large artifact is never held parsed whole
  const tokens = tallyOf(await ctx.tokenCounter());
  let messages = 0;
  // a format that can gives a long line's long strings as markers, each counted a piece at a time
  const long = fmt.longTexts ? new LongStrings() : undefined;
  const take = (entries: readonly unknown[]) => {
    messages += fmt.count(entries);
    const texts = fmt.tokenTexts(entries);
    if (!long || !texts.some((t) => long.holds(t))) return tokens.add(texts);
    // a marker inside a text (a tool's input as JSON): that line's texts as they are
    if (texts.some((t) => long.holds(t) && !long.is(t))) return tokens.add(fmt.tokenTexts([long.whole()]));
    for (const t of texts) if (!long.holds(t)) tokens.add([t]);
    else addInPieces(tokens, (piece) => long.pieces(t, piece));
  };
  const opts = { lastOfFile: f.lastOfFile, long };
  // a state write holds no messages: its artifact may be empty even where the format refuses an empty one
  if (f.state && artifact.length === 0) take([]);
  else if (fmt.eachEntry) fmt.eachEntry(artifact, opts, (entry) => take([entry]));
  else take(fmt.parse(artifact, opts));
  const d = ctx.defaults;
  const meta: Meta = {
    v: 1,
    type,
    format: fmt.name,
    artifact: await artifactHash(artifact),
    artifact_size: artifact.length,
    template: f.template ?? d.template,
    principal: f.principal ?? d.principal,
    machine: f.machine ?? d.machine,
    session_id: f.session ?? d.session,
    checkpoint: trigger,
    summary: f.summary ?? '',
    message_count: messages,
    token_count: tokens.total(),
    created_at: isoMs(f.createdAt ?? ctx.now()),
  };
  if (f.ticket) meta.ticket_id = f.ticket;
  if (f.thread) meta.thread_id = f.thread;
  if (f.author) meta.author = f.author;
  if (f.source) meta.source = f.source;
  if (f.snapshotOf) meta.snapshot_of = f.snapshotOf;
  if (f.state) meta.state = f.state;
  return meta;
}

/** `stateFiles`: the commit's `state/` entries (a state write, internal only); without them the parent's `state/` is carried over. */
export async function checkpoint(ctx: RepoContext, input: CheckpointInput, stateFiles?: readonly TreeFile[]): Promise<WrittenCommit> {
  const ref = refs.branch(checkBranchName(input.branch));
  ctx.refs.checkCreatable(ref);
  const { meta, artifact, warnings } = await prepareCommit(ctx, input.format, input.artifact, input);
  const ext = storageFormat(meta.format).ext;
  let wanted = input.parent === undefined ? undefined : await ctx.resolve(input.parent);
  for (let attempt = 0; ; attempt++) {
    const tip = ctx.refs.read(ref);
    if (wanted !== undefined && tip !== null && tip !== wanted) {
      if (!input.retry) throw movedError(input.branch, tip);
      wanted = tip;
    }
    const parent = wanted ?? tip;
    const state = stateFiles ?? (await carriedState(ctx, parent));
    const [oid] = await ctx.engine.writeCommits([commitSpec(meta, artifact, ext, parent, ctx.maxBlobSize, state)]);
    try {
      ctx.refs.update(ref, oid, tip);
    } catch (e) {
      if (!(e instanceof ConflictError) || !input.retry || attempt >= MAX_RETRIES) throw e;
      wanted = undefined;
      continue;
    }
    const w = { oid, parent, meta, ...(warnings.length ? { warnings } : {}) };
    await afterWrite(ctx, input.branch, ref, tip, [w]);
    return w;
  }
}

export interface FilesCommitInput extends CommitFields {
  branch: string;
  format: string;
  artifact: Uint8Array;
  /** the commit the new one stands on (null: a root), which need not be the branch's tip */
  parent: string | null;
  /** where the branch must still point (null: it must not exist); it moves to the new commit */
  expected: string | null;
  /** the adapter's own tree entries beside meta.json and the artifact (`dir/name`) */
  files: readonly TreeFile[];
}

/**
 * A context commit whose tree also holds an adapter's `files`, on any `parent` (a framework's fork
 * stands on an older commit); the branch moves from `expected` to it (compare-and-swap). No
 * automatic snapshot: such a branch holds the adapter's commits only.
 */
export async function commitWithFiles(ctx: RepoContext, input: FilesCommitInput): Promise<WrittenCommit> {
  const ref = refs.branch(checkBranchName(input.branch));
  if (input.expected === null) ctx.refs.checkCreatable(ref);
  const { meta, artifact, warnings } = await prepareCommit(ctx, input.format, input.artifact, input);
  // one pack for the commit's objects: a framework's put writes many small ones, each a file when loose
  // held by a .keep until the ref reaches it: a gc running meanwhile keeps the pack whole
  const kept: string[] = [];
  let oid: string;
  try {
    [oid] = await ctx.engine.writeCommits([commitSpec(meta, artifact, storageFormat(meta.format).ext, input.parent, ctx.maxBlobSize, input.files)], { pack: { kept } });
    ctx.refs.update(ref, oid, input.expected);
  } finally {
    releaseKept(kept);
  }
  const w = { oid, parent: input.parent, meta, ...(warnings.length ? { warnings } : {}) };
  recordWrite(ctx, ref, input.expected, [w]);
  await packIfLoose(ctx, { packs: true });
  return w;
}

/** The parent's structured state, carried into a commit that does not change it: the same subtree. */
/** The title and pull request the parent's meta.source carries. */
async function carriedSessionInfo(ctx: RepoContext, parent: string | null): Promise<SessionInfo> {
  if (parent === null) return {};
  const source = (await readTipMeta(ctx, parent)).source as SessionInfo | undefined;
  return { ...(typeof source?.title === 'string' ? { title: source.title } : {}), ...(source?.pr && typeof source.pr === 'object' ? { pr: source.pr } : {}) };
}

async function carriedState(ctx: RepoContext, parent: string | null): Promise<TreeFile[]> {
  const tree = parent === null ? null : await subtreeOf(ctx.gitdir, ctx.engine, parent, STATE_DIR);
  return tree === null ? [] : [{ path: STATE_DIR, tree }];
}

function movedError(branch: string, tip: string) {
  return new ConflictError(`branch moved: ${branch} is now at ctx-${tip.slice(0, 12)}`, { hint: 'read the new tip and try again (--retry)' });
}

export interface ChainItem extends CommitFields {
  artifact: Uint8Array;
}

/** A chain item whose bytes may be read only when its commit is written (an import reads one segment at a time). */
export interface LazyChainItem extends CommitFields {
  artifact: Uint8Array | (() => Uint8Array);
}

/** Artifact bytes a batch of writeChain holds before it writes them: past this, the batch goes to git. */
const BATCH_BYTES = 32 * 1024 * 1024;

/**
 * Many commits in batches of objects, then one ref update: a new branch (an import), or with
 * `onto` the commits extend the branch, which must still be at `onto` (compare-and-swap). A batch
 * is written once its artifacts pass BATCH_BYTES, so a large import holds about one batch in memory.
 */
export async function writeChain(
  ctx: RepoContext,
  branch: string,
  format: string,
  items: readonly LazyChainItem[],
  onProgress?: (done: number) => void,
  onto: string | null = null,
): Promise<WrittenCommit[]> {
  const ref = refs.branch(checkBranchName(branch));
  if (onto === null && ctx.refs.read(ref)) throw new AlreadyExistsError(`branch ${branch} already exists`, { hint: 'choose another with -b NAME' });
  ctx.refs.checkCreatable(ref);
  const ext = storageFormat(format).ext;
  const policy = items.length ? secretPolicy(ctx.config, items[0].secrets) : 'redact';
  const state = await carriedState(ctx, onto);
  const fmt = storageFormat(format);
  // the session's title and pull request, carried from commit to commit (formats that have them)
  let session: SessionInfo = fmt.sessionInfo ? await carriedSessionInfo(ctx, onto) : {};
  const written: WrittenCommit[] = [];
  let batch: Awaited<ReturnType<typeof prepareCommit>>[] = [];
  let held = 0;
  const write = async () => {
    const from = written.length ? written[written.length - 1].oid : onto;
    const oids = await ctx.engine.writeCommits(batch.map((p, i) => commitSpec(p.meta, p.artifact, ext, i === 0 ? from : { index: i - 1 }, ctx.maxBlobSize, state)));
    oids.forEach((oid, i) => written.push({ oid, parent: i === 0 ? from : oids[i - 1], meta: batch[i].meta, ...(batch[i].warnings.length ? { warnings: batch[i].warnings } : {}) }));
    batch = [];
    held = 0;
  };
  for (const item of items) {
    const artifact = typeof item.artifact === 'function' ? item.artifact() : item.artifact;
    const prepared = await prepareCommit(ctx, format, artifact, item, item.secrets === undefined ? policy : secretPolicy(ctx.config, item.secrets));
    if (fmt.sessionInfo) {
      session = { ...session, ...fmt.sessionInfo(prepared.artifact) };
      if (session.title !== undefined || session.pr !== undefined) prepared.meta.source = { ...prepared.meta.source, ...session };
    }
    batch.push(prepared);
    held += artifact.byteLength;
    onProgress?.(written.length + batch.length);
    if (held >= BATCH_BYTES) await write();
  }
  if (batch.length) await write();
  ctx.refs.update(ref, written[written.length - 1].oid, onto);
  // the snapshot is returned with the chain: the branch's tip is the last commit returned
  const snap = await afterWrite(ctx, branch, ref, onto, written);
  return snap ? [...written, snap] : written;
}

/**
 * What follows every write that moved `ref` from `before`: the timeline appended, loose objects
 * packed past ctx.autoPack, and the automatic snapshot (a snapshot, which is what it writes, triggers none).
 */
async function afterWrite(ctx: RepoContext, branch: string, ref: string, before: string | null, written: readonly WrittenCommit[]): Promise<WrittenCommit | null> {
  recordWrite(ctx, ref, before, written);
  await packIfLoose(ctx);
  return written[written.length - 1].meta.type === 'snapshot' ? null : autoSnapshot(ctx, branch);
}

export type SnapshotStop = 'compaction' | 'root';

/**
 * A snapshot commit of the context at the branch's tip, for materializations that stop at `stop`:
 * a materialize then walks back at most to it and reads it plus the deltas after it. `--stop root`
 * passes over snapshots: it still gives every original byte.
 */
export async function snapshot(ctx: RepoContext, branch: string, stop: SnapshotStop = 'compaction'): Promise<WrittenCommit> {
  if (stop !== 'compaction' && stop !== 'root') throw new UsageError(`a snapshot materializes --stop compaction or root, not '${stop}'`);
  const tip = ctx.refs.read(refs.branch(checkBranchName(branch)));
  if (!tip) throw new NotFoundError(`no branch ${branch}`);
  const { materialize } = await import('../read/materialize.js');
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
async function autoSnapshot(ctx: RepoContext, branch: string): Promise<WrittenCommit | null> {
  const every = autoSnapshotEvery(ctx.config);
  if (every === 0) return null;
  const tip = ctx.refs.read(refs.branch(branch));
  if (!tip) return null;
  const walked = await ctx.engine.chain(tip, every + 1);
  if (walked.length <= every) return null;
  // the newest commit that ends a default walk: a compaction or a snapshot
  if (walked.some((l) => /^Ctx-Type: (compaction|snapshot)$/m.test(l.message))) return null;
  return snapshot(ctx, branch, 'compaction');
}

function autoSnapshotEvery(config: ReadonlyMap<string, string>): number {
  const v = config.get('ctx.autosnapshot');
  if (v === undefined) return 0;
  if (!/^\d+$/.test(v) || (Number(v) !== 0 && Number(v) < 2)) throw new UsageError(`config ctx.autoSnapshot: ${v} is not a number of commits (0: off, else 2 or more)`);
  return Number(v);
}
