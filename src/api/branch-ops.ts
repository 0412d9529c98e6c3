// Moving names: fork a branch at any commit, delete one, annotate a commit.
import { AlreadyExistsError, NotFoundError, UsageError } from '../errors/index.js';
import { canonicalJson } from '../core/canonical-json.js';
import { appendNote } from '../store/notes.js';
import { checkBranchName, refs } from '../store/refs.js';
import type { RepoContext } from './repo-context.js';

export async function fork(ctx: RepoContext, spec: string, name?: string): Promise<{ branch: string; oid: string }> {
  const oid = await ctx.resolve(spec);
  const branch = checkBranchName(name ?? `fork/${oid.slice(0, 12)}`);
  if (ctx.refs.read(refs.branch(branch))) throw new AlreadyExistsError(`branch ${branch} already exists`);
  ctx.refs.checkCreatable(refs.branch(branch));
  ctx.refs.update(refs.branch(branch), oid, null);
  return { branch, oid };
}

export function deleteBranch(ctx: RepoContext, name: string): { branch: string; oid: string } {
  const ref = refs.branch(checkBranchName(name));
  const oid = ctx.refs.read(ref);
  if (!oid) throw new NotFoundError(`no branch ${name}`);
  ctx.refs.delete(ref, oid);
  return { branch: name, oid };
}

export interface AnnotateInput {
  summary?: string;
  labels?: string[];
  /** true: compaction keeps the commit's entries (recorded here, honoured by compaction) */
  pinned?: boolean;
  principal?: string;
}

/** Appends one JSON-lines record to the commit's note; returns the record. */
export async function annotate(ctx: RepoContext, spec: string, input: AnnotateInput): Promise<{ oid: string; record: Record<string, unknown> }> {
  const oid = await ctx.resolve(spec);
  const fields: Record<string, unknown> = {};
  if (input.summary !== undefined) fields.summary = input.summary;
  if (input.labels?.length) fields.labels = input.labels;
  if (input.pinned !== undefined) fields.pinned = input.pinned;
  if (Object.keys(fields).length === 0) throw new UsageError('nothing to annotate: give --summary, --label, --pin or --unpin');
  const principal = input.principal ?? ctx.defaults.principal;
  const record = { v: 1, at: ctx.now().toISOString(), by: principal, ...fields };
  await appendNote(ctx.engine, ctx.refs, oid, `${canonicalJson(record)}\n`, ctx.signature(principal));
  return { oid, record };
}
