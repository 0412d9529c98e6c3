// api/state: structured state (namespaces under a write policy, schemas, migrations, verify, the library handle). Imports api/write, api/read and api/repo.
// Structured state (DESIGN.md §8): `ctx state init|set|get`, `ctx policy`, `ctx diff`, `ctx audit`,
// `ctx stats`, `ctx migrate`. Every write is checked against the policy, the schema and the limits
// in force at the branch's tip, then written as one commit (state-store.ts).
import { AlreadyExistsError, BadInputError, ConflictError, NotFoundError, StateRefusedError, UsageError } from '../../errors/index.js';
import { fullId } from '../../core/ids.js';
import { canonicalJson } from '../../core/canonical-json.js';
import { isoMs } from '../../core/meta.js';
import { arrayOverLimit, type StateLimits } from '../../core/state/limits.js';
import { DEFAULT_POLICY, describeGrant, isAdmin, mayWrite, type Policy } from '../../core/state/policy.js';
import { KEY, NAMESPACE, POLICY_KEY, type KeyDiff, type StateRecord } from '../../core/state/record.js';
import { checkSchemaDoc, keyViolation, knownSchema, parseSchemaId, stateViolation, type SchemaDoc, type StateObject } from '../../core/state/schema.js';
import { emptyDiff, encodeNamespace, externalize, isRef, keyDiff, refKeyPath, refsIn, type Json, type Namespace } from '../../core/state/values.js';
import { readEntries } from '../../store/context-commits.js';
import { readTipMeta } from '../read/context-reader.js';
import type { RepoContext } from '../repo/repo-context.js';
import { branchTip, commitState, loadState, namespaceOf, resolveValue, stateAt, stateFiles, stateLimits, type LoadedState, type StateChange } from './store.js';
import { MAX_RETRIES, type WrittenCommit } from '../write/write.js';
import { screenValue, secretPolicy } from '../write/secrets.js';

export interface StateWrite {
  branch: string;
  /** null: the value was already there, nothing written */
  commit: WrittenCommit | null;
  record: StateRecord;
  /** for people: secrets stored as they are under the `warn` policy */
  warnings?: string[];
}

/** `namespace` or `namespace.key` → its parts, names checked. */
export function parseStatePath(path: string): { ns: string; key?: string } {
  const dot = path.indexOf('.');
  const ns = dot < 0 ? path : path.slice(0, dot);
  const key = dot < 0 ? undefined : path.slice(dot + 1);
  if (!NAMESPACE.test(ns) || (key !== undefined && !KEY.test(key))) throw new UsageError(`not a state key: ${JSON.stringify(path)} (NAMESPACE.KEY, e.g. reasoning.intents)`);
  if (key === '__proto__') throw new UsageError(`not a state key: ${JSON.stringify(path)} (__proto__ names a JavaScript object's prototype; choose another key)`);
  return { ns, key };
}

function schemaFor(schema: string | object): SchemaDoc {
  if (typeof schema !== 'string') return checkSchemaDoc(schema, 'the schema');
  const k = knownSchema(schema);
  if (!k) throw new NotFoundError(`unknown state schema ${schema} (shipped: reasoning-v1; or give a JSON Schema file)`);
  return k.schema;
}

async function write(ctx: RepoContext, branch: string, tip: string | null, base: LoadedState | null, change: StateChange, record: StateRecord, format?: string, redactions?: Record<string, number>): Promise<StateWrite> {
  const files = stateFiles(base, change, stateLimits(ctx));
  return { branch, commit: await commitState(ctx, branch, tip, files, record, { format, redactions }), record };
}

/** State of `branch`'s tip for a write: it must exist and hold state. */
async function writable(ctx: RepoContext, branch: string): Promise<{ tip: string; st: LoadedState }> {
  const tip = branchTip(ctx, branch);
  if (tip === null) throw new NotFoundError(`no branch ${branch}`, { hint: `ctx state init ${branch}` });
  const st = await loadState(ctx, tip);
  if (!st) throw new NotFoundError(`${branch} has no structured state: ctx state init ${branch} adds it`, { hint: `ctx state init ${branch}` });
  return { tip, st };
}

const keysOf = (diff: Record<string, KeyDiff>) =>
  Object.entries(diff)
    .flatMap(([ns, d]) => [...d.added, ...d.removed, ...d.changed].map((k) => `${ns}.${k}`))
    .sort();

/**
 * `ctx state init`: the schema's namespaces (metadata with created_at and session_id), and the
 * default policy; a new branch (in `format`) or a commit on top of an existing one without state.
 */
export async function initState(ctx: RepoContext, branch: string, opts: { schema?: string | object; agent?: string; format?: string; policy?: Policy } = {}): Promise<StateWrite> {
  const schema = schemaFor(opts.schema ?? 'reasoning-v1');
  const policy = opts.policy ?? DEFAULT_POLICY;
  const agent = opts.agent ?? 'orchestrator';
  if (!isAdmin(policy, agent)) throw new StateRefusedError(`${agent} may not init the state of ${branch}: only an agent with * in the policy may`);
  const tip = branchTip(ctx, branch);
  if (tip !== null && (await loadState(ctx, tip, false))) throw new AlreadyExistsError(`${branch} already has structured state`, { hint: `ctx state get ${branch}` });
  const namespaces = new Map<string, Namespace>(Object.keys(schema.properties).map((ns) => [ns, {}]));
  if (namespaces.has('metadata')) {
    const session = tip === null ? ctx.defaults.session : (await readTipMeta(ctx, tip)).session_id;
    namespaces.set('metadata', { created_at: isoMs(ctx.now()), ...(session ? { session_id: session } : {}) });
  }
  const diff = Object.fromEntries([...namespaces].map(([ns, v]) => [ns, keyDiff({}, v)] as const).filter(([, d]) => !emptyDiff(d)));
  const record: StateRecord = { op: 'init', agent, keys: keysOf(diff), diff };
  return write(ctx, branch, tip, null, { namespaces, policy, schema, blobs: new Map() }, record, opts.format);
}

/** A refusal when the policy at the tip does not let `agent` write `ns.key`. */
function checkAllowed(st: LoadedState, branch: string, agent: string, ns: string, key: string): void {
  if (!mayWrite(st.policy, agent, ns, key))
    throw new StateRefusedError(`${agent} may not write ${ns}.${key} on ${branch}: namespace ${ns} is not in its policy (it may write ${describeGrant(st.policy, agent)})`);
}

/** The value as stored (large parts externalized), refused past the array limit. */
function stored(ns: string, key: string, value: Json, limits: StateLimits) {
  const long = arrayOverLimit(value, limits.maxArrayItems, `$.${ns}.${key}`);
  if (long) throw new StateRefusedError(`${long.path} has ${long.items} items, over the limit of ${limits.maxArrayItems} (ctx.state.maxArrayItems)`);
  return externalize(key, value, limits);
}

/** `value` as `ns.key` is stored, once the policy, the schema and the limits at the tip allow it (StateRefusedError). */
async function checkedValue(st: LoadedState, branch: string, agent: string, ns: string, key: string, value: Json, limits: StateLimits) {
  checkAllowed(st, branch, agent, ns, key);
  const ref = refKeyPath(value, `$.${ns}.${key}`);
  if (ref) throw new StateRefusedError(`${ref}: a $ref key is reserved for externalized values`);
  const violation = await keyViolation(st.schema, ns, key, value);
  if (violation) throw new StateRefusedError(`schema ${st.schema.$id}: ${violation}`);
  return stored(ns, key, value, limits);
}

/**
 * `write` again, from a fresh read of the tip, each time the branch moved under it (another agent
 * wrote first) when `retry` is set: that write is kept and this one checked and applied on top.
 */
async function onTip<T>(retry: boolean | undefined, write: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await write();
    } catch (e) {
      if (!retry || !(e instanceof ConflictError) || attempt >= MAX_RETRIES) throw e;
    }
  }
}

/** `ctx state set BRANCH NS.KEY VALUE --as AGENT [--retry]` (`value` undefined: delete the key). */
export function setState(ctx: RepoContext, branch: string, path: string, value: Json | undefined, agent: string, opts: { retry?: boolean } = {}): Promise<StateWrite> {
  return onTip(opts.retry, () => setOnce(ctx, branch, path, value, agent));
}

async function setOnce(ctx: RepoContext, branch: string, path: string, value: Json | undefined, agent: string): Promise<StateWrite> {
  const { ns, key } = parseStatePath(path);
  if (key === undefined) throw new UsageError(`state set takes NAMESPACE.KEY, not a whole namespace: ${path}`);
  const { tip, st } = await writable(ctx, branch);
  const before = namespaceOf(st, ns);
  const after = { ...before };
  let blobs = new Map<string, Uint8Array>();
  // the secret policy first, as for artifacts: a secret is never hashed, stored or pushed
  const screened = value === undefined ? undefined : screenValue(value, secretPolicy(ctx.config), `the value of ${path}`);
  if (screened) value = screened.value;
  if (value === undefined) {
    checkAllowed(st, branch, agent, ns, key);
    delete after[key];
  } else {
    const stored = await checkedValue(st, branch, agent, ns, key, value, stateLimits(ctx));
    after[key] = stored.value;
    blobs = stored.blobs;
  }
  const d = keyDiff(before, after);
  const record: StateRecord = { op: value === undefined ? 'delete' : 'set', agent, keys: [path], diff: emptyDiff(d) ? {} : { [ns]: d } };
  const warnings = screened?.warnings.length ? { warnings: screened.warnings } : {};
  if (emptyDiff(d)) return { branch, commit: null, record, ...warnings };
  return { ...(await write(ctx, branch, tip, st, { namespaces: new Map([[ns, after]]), blobs }, record, undefined, screened?.redactions)), ...warnings };
}

export interface StateValue {
  /** `ctx-<40 hex>` of the commit read */
  id: string;
  /** what was asked: `reasoning.intents`, `reasoning`, or null for the whole state */
  key: string | null;
  value: Json;
}

/** `ctx state get SPEC [NS[.KEY]]`: externalized values resolved. */
export async function getState(ctx: RepoContext, spec: string, path?: string): Promise<StateValue> {
  const st = await stateAt(ctx, spec);
  let value: Json;
  if (path === undefined) value = Object.fromEntries([...st.texts.keys()].sort().map((ns) => [ns, namespaceOf(st, ns)]));
  else {
    const { ns, key } = parseStatePath(path);
    if (!Object.hasOwn(st.schema.properties, ns) && !st.texts.has(ns)) throw new NotFoundError(`${spec}: no namespace ${ns} (${[...st.texts.keys()].join(', ')})`);
    const n = namespaceOf(st, ns);
    if (key !== undefined && !Object.hasOwn(n, key)) throw new NotFoundError(`${spec}: ${path} is not set`);
    value = key === undefined ? n : n[key];
  }
  return { id: fullId(st.commit), key: path ?? null, value: await resolveValue(ctx, st, value) };
}

/** `ctx policy set BRANCH AGENT NS,NS [--retry]` (`namespaces` null: the agent is removed), by an agent with `*`. */
export function setPolicy(ctx: RepoContext, branch: string, agent: string, namespaces: string[] | null, by: string, opts: { retry?: boolean } = {}): Promise<StateWrite> {
  if (!/^[A-Za-z0-9_][A-Za-z0-9_.-]*$/.test(agent) || agent === '__proto__') throw new UsageError(`not an agent name: ${JSON.stringify(agent)}`);
  return onTip(opts.retry, () => policyOnce(ctx, branch, agent, namespaces, by));
}

async function policyOnce(ctx: RepoContext, branch: string, agent: string, namespaces: string[] | null, by: string): Promise<StateWrite> {
  const { tip, st } = await writable(ctx, branch);
  if (!isAdmin(st.policy, by)) throw new StateRefusedError(`${by} may not change the policy of ${branch}: only an agent with * may (${Object.keys(st.policy).filter((a) => isAdmin(st.policy, a)).join(', ') || 'none'})`);
  for (const ns of namespaces ?? []) if (ns !== '*' && !Object.hasOwn(st.schema.properties, ns)) throw new UsageError(`no namespace ${ns} in ${st.schema.$id} (${Object.keys(st.schema.properties).join(', ')}, or *)`);
  const policy = { ...st.policy };
  if (namespaces === null) delete policy[agent];
  else policy[agent] = [...new Set(namespaces)];
  const d = keyDiff(st.policy, policy);
  const record: StateRecord = { op: 'policy', agent: by, keys: [`${POLICY_KEY}.${agent}`], diff: emptyDiff(d) ? {} : { [POLICY_KEY]: d } };
  if (emptyDiff(d)) return { branch, commit: null, record };
  return write(ctx, branch, tip, st, { namespaces: new Map(), policy, blobs: new Map() }, record);
}

export async function showPolicy(ctx: RepoContext, spec: string): Promise<{ id: string; agents: Policy }> {
  const st = await stateAt(ctx, spec);
  return { id: fullId(st.commit), agents: st.policy };
}

export interface StateDiff {
  from: string;
  to: string;
  /** namespaces (and `.policy`) that differ, each with its keys added, removed and changed */
  namespaces: Record<string, KeyDiff>;
}

/** The per-namespace diff between two states: what `diff` and `verify` compare. */
export function diffLoaded(a: LoadedState | null, b: LoadedState | null): Record<string, KeyDiff> {
  const out: Record<string, KeyDiff> = {};
  const names = new Set([...(a?.texts.keys() ?? []), ...(b?.texts.keys() ?? [])]);
  for (const ns of [...names].sort()) {
    if (a?.texts.get(ns) === b?.texts.get(ns)) continue;
    const d = keyDiff(a?.texts.has(ns) ? namespaceOf(a, ns) : undefined, b?.texts.has(ns) ? namespaceOf(b, ns) : undefined);
    if (!emptyDiff(d)) out[ns] = d;
  }
  const p = keyDiff(a?.policy, b?.policy);
  if (!emptyDiff(p)) out[POLICY_KEY] = p;
  return out;
}

/** `ctx diff A B`: per namespace, the keys added, removed and changed from A to B. */
export async function diffState(ctx: RepoContext, a: string, b: string): Promise<StateDiff> {
  const [sa, sb] = [await stateAt(ctx, a), await stateAt(ctx, b)];
  return { from: fullId(sa.commit), to: fullId(sb.commit), namespaces: diffLoaded(sa, sb) };
}

export interface AuditEntry {
  id: string;
  created_at: string;
  principal: string;
  state: StateRecord;
}

/** `ctx audit BRANCH`: every state write on the chain, newest first (from meta.json: no state is read). */
export async function auditState(ctx: RepoContext, spec: string): Promise<AuditEntry[]> {
  const links = await ctx.engine.chain(await ctx.resolve(spec));
  const entries = await readEntries(ctx.engine, links);
  return entries.filter((e) => e.meta.state).map((e) => ({ id: fullId(e.oid), created_at: e.meta.created_at, principal: e.meta.principal, state: e.meta.state! }));
}

export interface StateStats {
  id: string;
  schema: string;
  /** bytes of every namespace blob and externalized value */
  total: number;
  /** namespace → bytes of its blob */
  namespaces: Record<string, number>;
  /** `namespace.key` → items, for every top-level array */
  arrays: Record<string, number>;
  externalized: { count: number; bytes: number };
  limits: StateLimits;
}

/** `ctx stats SPEC`: sizes per namespace, array counts, externalized values, and the limits. */
export async function stateStats(ctx: RepoContext, spec: string): Promise<StateStats> {
  const st = await stateAt(ctx, spec);
  const namespaces: Record<string, number> = {};
  const arrays: Record<string, number> = {};
  const refs = new Map<string, number>();
  for (const ns of [...st.texts.keys()].sort()) {
    const text = st.texts.get(ns)!;
    namespaces[ns] = Buffer.byteLength(text);
    for (const [h, n] of refsIn(text)) refs.set(h, n);
    // the namespace's externalized values read in one pass, for the arrays among them
    const n = namespaceOf(st, ns);
    const full = (await resolveValue(ctx, st, Object.fromEntries(Object.entries(n).filter(([, v]) => isRef(v))))) as Namespace;
    for (const [k, v] of Object.entries(n)) {
      const value = isRef(v) ? full[k] : v;
      if (Array.isArray(value)) arrays[`${ns}.${k}`] = value.length;
    }
  }
  const ext = [...refs.values()].reduce((a, n) => a + n, 0);
  const total = Object.values(namespaces).reduce((a, n) => a + n, 0) + ext;
  return { id: fullId(st.commit), schema: st.schema.$id, total, namespaces, arrays, externalized: { count: refs.size, bytes: ext }, limits: stateLimits(ctx) };
}

/** `ctx migrate BRANCH --to N`: version by version through registered migrations, as one new commit. */
export async function migrateState(ctx: RepoContext, branch: string, to: number, agent: string): Promise<StateWrite> {
  const { tip, st } = await writable(ctx, branch);
  const from = parseSchemaId(st.schema.$id)!;
  if (!Number.isSafeInteger(to) || to <= from.version) throw new UsageError(`${branch} is at ${st.schema.$id}: --to must be a later version than ${from.version}`);
  if (!isAdmin(st.policy, agent)) throw new StateRefusedError(`${agent} may not migrate the state of ${branch}: only an agent with * may`);
  let state: StateObject = {};
  for (const ns of st.texts.keys()) state[ns] = (await resolveValue(ctx, st, namespaceOf(st, ns))) as Namespace;
  let schema = st.schema;
  for (let v = from.version + 1; v <= to; v++) {
    const next = knownSchema(`${from.name}-v${v}`);
    if (!next?.migrate) throw new NotFoundError(`no migration to ${from.name}-v${v} is known (register it: ctx migrate --with FILE, or registerStateSchema)`);
    state = JSON.parse(canonicalJson(next.migrate(structuredClone(state)))) as StateObject;
    schema = next.schema;
  }
  const violation = await stateViolation(schema, state);
  if (violation) throw new BadInputError(`the migration to ${schema.$id} gives a state its schema refuses: ${violation}`);
  const limits = stateLimits(ctx);
  const namespaces = new Map<string, Namespace>();
  const blobs = new Map<string, Uint8Array>();
  for (const [ns, n] of Object.entries(state)) {
    const out: [string, Json][] = [];
    for (const [k, v] of Object.entries(n)) {
      const e = await stored(ns, k, v, limits);
      out.push([k, e.value]);
      e.blobs.forEach((b, h) => blobs.set(h, b));
    }
    // built from entries: a key a migration named __proto__ is kept as a key, not made the prototype
    namespaces.set(ns, Object.fromEntries(out));
  }
  const next: LoadedState = { ...st, texts: new Map([...namespaces].map(([ns, n]) => [ns, encodeNamespace(n)])) };
  const diff = diffLoaded(st, next);
  const removed = [...st.texts.keys()].filter((ns) => !namespaces.has(ns));
  if (removed.length) throw new BadInputError(`the migration to ${schema.$id} drops namespaces ${removed.join(', ')}: a migration keeps every namespace (empty it instead)`);
  const record: StateRecord = { op: 'migrate', agent, keys: keysOf(diff), diff, schema: { from: st.schema.$id, to: schema.$id } };
  return write(ctx, branch, tip, st, { namespaces, schema, blobs }, record);
}
