// Moving names: fork a branch at any commit, delete one, annotate a commit, move an agent's cursor.
import { AlreadyExistsError, NotFoundError, UsageError } from '../../errors/index.js';
import { canonicalJson } from '../../core/canonical-json.js';
import { fullId } from '../../core/ids.js';
import { appendNote } from '../../store/notes.js';
import { StoreDamage } from '../../store/damage.js';
import { checkBranchName, refs } from '../../store/refs.js';
import type { RepoContext } from '../repo/repo-context.js';
import { cursorBranch, type Cursor } from '../read/cursors.js';
import { screenFields, secretPolicy, type SecretPolicy } from './secrets.js';

export async function fork(ctx: RepoContext, spec: string, name?: string): Promise<{ branch: string; oid: string }> {
  const oid = await ctx.resolve(spec);
  const branch = checkBranchName(name ?? `fork/${oid.slice(0, 12)}`);
  if (ctx.refs.read(refs.branch(branch))) throw new AlreadyExistsError(`branch ${branch} already exists`);
  ctx.refs.checkCreatable(refs.branch(branch));
  ctx.refs.update(refs.branch(branch), oid, null);
  return { branch, oid };
}

/**
 * Delete a branch if it still points where it did. A damaged branch (its ref file holds garbage) is
 * deleted too: it points nowhere, and deleting it is how a user gets rid of it (`damaged` says what it held).
 */
export function deleteBranch(ctx: RepoContext, name: string): { branch: string; oid: string | null; damaged?: string } {
  const ref = refs.branch(checkBranchName(name));
  let oid: string | null;
  try {
    oid = ctx.refs.read(ref);
  } catch (e) {
    if (!(e instanceof StoreDamage) || e.subject !== ref) throw e;
    ctx.refs.deleteDamaged(ref);
    return { branch: name, oid: null, damaged: e.problem };
  }
  if (!oid) throw new NotFoundError(`no branch ${name}`);
  ctx.refs.delete(ref, oid);
  return { branch: name, oid };
}

export interface AnnotateInput {
  /** secret policy for this note; default: git config ctx.secrets, else redact */
  secrets?: SecretPolicy;
  summary?: string;
  labels?: string[];
  /** true: compaction keeps the commit's entries (recorded here, honoured by compaction) */
  pinned?: boolean;
  principal?: string;
}

/**
 * Appends one JSON-lines record to the commit's note; returns the record. The summary and labels
 * go through the secret policy as a checkpoint's metadata does (`redactions` in the record).
 */
export async function annotate(
  ctx: RepoContext,
  spec: string,
  input: AnnotateInput,
): Promise<{ oid: string; record: Record<string, unknown>; warnings?: string[] }> {
  const oid = await ctx.resolve(spec);
  const labels = input.labels ?? [];
  const text = screenFields(
    { summary: input.summary, principal: input.principal ?? ctx.defaults.principal, ...Object.fromEntries(labels.map((l, i) => [`label ${i + 1}`, l])) },
    secretPolicy(ctx.config, input.secrets),
    (field) => `the ${field.replace(/^label /, 'label #')}`,
  );
  const fields: Record<string, unknown> = {};
  if (input.summary !== undefined) fields.summary = text.fields.summary;
  if (labels.length) fields.labels = labels.map((_, i) => text.fields[`label ${i + 1}`]);
  if (input.pinned !== undefined) fields.pinned = input.pinned;
  if (Object.keys(fields).length === 0) throw new UsageError('nothing to annotate: give --summary, --label, --pin or --unpin');
  const record = await appendRecord(ctx, oid, text.fields.principal!, { ...fields, ...(text.redactions ? { redactions: text.redactions } : {}) });
  return { oid, record, ...(text.warnings.length ? { warnings: text.warnings } : {}) };
}

/** One annotation record (`v`, `at`, `by`, then `fields`) appended to the commit's note. */
export async function appendRecord(ctx: RepoContext, oid: string, principal: string, fields: Record<string, unknown>): Promise<Record<string, unknown>> {
  const record = { v: 1, at: ctx.now().toISOString(), by: principal, ...fields };
  await appendNote(ctx.engine, ctx.refs, oid, `${canonicalJson(record)}\n`, ctx.signature(principal));
  return record;
}

function checkAgent(agent: string): string {
  if (agent.trim() === '' || /[\n\r\0]/.test(agent)) throw new UsageError(`bad agent name ${JSON.stringify(agent)}: empty or more than one line`);
  return agent;
}

/** `agent` has now seen the branch up to `spec` (default: its tip); `spec` must be on the branch's first-parent chain. */
export async function setCursor(ctx: RepoContext, branch: string, agent: string, spec?: string, principal?: string): Promise<Cursor> {
  checkBranchName(branch);
  checkAgent(agent);
  const tip = await ctx.resolve(branch);
  const oid = spec === undefined ? tip : await ctx.resolve(spec);
  if (oid !== tip && !(await ctx.firstParents(tip)).includes(oid)) throw new UsageError(`${fullId(oid)} is not on branch ${branch}`);
  const key = cursorBranch(ctx, branch);
  const record = await appendRecord(ctx, oid, principal ?? ctx.defaults.principal, { cursor: { agent, branch: key } });
  return { branch: key, agent, id: fullId(oid), at: record.at as string };
}
