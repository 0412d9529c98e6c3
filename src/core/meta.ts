// meta.json of a context commit (DESIGN.md §3) and the git commit built around it.
import { canonicalJson } from './canonical-json.js';

export const META_VERSION = 1;
export const COMMIT_TYPES = ['delta', 'compaction', 'snapshot'] as const;
export const TRIGGERS = ['turn_boundary', 'tool_call', 'compaction', 'session_end', 'explicit', 'import'] as const;
export type CommitType = (typeof COMMIT_TYPES)[number];
export type Trigger = (typeof TRIGGERS)[number];

/** what a structured-state write did (meta.json `state.op`) */
export const STATE_OPS = ['init', 'set', 'delete', 'policy', 'migrate'] as const;
export type StateOp = (typeof STATE_OPS)[number];

/** Top-level keys of one namespace (or agents of the policy) that a write added, removed or changed. */
export interface KeyDiff {
  added: string[];
  removed: string[];
  changed: string[];
}

/** meta.json `state`: who wrote what, and the diff per namespace (`.policy` for the policy). */
export interface StateRecord {
  op: StateOp;
  agent: string;
  /** `namespace.key` written, sorted (`.policy.<agent>` for a policy change) */
  keys: string[];
  diff: Record<string, KeyDiff>;
  /** a migration: the schema ids before and after */
  schema?: { from: string; to: string };
}

export interface Meta {
  v: number;
  type: CommitType;
  format: string;
  artifact: string;
  artifact_size: number;
  template: string;
  principal: string;
  machine: string;
  session_id: string;
  checkpoint: Trigger;
  ticket_id?: string;
  thread_id?: string;
  /** which agent wrote the commit's entries (several agents in one conversation) */
  author?: string;
  summary: string;
  message_count: number;
  token_count: number;
  created_at: string;
  source?: Record<string, unknown>;
  snapshot_of?: { stop: string; commit: string };
  /** secrets replaced before hashing: rule id → count (never the secret) */
  redactions?: Record<string, number>;
  /** a structured-state write: agent, keys written, diff per namespace (only on such commits) */
  state?: StateRecord;
}

/** The artifact's entry name in the commit tree: `delta.jsonl`, `summary.cbor`, … */
export function artifactName(type: CommitType, ext: string): string {
  return `${type === 'compaction' ? 'summary' : type}.${ext}`;
}

export function encodeMeta(meta: Meta): string {
  return `${canonicalJson(meta)}\n`;
}

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const STRING_FIELDS = ['format', 'template', 'principal', 'machine', 'session_id', 'summary', 'created_at'] as const;

/** Every problem with a parsed meta.json, as short phrases; empty when it is valid. */
export function metaProblems(m: unknown): string[] {
  if (m === null || typeof m !== 'object' || Array.isArray(m)) return ['meta.json is not an object'];
  const o = m as Record<string, unknown>;
  const p: string[] = [];
  if (o.v !== META_VERSION) p.push(`unknown meta version ${JSON.stringify(o.v)}`);
  if (!COMMIT_TYPES.includes(o.type as CommitType)) p.push(`bad type ${JSON.stringify(o.type)}`);
  if (!TRIGGERS.includes(o.checkpoint as Trigger)) p.push(`bad checkpoint ${JSON.stringify(o.checkpoint)}`);
  for (const f of STRING_FIELDS) if (typeof o[f] !== 'string') p.push(`${f} is not a string`);
  for (const f of ['artifact_size', 'message_count', 'token_count'])
    if (!Number.isSafeInteger(o[f]) || (o[f] as number) < 0) p.push(`${f} is not a whole number`);
  if (typeof o.artifact !== 'string' || !/^blake3:[0-9a-f]{64}$/.test(o.artifact)) p.push('artifact is not blake3:<64 hex>');
  if (typeof o.created_at === 'string' && !ISO_MS.test(o.created_at)) p.push('created_at is not ISO 8601 UTC with milliseconds');
  for (const f of ['ticket_id', 'thread_id', 'author']) if (o[f] !== undefined && typeof o[f] !== 'string') p.push(`${f} is not a string`);
  if (o.source !== undefined && (o.source === null || typeof o.source !== 'object')) p.push('source is not an object');
  if (o.snapshot_of !== undefined) {
    const s = o.snapshot_of as Record<string, unknown> | null;
    if (!s || typeof s.stop !== 'string' || typeof s.commit !== 'string') p.push('snapshot_of is not {stop, commit}');
  }
  if (o.redactions !== undefined) {
    const r = o.redactions as Record<string, unknown> | null;
    if (!r || typeof r !== 'object' || Array.isArray(r) || Object.values(r).some((n) => !Number.isSafeInteger(n) || (n as number) < 1))
      p.push('redactions is not {rule: count}');
  }
  if (o.state !== undefined) p.push(...stateRecordProblems(o.state));
  return p;
}

export interface Person {
  name: string;
  email: string;
  timestamp: number;
}

/** `<principal> <principal@machine>` at a time: the one rule for every commit ctx writes. */
export function person(principal: string, machine: string, at: Date | string): Person {
  const clean = (s: string) => s.replace(/[<>\n\r\0]/g, '').trim() || 'unknown';
  const name = clean(principal);
  return {
    name,
    email: `${name.replace(/\s+/g, '.')}@${clean(machine).replace(/\s+/g, '.')}`,
    timestamp: Math.floor(new Date(at).getTime() / 1000),
  };
}

/** author = committer of a context commit: its principal and machine at created_at. */
export function commitPerson(meta: Meta): Person {
  return person(meta.principal, meta.machine, meta.created_at);
}

/** Summary line (or `<type>: <n> messages`), blank line, trailers. */
export function commitMessage(meta: Meta): string {
  const subject = meta.summary.trim() === '' ? `${meta.type}: ${meta.message_count} messages` : meta.summary.trim();
  const oneLine = (s: string) => s.replace(/\s*\n\s*/g, ' ');
  return (
    `${subject}\n\n` +
    `Ctx-Type: ${meta.type}\n` +
    `Ctx-Format: ${oneLine(meta.format)}\n` +
    `Ctx-Session: ${oneLine(meta.session_id)}\n` +
    `Ctx-Template: ${oneLine(meta.template)}\n` +
    (isSyntheticCompaction(meta) ? `${SYNTHETIC_TRAILER}: ctx-compact\n` : '')
  );
}

/** Marks a compaction `ctx compact` wrote (meta.json source.kind `ctx-compact`): a root walk skips its artifact. */
export const SYNTHETIC_TRAILER = 'Ctx-Synthetic';

export function isSyntheticCompaction(meta: Pick<Meta, 'type' | 'source'>): boolean {
  return meta.type === 'compaction' && meta.source?.kind === 'ctx-compact';
}

/** The commit a ctx-made commit stands on when it holds no bytes of its own source: a compaction `ctx compact` wrote, or a snapshot. */
export function derivedFrom(meta: Pick<Meta, 'type' | 'source' | 'snapshot_of'>): string | null {
  if (isSyntheticCompaction(meta) && typeof meta.source?.of === 'string') return meta.source.of.replace(/^ctx-/, '');
  if (meta.type === 'snapshot' && typeof meta.snapshot_of?.commit === 'string') return meta.snapshot_of.commit.replace(/^ctx-/, '');
  return null;
}

/** The `Ctx-*` trailers of a commit message. */
export function parseTrailers(message: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of message.split('\n')) {
    const m = /^(Ctx-[A-Za-z]+): (.*)$/.exec(line);
    if (m) out[m[1]] = m[2];
  }
  return out;
}

/** ISO 8601 UTC with milliseconds, from a Date or a timestamp string as runtimes write them. */
export function isoMs(t: Date | string): string {
  const d = typeof t === 'string' ? new Date(t) : t;
  if (Number.isNaN(d.getTime())) throw new RangeError(`not a time: ${String(t)}`);
  return d.toISOString();
}

const strings = (x: unknown) => Array.isArray(x) && x.every((s) => typeof s === 'string');

/** Problems with a parsed meta.json `state`, as short phrases. */
function stateRecordProblems(s: unknown): string[] {
  if (s === null || typeof s !== 'object' || Array.isArray(s)) return ['state is not an object'];
  const o = s as Record<string, unknown>;
  const p: string[] = [];
  if (!STATE_OPS.includes(o.op as StateOp)) p.push(`state.op ${JSON.stringify(o.op)} is not one of ${STATE_OPS.join(', ')}`);
  if (typeof o.agent !== 'string' || o.agent === '') p.push('state.agent is not a name');
  if (!strings(o.keys)) p.push('state.keys is not a list of keys');
  const d = o.diff as Record<string, unknown> | null;
  if (!d || typeof d !== 'object' || Array.isArray(d) || Object.values(d).some((k) => !k || typeof k !== 'object' || !['added', 'removed', 'changed'].every((f) => strings((k as Record<string, unknown>)[f]))))
    p.push('state.diff is not {namespace: {added, removed, changed}}');
  if (o.schema !== undefined && (typeof (o.schema as { from?: unknown })?.from !== 'string' || typeof (o.schema as { to?: unknown })?.to !== 'string')) p.push('state.schema is not {from, to}');
  return p;
}
