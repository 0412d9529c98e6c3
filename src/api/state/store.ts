// Reading and writing a commit's structured state (`state/` in its tree). A state write is a
// context commit like any other (checkpoint `explicit`, no messages: an empty delta of the branch's
// format), whose tree holds the new `state/`: namespaces that did not change keep their blob ids.
import { IntegrityError, NotFoundError, StateRefusedError } from '../../errors/index.js';
import { shortId } from '../../core/ids.js';
import { encodePolicy, parsePolicy, type Policy } from '../../core/state/policy.js';
import { BLOB_PREFIX, POLICY_FILE, SCHEMA_FILE, STATE_DIR, type StateRecord } from '../../core/state/record.js';
import { checkReadable, checkSchemaDoc, type SchemaDoc } from '../../core/state/schema.js';
import { canonicalJson } from '../../core/canonical-json.js';
import { limitsFrom, type StateLimits } from '../../core/state/limits.js';
import { encodeNamespace, refsIn, resolveRefs, type Json, type Namespace } from '../../core/state/values.js';
import { SESSION_FORMAT, storageFormat } from '../../formats/registry.js';
import type { TreeFile } from '../../store/engine.js';
import { parseTree } from '../../store/objects.js';
import { checkBranchName, refs } from '../../store/refs.js';
import { subtreeOf } from '../../store/subtree.js';
import { readTipMeta } from '../read/context-reader.js';
import { artifactOf } from '../read/read.js';
import type { RepoContext } from '../repo/repo-context.js';
import { checkpoint, type WrittenCommit } from '../write/write.js';

/** A commit's `state/`: its entries, policy, schema and every namespace's stored text. */
export interface LoadedState {
  commit: string;
  /** entry name → blob id */
  entries: Map<string, string>;
  schema: SchemaDoc;
  policy: Policy;
  /** namespace → its blob's text (canonical JSON, `$ref`s unresolved) */
  texts: Map<string, string>;
}

const NS_FILE = /^([a-z][a-z0-9_]*)\.json$/;
const dec = new TextDecoder();

async function readBlobs(ctx: RepoContext, commit: string, oids: readonly string[]): Promise<string[]> {
  const objs = await ctx.engine.readObjects(oids);
  return objs.map((o) => {
    if (!o || o.type !== 'blob') throw new IntegrityError(`${shortId(commit)}: a state blob is missing`);
    return dec.decode(o.data);
  });
}

/** The state at commit `oid`, or null when it has none; `check`: refuse a schema newer than this build knows. */
export async function loadState(ctx: RepoContext, oid: string, check = true): Promise<LoadedState | null> {
  return stateFromTree(ctx, oid, await subtreeOf(ctx.gitdir, ctx.engine, oid, STATE_DIR), check);
}

/** loadState of a commit whose `state/` tree id is known (null: it has none). */
export async function stateFromTree(ctx: RepoContext, oid: string, tree: string | null, check = true): Promise<LoadedState | null> {
  if (tree === null) return null;
  const t = await ctx.engine.readObject(tree);
  if (!t || t.type !== 'tree') throw new IntegrityError(`${shortId(oid)}: its state tree is missing`);
  const entries = new Map(parseTree(t.data).map((e) => [e.name, e.oid]));
  const names = [...entries.keys()].filter((n) => NS_FILE.test(n));
  const policyOid = entries.get(POLICY_FILE);
  const schemaOid = entries.get(SCHEMA_FILE);
  if (!policyOid || !schemaOid) throw new IntegrityError(`${shortId(oid)}: state/ has no ${policyOid ? SCHEMA_FILE : POLICY_FILE}`);
  const [policyText, schemaText, ...texts] = await readBlobs(ctx, oid, [policyOid, schemaOid, ...names.map((n) => entries.get(n)!)]);
  const policy = parsePolicy(policyText);
  if (!policy) throw new IntegrityError(`${shortId(oid)}: state/${POLICY_FILE} is not a policy`);
  let schema: SchemaDoc;
  try {
    schema = checkSchemaDoc(JSON.parse(schemaText), `state/${SCHEMA_FILE}`);
  } catch (e) {
    throw new IntegrityError(`${shortId(oid)}: state/${SCHEMA_FILE} is not a state schema (${(e as Error).message})`);
  }
  if (check) checkReadable(schema, shortId(oid));
  return { commit: oid, entries, schema, policy, texts: new Map(names.map((n, i) => [NS_FILE.exec(n)![1], texts[i]])) };
}

/** The state at a commit spec (`design-room~5`); NotFoundError when it has none. */
export async function stateAt(ctx: RepoContext, spec: string): Promise<LoadedState> {
  const oid = await ctx.resolve(spec);
  const st = await loadState(ctx, oid);
  if (!st) throw new NotFoundError(`${spec} has no structured state: ctx state init ${spec.replace(/~\d+$/, '')} adds it`, { hint: `ctx state init ${spec.replace(/~\d+$/, '')}` });
  return st;
}

export const namespaceOf = (st: LoadedState, ns: string): Namespace => JSON.parse(st.texts.get(ns) ?? '{}') as Namespace;

/** `value` with its `$ref`s read from the state's blobs. */
export async function resolveValue(ctx: RepoContext, st: LoadedState, value: Json): Promise<Json> {
  const pending = [...refsIn(canonicalJson(value)).keys()];
  if (pending.length === 0) return value;
  const blobs = new Map<string, Json>();
  // externalized values may themselves hold refs (an artifact's content inside an externalized list)
  while (pending.length) {
    // two blobs of one batch may name the same ref: it is read once
    const batch = [...new Set(pending.splice(0))].filter((h) => !blobs.has(h));
    const oids = batch.map((h) => {
      const o = st.entries.get(BLOB_PREFIX + h);
      if (!o) throw new IntegrityError(`${shortId(st.commit)}: externalized value blake3:${h.slice(0, 12)}… is missing`);
      return o;
    });
    const texts = await readBlobs(ctx, st.commit, oids);
    batch.forEach((h, i) => {
      blobs.set(h, JSON.parse(texts[i]) as Json);
      pending.push(...[...refsIn(texts[i]).keys()].filter((r) => !blobs.has(r)));
    });
  }
  return resolveRefs(value, (h) => blobs.get(h)!);
}

/** What a state write changes: namespaces (whole, as stored), the policy, the schema; new blobs by BLAKE3 hex. */
export interface StateChange {
  namespaces: Map<string, Namespace>;
  policy?: Policy;
  schema?: SchemaDoc;
  blobs: Map<string, Uint8Array>;
}

export const stateLimits = (ctx: RepoContext): StateLimits => limitsFrom(ctx.config);

/**
 * The `state/` entries after `change` on top of `base`, with the size limits checked: a changed
 * namespace over maxNamespace, or everything over maxTotal, is refused. Externalized blobs no
 * namespace refers to any more are left out.
 */
export function stateFiles(base: LoadedState | null, change: StateChange, limits: StateLimits): TreeFile[] {
  const files: TreeFile[] = [];
  const refs = new Map<string, number>();
  let total = 0;
  const names = new Set([...(base?.texts.keys() ?? []), ...change.namespaces.keys()]);
  for (const ns of [...names].sort()) {
    const changed = change.namespaces.get(ns);
    const text = changed ? encodeNamespace(changed) : base!.texts.get(ns)!;
    const size = Buffer.byteLength(text);
    if (changed && size > limits.maxNamespace) throw new StateRefusedError(`namespace ${ns} would be ${size} bytes, over its limit of ${limits.maxNamespace} (ctx.state.maxNamespace)`);
    total += size;
    for (const [h, n] of refsIn(text)) refs.set(h, n);
    files.push(changed ? { path: `${STATE_DIR}/${ns}.json`, data: Buffer.from(text) } : { path: `${STATE_DIR}/${ns}.json`, oid: base!.entries.get(`${ns}.json`)! });
  }
  for (const [h, n] of refs) {
    total += n;
    const data = change.blobs.get(h);
    const oid = base?.entries.get(BLOB_PREFIX + h);
    if (data) files.push({ path: `${STATE_DIR}/${BLOB_PREFIX}${h}`, data });
    else if (oid) files.push({ path: `${STATE_DIR}/${BLOB_PREFIX}${h}`, oid });
    else throw new IntegrityError(`externalized value blake3:${h.slice(0, 12)}… is missing`);
  }
  if (total > limits.maxTotal) throw new StateRefusedError(`the state would be ${total} bytes, over its limit of ${limits.maxTotal} (ctx.state.maxTotal)`);
  const policy = change.policy ? { data: Buffer.from(encodePolicy(change.policy)) } : { oid: base!.entries.get(POLICY_FILE)! };
  const schema = change.schema ? { data: Buffer.from(`${canonicalJson(change.schema)}\n`) } : { oid: base!.entries.get(SCHEMA_FILE)! };
  files.push({ path: `${STATE_DIR}/${POLICY_FILE}`, ...policy }, { path: `${STATE_DIR}/${SCHEMA_FILE}`, ...schema });
  return files;
}

/** The artifact of a commit with no messages: nothing for an appending format, no entries for a merging one, the tip's whole context for a format whose every artifact is whole. */
async function emptyArtifact(ctx: RepoContext, format: string, tip: string | null): Promise<Uint8Array> {
  const f = storageFormat(format);
  if (f.concatRule === 'append') return new Uint8Array();
  if (f.concatRule === 'merge') return f.encode ? f.encode([]) : f.concat([]);
  return tip === null ? f.concat([]) : artifactOf(ctx, tip);
}

/** The branch's tip, or null for a branch that does not exist yet. */
export function branchTip(ctx: RepoContext, branch: string): string | null {
  return ctx.refs.read(refs.branch(checkBranchName(branch)));
}

/** Writes a state commit on `branch` at `tip` (null: a new branch in `format`); the branch must still be at `tip`. */
export async function commitState(
  ctx: RepoContext,
  branch: string,
  tip: string | null,
  files: TreeFile[],
  record: StateRecord,
  opts: { format?: string; redactions?: Record<string, number> } = {},
): Promise<WrittenCommit> {
  const tipMeta = tip === null ? null : await readTipMeta(ctx, tip);
  const format = tipMeta?.format ?? opts.format ?? SESSION_FORMAT;
  const what = record.op === 'policy' ? 'policy' : record.keys.length === 1 ? record.keys[0] : `${record.keys.length} keys`;
  return checkpoint(ctx, {
    branch,
    format,
    artifact: await emptyArtifact(ctx, format, tip),
    ...(tip === null ? {} : { parent: tip }),
    type: 'delta',
    trigger: 'explicit',
    template: tipMeta?.template,
    session: tipMeta?.session_id,
    summary: `state ${record.op}: ${what} by ${record.agent}`,
    state: record,
    redactions: opts.redactions,
  }, files);
}
