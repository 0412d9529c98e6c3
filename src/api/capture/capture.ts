// api/capture: runtimes' sessions in and out (the plug-in contract, import, live capture from hooks, catch-up, export, resolve and current). Imports api/read and api/repo.
// Live capture of a growing transcript, for any runtime whose transcript is appended to: each call
// appends the bytes new since the last checkpoint, as whole lines, split as import splits them. Only
// new bytes are read. A transcript that no longer extends its chain starts a fork branch.
import { closeSync, constants, fstatSync, openSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { BadInputError, ConflictError, CtxError, NotFoundError } from '../../errors/index.js';
import { artifactName, derivedFrom, type Meta, type Trigger } from '../../core/meta.js';
import { storageFormat } from '../../formats/registry.js';
import { TAIL_BYTES, readState, statePath, tailHash, writeState, type StreamState } from '../../store/capture-state.js';
import { lockHolderAlive } from '../../store/lock-owner.js';
import { readAt } from './tail.js';
import { readArtifactsAt } from '../../store/context-commits.js';
import { refs } from '../../store/refs.js';
import { chainWithArtifacts, readTipMeta } from '../read/context-reader.js';
import type { RepoContext } from '../repo/repo-context.js';
import type { ChainItem, WrittenCommit } from '../write/write.js';

const NL = 0x0a;
const LOCK_STALE_MS = 10_000;

/** A byte range of a transcript that becomes one commit. */
export interface Segment {
  kind: 'delta' | 'compaction';
  /** byte offset in the file, inclusive */
  start: number;
  /** byte offset in the file, exclusive */
  end: number;
  /** for a delta opened by a user prompt: its summary line */
  prompt?: string;
  /** the `timestamp` of the segment's last line that has one, as written */
  timestamp?: string;
  /** lines in the segment, where the splitter counts them */
  lines?: number;
}

/** How a runtime's transcript becomes commits: what a runtime plug-in gives live capture. */
export interface TranscriptStream {
  format: string;
  /** meta.json's `template` of the commits */
  template: string;
  /** whole lines → segments */
  split(bytes: Uint8Array): Segment[];
  /** extra meta.json `source` fields for a segment's bytes (model, token usage) */
  sourceFields?(bytes: Uint8Array): Record<string, unknown>;
}

/** One transcript file followed into one chain. */
export interface Stream {
  transcript: TranscriptStream;
  /** name of the state file under ctx/hooks/; none: no state is kept (a catch-up of a chain no hook captured) */
  key?: string;
  /** the first branch of the stream; forks are `<base>.fork-<n>` */
  base: string;
  file: string;
  /** the main transcript: its chain's source ranges all belong to it */
  main: boolean;
  /** where a new branch starts (the commit that spawned a subagent) */
  startAt?: (firstLine: Uint8Array) => Promise<string | null>;
}

export interface Run {
  session: string;
  trigger: Trigger;
  /** the session's end: a last line without its newline is taken too, if it is whole JSON */
  final: boolean;
  /** a catch-up: a file that no longer extends the chain is an error, never a fork */
  strict?: boolean;
}

export interface StreamReport {
  branch: string;
  commits: WrittenCommit[];
  /** set when the transcript no longer matched the chain and a fork branch was started */
  forked?: { from: string; at: string | null; reason: string };
}

/** Where the file stands in the repo: the branch, its tip, the offset, and what the bytes before it must be. */
export interface Position {
  branch: string;
  tip: string | null;
  offset: number;
  tail: { len: number; sha256?: string; bytes?: Uint8Array };
  /** taken from a hook state that still names the tip */
  valid: boolean;
}

/** Capture what is new in the stream's file. `known`: where the file stands when the caller found it (a catch-up). */
export async function captureStream(ctx: RepoContext, s: Stream, run: Run, known?: Position): Promise<StreamReport> {
  const pos = known ?? (await position(ctx, s));
  let fd: number;
  try {
    // non-blocking, so a FIFO (or a device) named as the transcript cannot hang the hook
    fd = openSync(s.file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw code === 'ENOENT' ? new NotFoundError(`transcript not found: ${s.file}`) : new CtxError(`cannot read ${s.file}: ${code}`);
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new BadInputError(`transcript is not a regular file: ${s.file}`);
    const size = stat.size;
    if (pos.valid && size === pos.offset) return { branch: pos.branch, commits: [] };
    if (size < pos.offset) return await fork(ctx, s, run, pos, readFileSync(s.file), 'shrank');
    const from = pos.offset - pos.tail.len;
    const buf = readAt(fd, from, size - from);
    const tail = buf.subarray(0, pos.tail.len);
    const same = pos.tail.sha256 !== undefined ? tailHash(tail) === pos.tail.sha256 : Buffer.compare(tail, pos.tail.bytes ?? new Uint8Array()) === 0;
    if (!same) return await fork(ctx, s, run, pos, readFileSync(s.file), 'changed');
    const fresh = buf.subarray(pos.tail.len);
    const items = itemsOf(s, fresh, pos.offset, run);
    const end = pos.offset + items.reduce((n, i) => n + i.artifact.length, 0);
    let tip = pos.tip;
    let commits: WrittenCommit[] = [];
    if (items.length) {
      let onto = tip;
      if (onto === null && s.startAt) {
        onto = await s.startAt(items[0].artifact);
        if (onto) ctx.refs.update(refs.branch(pos.branch), onto, null);
      }
      commits = await append(ctx, s, pos.branch, items, onto);
      tip = commits[commits.length - 1].oid;
    }
    if (tip !== null && (items.length || !pos.valid)) saveState(ctx, s, run, pos.branch, tip, end, buf, from);
    return { branch: pos.branch, commits };
  } finally {
    closeSync(fd);
  }
}

async function position(ctx: RepoContext, s: Stream): Promise<Position> {
  const state = s.key === undefined ? null : readState(statePath(ctx.gitdir, s.key));
  if (state && ctx.refs.read(refs.branch(state.branch)) === state.tip)
    return { branch: state.branch, tip: state.tip, offset: state.offset, tail: { len: state.tail_len, sha256: state.tail_sha256 }, valid: true };
  // the state is missing or stale: the repo says where the file stands
  const branch = currentBranch(ctx, s.base);
  const tip = ctx.refs.read(refs.branch(branch));
  if (tip === null) return { branch, tip, offset: 0, tail: { len: 0 }, valid: false };
  // a compaction `ctx compact` wrote, or a state write, holds no transcript bytes: the range is its parent's
  const found = await transcriptTip(ctx, tip);
  // a branch that only has state (`ctx state init`): the transcript starts on top of it
  if (found === null) return { branch, tip, offset: 0, tail: { len: 0 }, valid: false };
  const { oid, meta } = found;
  const src = meta.source as { file?: unknown; offset?: unknown; length?: unknown } | undefined;
  const mine = s.main || src?.file === basename(s.file);
  if (!mine) return { branch, tip, offset: 0, tail: { len: 0 }, valid: false };
  if (!src || !Number.isSafeInteger(src.offset) || !Number.isSafeInteger(src.length))
    throw new CtxError(`${branch}: its tip ctx-${tip.slice(0, 12)} has no source range, so the transcript offset is unknown`);
  const artifact = await readArtifactOf(ctx, oid, meta);
  const len = Math.min(TAIL_BYTES, artifact.length);
  return { branch, tip, offset: (src.offset as number) + (src.length as number), tail: { len, bytes: artifact.subarray(artifact.length - len) }, valid: false };
}

/**
 * The newest commit at or before `tip` that holds transcript bytes: compactions `ctx compact` wrote,
 * snapshots and state writes are passed over; null when the chain holds none (it only has state).
 */
export async function transcriptTip(ctx: RepoContext, tip: string): Promise<{ oid: string; meta: Meta } | null> {
  for (let oid: string | undefined = tip; oid !== undefined; ) {
    const meta = await readTipMeta(ctx, oid);
    const from = derivedFrom(meta);
    if (from !== null) oid = from;
    else if (meta.state === undefined) return { oid, meta };
    else oid = (await ctx.firstParents(oid, 2))[1];
  }
  return null;
}

async function readArtifactOf(ctx: RepoContext, oid: string, meta: Meta): Promise<Uint8Array> {
  const spec = `${oid}:${artifactName(meta.type, storageFormat(meta.format).ext)}`;
  return (await readArtifactsAt(ctx.engine, [{ oid, spec, claim: meta }]))[0];
}

/** Forks of a stream: `<base>.fork-<n>`; the newest (highest n), else the base. */
function forks(ctx: RepoContext, base: string): { newest: string; n: number } {
  let newest = base;
  let n = 0;
  const prefix = refs.branch(`${base}.fork-`);
  for (const r of ctx.refs.list(refs.branch(dirname(base) + '/'))) {
    if (!r.ref.startsWith(prefix)) continue;
    const k = Number(r.ref.slice(prefix.length));
    if (Number.isSafeInteger(k) && k > n) [n, newest] = [k, r.ref.slice(refs.heads.length)];
  }
  return { newest, n };
}

/** The branch a stream writes to now: its newest fork, else its base. */
export const currentBranch = (ctx: RepoContext, base: string) => forks(ctx, base).newest;
const nextFork = (ctx: RepoContext, base: string) => `${base}.fork-${forks(ctx, base).n + 1}`;

/** Read `length` bytes at `position`: only what is new, never the whole file. */
function saveState(ctx: RepoContext, s: Stream, run: Run, branch: string, tip: string, end: number, buf: Uint8Array, bufStart: number) {
  if (s.key === undefined) return;
  // the tail is what `buf` holds before `end`: a position read from the repo may start it late
  const len = Math.min(end - bufStart, TAIL_BYTES);
  const tail = buf.subarray(end - len - bufStart, end - bufStart);
  const state: StreamState = { v: 1, branch, tip, offset: end, tail_sha256: tailHash(tail), tail_len: len, transcript: s.file, session: run.session };
  writeState(ctx.gitdir, s.key, state);
}

/** Objects are written only when the branch is free, so a held lock leaves no stray objects. */
async function append(ctx: RepoContext, s: Stream, branch: string, items: ChainItem[], onto: string | null): Promise<WrittenCommit[]> {
  const lock = join(ctx.gitdir, `${refs.branch(branch)}.lock`);
  let age = Infinity;
  try {
    age = Date.now() - statSync(lock).mtimeMs;
  } catch {}
  // a lock whose holder is gone is taken over by the write itself
  if (age <= LOCK_STALE_MS && lockHolderAlive(lock) !== false) throw new ConflictError(`${branch} is locked by another writer (${lock})`);
  const { writeChain } = await import('../write/write.js');
  return writeChain(ctx, branch, s.transcript.format, items, undefined, onto);
}

/** New bytes → commits: whole lines only; a compaction waits until its summary line is there. */
function itemsOf(s: Stream, fresh: Uint8Array, offset: number, run: Run): ChainItem[] {
  let end = fresh.lastIndexOf(NL) + 1;
  let lastOfFile = false;
  if (run.final && end < fresh.length && isJsonLine(fresh.subarray(end))) [end, lastOfFile] = [fresh.length, true];
  if (end === 0) return [];
  const bytes = fresh.subarray(0, end);
  let segments = s.transcript.split(bytes);
  const last = segments[segments.length - 1];
  // a boundary line alone at the end: its summary is being written; take both together next time
  if (!run.final && last?.kind === 'compaction' && last.lines === 1 && last.end === bytes.length) segments = segments.slice(0, -1);
  let lastTime: string | undefined;
  return segments.map((seg, i) => {
    const artifact = bytes.subarray(seg.start, seg.end);
    if (seg.timestamp !== undefined && !Number.isNaN(Date.parse(seg.timestamp))) lastTime = seg.timestamp;
    return {
      template: s.transcript.template,
      session: run.session,
      type: seg.kind,
      trigger: seg.kind === 'compaction' ? 'compaction' : run.trigger,
      // no prompt (a compaction, a turn going on past one): derived from what the agent did, as import does
      summary: seg.prompt,
      summaryFromReplies: true,
      createdAt: lastTime,
      // the file's name, not its path, as import records it
      source: { file: basename(s.file), offset: offset + seg.start, length: seg.end - seg.start, ...s.transcript.sourceFields?.(artifact) },
      artifact,
      lastOfFile: lastOfFile && i === segments.length - 1,
    };
  });
}

function isJsonLine(bytes: Uint8Array): boolean {
  try {
    const v = JSON.parse(Buffer.from(bytes).toString('utf8'));
    return v !== null && typeof v === 'object';
  } catch {
    return false;
  }
}

/**
 * The file no longer extends the chain (it shrank, or bytes before the offset changed): start a fork
 * branch at the newest commit whose source range still matches the file, and capture the rest there.
 */
async function fork(ctx: RepoContext, s: Stream, run: Run, pos: Position, bytes: Buffer, reason: string): Promise<StreamReport> {
  if (run.strict) throw new BadInputError(`${s.file} is not an extension of ${pos.branch}: the transcript ${reason}`);
  const { matching, offset } = await matchingPrefix(ctx, s, pos.tip!, bytes);
  const branch = nextFork(ctx, s.base);
  const items = itemsOf(s, bytes.subarray(offset), offset, run);
  let tip = matching;
  let commits: WrittenCommit[] = [];
  if (matching) ctx.refs.update(refs.branch(branch), matching, null);
  if (items.length) {
    commits = await append(ctx, s, branch, items, matching);
    tip = commits[commits.length - 1].oid;
  }
  const end = offset + items.reduce((n, i) => n + i.artifact.length, 0);
  if (tip) saveState(ctx, s, run, branch, tip, end, bytes, 0);
  return { branch, commits, forked: { from: pos.branch, at: matching && `ctx-${matching.slice(0, 12)}`, reason } };
}

/** Oldest first, the commits whose artifact is still the file's bytes at their source range. */
async function matchingPrefix(ctx: RepoContext, s: Stream, tip: string, bytes: Uint8Array): Promise<{ matching: string | null; offset: number }> {
  const chain = await chainWithArtifacts(ctx, tip);
  let matching: string | null = null;
  let offset = 0;
  for (const c of chain) {
    const src = c.meta.source as { file?: unknown; offset?: unknown; length?: unknown } | undefined;
    // a compaction `ctx compact` wrote, a snapshot or a state write holds no transcript bytes: the file still matches after it
    if (derivedFrom(c.meta) !== null || c.meta.state !== undefined) {
      matching = c.oid;
      continue;
    }
    if (!s.main && src?.file !== basename(s.file)) {
      // the main chain under a subagent's branch: the agent's bytes have not started yet
      if (offset === 0) matching = c.oid;
      continue;
    }
    if (src?.offset !== offset || src.length !== c.artifact.length) break;
    if (Buffer.compare(bytes.subarray(offset, offset + c.artifact.length), c.artifact) !== 0) break;
    matching = c.oid;
    offset += c.artifact.length;
  }
  return { matching, offset };
}
