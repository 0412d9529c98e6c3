// Writing context commits: objects first, then a compare-and-swap of the branch.
import { AlreadyExistsError, ConflictError, UsageError } from '../errors/index.js';
import { artifactHash } from '../core/blake3.js';
import { COMMIT_TYPES, TRIGGERS, isoMs, type CommitType, type Meta, type Trigger } from '../core/meta.js';
import { storageFormat } from '../formats/registry.js';
import { commitSpec } from '../store/context-commits.js';
import { checkBranchName, refs } from '../store/refs.js';
import type { RepoContext } from './repo-context.js';

export interface CommitFields {
  type?: CommitType;
  template?: string;
  principal?: string;
  machine?: string;
  session?: string;
  trigger?: Trigger;
  ticket?: string;
  thread?: string;
  summary?: string;
  /** ISO time; default: now */
  createdAt?: string;
  /** the artifact ends an imported file, whose last line may lack its newline */
  lastOfFile?: boolean;
  source?: Record<string, unknown>;
  snapshotOf?: { stop: string; commit: string };
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
}

const MAX_RETRIES = 200;

/** Metadata for one artifact; checks the bytes parse as the format. */
export async function buildMeta(ctx: RepoContext, format: string, artifact: Uint8Array, f: CommitFields): Promise<Meta> {
  const fmt = storageFormat(format);
  const type = f.type ?? 'delta';
  if (!COMMIT_TYPES.includes(type)) throw new UsageError(`unknown commit type '${type}' (${COMMIT_TYPES.join(', ')})`);
  const trigger = f.trigger ?? 'explicit';
  if (!TRIGGERS.includes(trigger)) throw new UsageError(`unknown trigger '${trigger}' (${TRIGGERS.join(', ')})`);
  const entries = fmt.parse(artifact, { lastOfFile: f.lastOfFile });
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
    message_count: fmt.count(entries),
    token_count: fmt.estimateTokens(entries),
    created_at: isoMs(f.createdAt ?? ctx.now()),
  };
  if (f.ticket) meta.ticket_id = f.ticket;
  if (f.thread) meta.thread_id = f.thread;
  if (f.source) meta.source = f.source;
  if (f.snapshotOf) meta.snapshot_of = f.snapshotOf;
  return meta;
}

export async function checkpoint(ctx: RepoContext, input: CheckpointInput): Promise<WrittenCommit> {
  const ref = refs.branch(checkBranchName(input.branch));
  const meta = await buildMeta(ctx, input.format, input.artifact, input);
  const ext = storageFormat(meta.format).ext;
  let wanted = input.parent === undefined ? undefined : await ctx.resolve(input.parent);
  for (let attempt = 0; ; attempt++) {
    const tip = ctx.refs.read(ref);
    if (wanted !== undefined && tip !== null && tip !== wanted) {
      if (!input.retry) throw movedError(input.branch, tip);
      wanted = tip;
    }
    const parent = wanted ?? tip;
    const [oid] = await ctx.engine.writeCommits([commitSpec(meta, input.artifact, ext, parent, ctx.maxBlobSize)]);
    try {
      ctx.refs.update(ref, oid, tip);
      return { oid, parent, meta };
    } catch (e) {
      if (!(e instanceof ConflictError) || !input.retry || attempt >= MAX_RETRIES) throw e;
      wanted = undefined;
    }
  }
}

function movedError(branch: string, tip: string) {
  return new ConflictError(`branch moved: ${branch} is now at ctx-${tip.slice(0, 12)}`, { hint: 'read the new tip and try again (--retry)' });
}

export interface ChainItem extends CommitFields {
  artifact: Uint8Array;
}

/**
 * Many commits in one batch of objects, then one ref update: a new branch (an import), or with
 * `onto` the commits extend the branch, which must still be at `onto` (compare-and-swap).
 */
export async function writeChain(
  ctx: RepoContext,
  branch: string,
  format: string,
  items: readonly ChainItem[],
  onProgress?: (done: number) => void,
  onto: string | null = null,
): Promise<WrittenCommit[]> {
  const ref = refs.branch(checkBranchName(branch));
  if (onto === null && ctx.refs.read(ref)) throw new AlreadyExistsError(`branch ${branch} already exists`, { hint: 'choose another with -b NAME' });
  const ext = storageFormat(format).ext;
  const metas: Meta[] = [];
  for (const item of items) {
    metas.push(await buildMeta(ctx, format, item.artifact, item));
    onProgress?.(metas.length);
  }
  const specs = metas.map((m, i) => commitSpec(m, items[i].artifact, ext, i === 0 ? onto : { index: i - 1 }, ctx.maxBlobSize));
  const oids = await ctx.engine.writeCommits(specs);
  ctx.refs.update(ref, oids[oids.length - 1], onto);
  return oids.map((oid, i) => ({ oid, parent: i === 0 ? onto : oids[i - 1], meta: metas[i] }));
}
