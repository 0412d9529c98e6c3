// A session document (an `opencode export` file, or what ctx's plugin reads from opencode after a
// turn) onto its branch: the messages the chain does not hold yet, and those it holds that changed,
// as commits: a delta per prompt and what answered it, a compaction from each compaction request.
import { artifactHash } from '../../core/blake3.js';
import { canonicalJson } from '../../core/canonical-json.js';
import { materialize } from '../../api/read/materialize.js';
import type { RepoContext } from '../../api/repo/repo-context.js';
import { writeChain, type CommitFields, type LazyChainItem, type WrittenCommit } from '../../api/write/write.js';
import { encodeSession, isCompactionRequest, parseSession, type OpencodeMessage, type OpencodeSession } from '../../formats/opencode-session.js';
import { refs } from '../../store/refs.js';
import { summaryLine } from '../transcript.js';
import { ChainIndex, readIndex, type KnownChain } from './chain-index.js';
import { OPENCODE_FORMAT } from './names.js';

export interface Turn {
  kind: 'delta' | 'compaction';
  messages: OpencodeMessage[];
  prompt?: string;
  /** ms since the epoch: the last message's creation */
  time?: number;
}

/** A user message's own words: its text parts that opencode did not add itself. */
export function promptOf(m: OpencodeMessage): string | undefined {
  if (m.info.role !== 'user' || isCompactionRequest(m)) return undefined;
  const text = m.parts.filter((p) => p.type === 'text' && p.synthetic !== true && typeof p.text === 'string').map((p) => p.text as string).join('\n');
  return text.trim() === '' ? undefined : text;
}

/** Messages in order → turns: a prompt opens a delta, a compaction request a compaction. */
export function splitTurns(messages: readonly OpencodeMessage[]): Turn[] {
  const turns: Turn[] = [];
  for (const m of messages) {
    const prompt = promptOf(m);
    let open = turns[turns.length - 1];
    if (isCompactionRequest(m)) turns.push((open = { kind: 'compaction', messages: [] }));
    else if (!open || (prompt !== undefined && (open.prompt !== undefined || open.kind === 'compaction' || open.messages.length > 0))) turns.push((open = { kind: 'delta', messages: [] }));
    if (prompt !== undefined) open.prompt = summaryLine(prompt);
    open.messages.push(m);
    const t = (m.info.time as { created?: unknown } | undefined)?.created;
    if (typeof t === 'number') open.time = t;
  }
  return turns;
}

/** Two parsed messages differ in more than key order: the same JSON text (native, the usual case) is no difference. */
const differs = (a: OpencodeMessage, b: OpencodeMessage) => JSON.stringify(a) !== JSON.stringify(b) && canonicalJson(a) !== canonicalJson(b);

/**
 * What `doc` holds past what the chain at `tip` holds: new messages, and messages the chain holds
 * (by id) that changed since, unless a compaction the chain holds came after them. A message of
 * another id at a position the chain already fills is a copy of an exported one (a resumed export
 * gives every message a new id) and is left out.
 */
export function newTurns(known: KnownChain | null, doc: OpencodeSession): Turn[] {
  const ids = known?.ids ?? [];
  const at = new Map(ids.map((id, i) => [id, i]));
  const lastCompaction = known?.lastCompaction ?? -1;
  const changed: OpencodeMessage[] = [];
  const fresh: OpencodeMessage[] = [];
  doc.messages.forEach((m, i) => {
    const j = at.get(m.info.id);
    if (j !== undefined) {
      if (j >= lastCompaction && !known!.same(j, m)) changed.push(m);
    } else if (i >= ids.length) fresh.push(m);
  });
  const turns = splitTurns(fresh);
  if (changed.length === 0) return turns;
  if (turns[0]?.kind === 'delta') turns[0].messages.unshift(...changed);
  else turns.unshift({ kind: 'delta', messages: changed });
  return turns;
}

/** The session as the chain at `tip` holds it (all of it: back to the root). */
export async function chainSession(ctx: RepoContext, tip: string): Promise<OpencodeSession> {
  return parseSession((await materialize(ctx, tip, { format: OPENCODE_FORMAT, stop: 'root' })).bytes);
}

/** The chain's messages as newTurns compares them. */
export function knownChain(session: OpencodeSession): KnownChain {
  const old = session.messages;
  let lastCompaction = -1;
  old.forEach((m, i) => isCompactionRequest(m) && (lastCompaction = i));
  return { ids: old.map((m) => m.info.id), lastCompaction, same: (j, m) => !differs(m, old[j]) };
}

/**
 * Appends `doc`'s new turns to `branch` (made when missing); the commits written. With `indexed`
 * (the hook: one session, every turn), the chain is known from its index while that names the tip,
 * and the index is kept up to date.
 */
export async function appendSession(ctx: RepoContext, branch: string, doc: OpencodeSession, fields: CommitFields & { source?: Record<string, unknown> }, indexed?: string): Promise<{ commits: WrittenCommit[]; tip: string | null }> {
  const tip = ctx.refs.read(refs.branch(branch));
  let index = tip === null || indexed === undefined ? null : await readIndex(ctx.gitdir, indexed, branch, tip);
  let known: KnownChain | null = index;
  if (tip !== null && index === null) {
    const session = await chainSession(ctx, tip);
    known = knownChain(session);
    if (indexed !== undefined) index = await ChainIndex.of(session.messages);
  } else if (tip === null && indexed !== undefined) index = await ChainIndex.of([]);
  const turns = newTurns(known, doc);
  if (turns.length === 0) {
    // a chain read back: its index, for the next turn
    if (tip !== null && index && known !== index) index.save(ctx.gitdir, indexed!, branch, tip, doc.messages);
    return { commits: [], tip };
  }
  const items = turns.map((t) => ({
    template: 'opencode',
    summary: t.prompt,
    summaryFromReplies: true,
    ...fields,
    type: t.kind,
    createdAt: t.time === undefined ? fields.createdAt : new Date(t.time).toISOString(),
    artifact: encodeSession({ info: doc.info, messages: t.messages }),
  })) satisfies LazyChainItem[];
  const commits = await writeChain(ctx, branch, OPENCODE_FORMAT, items, undefined, tip);
  if (index && commits.length && (await storedAsGiven(items, commits)) && index.add(turns.flatMap((t) => t.messages))) index.save(ctx.gitdir, indexed!, branch, commits[commits.length - 1].oid, doc.messages);
  return { commits, tip: commits.length ? commits[commits.length - 1].oid : tip };
}

/** Every artifact stored as encoded (no secret redacted out of it), so the chain holds the messages as given. */
async function storedAsGiven(items: readonly { artifact: Uint8Array }[], commits: readonly WrittenCommit[]): Promise<boolean> {
  if (items.length !== commits.length) return false;
  for (let i = 0; i < items.length; i++) if (commits[i].meta.artifact !== (await artifactHash(items[i].artifact))) return false;
  return true;
}
