// `ctx hook claude-code`: live capture. Each call appends the transcript bytes that are new since the
// last checkpoint, as whole lines, split exactly as import splits a file. Only new bytes are read.
import { closeSync, fstatSync, openSync, readSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { BadInputError, ConflictError, CtxError, NotFoundError } from '../../errors/index.js';
import { isSyntheticCompaction, type Trigger } from '../../core/meta.js';
import type { RepoContext } from '../../api/repo-context.js';
import type { ChainItem, WrittenCommit } from '../../api/write.js';
import { refs } from '../../store/refs.js';
import { TAIL_BYTES, readState, statePath, tailHash, writeState, type StreamState } from './hook-state.js';
import { agentFiles } from './agents.js';

// What only a write, a re-derivation or a fork needs is loaded then: a call with nothing new stays small.
const repoReads = () => import('./hook-repo.js');

export const CLAUDE_FORMAT = 'claude-code-v1';
const NL = 0x0a;
const LOCK_STALE_MS = 10_000;

/** The JSON Claude Code writes on a hook's stdin (the fields ctx reads). */
export interface HookInput {
  session_id: string;
  transcript_path: string;
  hook_event_name: string;
  cwd?: string;
  /** SessionStart: startup | resume | clear | compact */
  source?: string;
}

export interface StreamReport {
  branch: string;
  commits: WrittenCommit[];
  /** set when the transcript no longer matched the chain and a fork branch was started */
  forked?: { from: string; at: string | null; reason: string };
}

/** What an event checkpoints as; null: the event has nothing to capture. */
export function triggerFor(input: HookInput): Trigger | null {
  switch (input.hook_event_name) {
    case 'Stop':
    case 'SubagentStop':
      return 'turn_boundary';
    case 'PreCompact':
      return 'compaction';
    case 'SessionEnd':
      return 'session_end';
    case 'SessionStart':
      return input.source === 'compact' || input.source === 'resume' ? 'turn_boundary' : null;
    default:
      return null;
  }
}

export function checkHookInput(v: unknown): HookInput {
  const o = (v ?? {}) as Record<string, unknown>;
  for (const k of ['session_id', 'transcript_path', 'hook_event_name'])
    if (typeof o[k] !== 'string' || o[k] === '') throw new CtxError(`hook input has no ${k}`);
  return o as unknown as HookInput;
}

export const sessionBranch = (session: string) => `claude/${session}`;
// `claude/<s>/agent-x` cannot sit next to the ref `claude/<s>` (git stores refs as files and
// directories), so a session's other chains are its siblings: `claude/<s>.agent-<id>`, `.fork-<n>`.
export const agentBranch = (session: string, agent: string) => `claude/${session}.agent-${agent}`;

interface Stream {
  /** name of the state file under ctx/hooks/; none: no state is kept (a catch-up of a chain no hook captured) */
  key?: string;
  /** the first branch of the stream; forks are `<base>.fork-<n>` */
  base: string;
  file: string;
  /** the main transcript: its chain's source ranges all belong to it */
  main: boolean;
  /** where a new branch starts: the commit that spawned a subagent */
  startAt?: (firstLine: Uint8Array) => Promise<string | null>;
}

interface Run {
  session: string;
  trigger: Trigger;
  /** SessionEnd: a last line without its newline is taken too, if it is whole JSON */
  final: boolean;
  /** `ctx compact`'s catch-up: a file that no longer extends the chain is an error, never a fork */
  strict?: boolean;
}

/** Capture the session's transcript and its subagents' transcripts. */
export async function captureSession(ctx: RepoContext, input: HookInput, note: (line: string) => void): Promise<StreamReport[]> {
  const trigger = triggerFor(input);
  if (trigger === null) return [];
  const session = input.session_id;
  const file = resolve(input.cwd ?? '.', input.transcript_path);
  const run: Run = { session, trigger, final: input.hook_event_name === 'SessionEnd' };
  const reports: StreamReport[] = [];
  const main = await captureStream(ctx, { key: session, base: sessionBranch(session), file, main: true }, run);
  reports.push(main);
  if (main.forked) note(`transcript ${main.forked.reason}: started ${main.branch} at ${main.forked.at ?? 'a new root'}`);
  for (const agent of agentFiles(ctx.gitdir, file, session)) {
    const r = await captureStream(
      ctx,
      {
        key: `${session}.agent-${agent.id}`,
        base: agentBranch(session, agent.id),
        file: agent.path,
        main: false,
        startAt: async (first) => {
          const tip = ctx.refs.read(refs.branch(main.branch));
          return tip && (await (await repoReads()).findSpawnCommit(ctx, tip, agent.id, first));
        },
      },
      run,
    );
    if (r.forked) note(`subagent transcript ${r.forked.reason}: started ${r.branch}`);
    reports.push(r);
  }
  return reports;
}

/** Where a catch-up starts: a hook state's offset and tail hash, or the end of the chain's own bytes. */
export interface CatchUpStart {
  branch: string;
  tip: string;
  offset: number;
  tail: { len: number; sha256?: string; bytes?: Uint8Array };
}

/**
 * `ctx compact`'s catch-up: the bytes of `file` past `start`, captured onto the tip as a PreCompact
 * hook call captures them (whole lines, split as import splits). Never forks: a file that no longer
 * extends the chain is an error. `key`: the hook state to advance, when the stream has one.
 */
export async function captureBeforeCompaction(ctx: RepoContext, c: { key?: string; file: string; session: string; start: CatchUpStart }): Promise<WrittenCommit[]> {
  const run: Run = { session: c.session, trigger: 'compaction', final: false, strict: true };
  const stream: Stream = { key: c.key, base: c.start.branch, file: c.file, main: true };
  return (await captureStream(ctx, stream, run, { ...c.start, valid: true })).commits;
}

/** Where the file stands in the repo: the branch, its tip, the offset, and what the bytes before it must be. */
interface Position {
  branch: string;
  tip: string | null;
  offset: number;
  tail: { len: number; sha256?: string; bytes?: Uint8Array };
  valid: boolean;
}

async function position(ctx: RepoContext, s: Stream): Promise<Position> {
  const state = s.key === undefined ? null : readState(statePath(ctx.gitdir, s.key));
  if (state && ctx.refs.read(refs.branch(state.branch)) === state.tip)
    return { branch: state.branch, tip: state.tip, offset: state.offset, tail: { len: state.tail_len, sha256: state.tail_sha256 }, valid: true };
  // the state is missing or stale: the repo says where the file stands
  const branch = currentBranch(ctx, s.base);
  const tip = ctx.refs.read(refs.branch(branch));
  if (tip === null) return { branch, tip, offset: 0, tail: { len: 0 }, valid: false };
  const { readArtifactAt, readSourceMeta } = await repoReads();
  // a compaction `ctx compact` wrote holds no transcript bytes: the range is its parent's
  const { oid, meta } = await readSourceMeta(ctx, tip);
  const src = meta.source as { file?: unknown; offset?: unknown; length?: unknown } | undefined;
  const mine = s.main || src?.file === basename(s.file);
  if (!mine) return { branch, tip, offset: 0, tail: { len: 0 }, valid: false };
  if (!src || !Number.isSafeInteger(src.offset) || !Number.isSafeInteger(src.length))
    throw new CtxError(`${branch}: its tip ctx-${tip.slice(0, 12)} has no source range, so the transcript offset is unknown`);
  const artifact = await readArtifactAt(ctx, oid, meta);
  const len = Math.min(TAIL_BYTES, artifact.length);
  return { branch, tip, offset: (src.offset as number) + (src.length as number), tail: { len, bytes: artifact.subarray(artifact.length - len) }, valid: false };
}

/** The stream's branch: its newest fork, else its base. */
function currentBranch(ctx: RepoContext, base: string): string {
  let best = base;
  let n = 0;
  const prefix = refs.branch(`${base}.fork-`);
  for (const r of ctx.refs.list(refs.branch(dirname(base) + '/'))) {
    if (!r.ref.startsWith(prefix)) continue;
    const k = Number(r.ref.slice(prefix.length));
    if (Number.isSafeInteger(k) && k > n) [n, best] = [k, r.ref.slice(refs.heads.length)];
  }
  return best;
}

/** `known`: where the file stands when the caller has found it (a catch-up), else derived. */
async function captureStream(ctx: RepoContext, s: Stream, run: Run, known?: Position): Promise<StreamReport> {
  const pos = known ?? (await position(ctx, s));
  let fd: number;
  try {
    fd = openSync(s.file, 'r');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw code === 'ENOENT' ? new NotFoundError(`transcript not found: ${s.file}`) : new CtxError(`cannot read ${s.file}: ${code}`);
  }
  try {
    const size = fstatSync(fd).size;
    if (pos.valid && size === pos.offset) return { branch: pos.branch, commits: [] };
    if (size < pos.offset) return await fork(ctx, s, run, pos, readFileSync(s.file), 'shrank');
    const from = pos.offset - pos.tail.len;
    const buf = readAt(fd, from, size - from);
    const tail = buf.subarray(0, pos.tail.len);
    const same = pos.tail.sha256 !== undefined ? tailHash(tail) === pos.tail.sha256 : Buffer.compare(tail, pos.tail.bytes ?? new Uint8Array()) === 0;
    if (!same) return await fork(ctx, s, run, pos, readFileSync(s.file), 'changed');
    const fresh = buf.subarray(pos.tail.len);
    const items = await itemsOf(fresh, pos.offset, s.file, run);
    const end = pos.offset + items.reduce((n, i) => n + i.artifact.length, 0);
    let tip = pos.tip;
    let commits: WrittenCommit[] = [];
    if (items.length) {
      let onto = tip;
      if (onto === null && s.startAt) {
        onto = await s.startAt(items[0].artifact);
        if (onto) ctx.refs.update(refs.branch(pos.branch), onto, null);
      }
      commits = await append(ctx, pos.branch, items, onto);
      tip = commits[commits.length - 1].oid;
    }
    if (tip !== null && (items.length || !pos.valid)) saveState(ctx, s, run, pos.branch, tip, end, buf, from);
    return { branch: pos.branch, commits };
  } finally {
    closeSync(fd);
  }
}

/** Read `length` bytes at `position`: only what is new, never the whole file. */
function readAt(fd: number, position: number, length: number): Buffer {
  const buf = Buffer.allocUnsafe(length);
  let got = 0;
  while (got < length) {
    const n = readSync(fd, buf, got, length - got, position + got);
    if (n === 0) break;
    got += n;
  }
  return buf.subarray(0, got);
}

function saveState(ctx: RepoContext, s: Stream, run: Run, branch: string, tip: string, end: number, buf: Uint8Array, bufStart: number) {
  if (s.key === undefined) return;
  const len = Math.min(end, TAIL_BYTES);
  const tail = buf.subarray(end - len - bufStart, end - bufStart);
  const state: StreamState = { v: 1, branch, tip, offset: end, tail_sha256: tailHash(tail), tail_len: len, transcript: s.file, session: run.session };
  writeState(statePath(ctx.gitdir, s.key), state);
}

/** Objects are written only when the branch is free, so a held lock leaves no stray objects. */
async function append(ctx: RepoContext, branch: string, items: ChainItem[], onto: string | null): Promise<WrittenCommit[]> {
  const lock = join(ctx.gitdir, `${refs.branch(branch)}.lock`);
  let age = Infinity;
  try {
    age = Date.now() - statSync(lock).mtimeMs;
  } catch {}
  if (age <= LOCK_STALE_MS) throw new ConflictError(`${branch} is locked by another writer (${lock})`);
  const { writeChain } = await import('../../api/write.js');
  return writeChain(ctx, branch, CLAUDE_FORMAT, items, undefined, onto);
}

/** New bytes → commits: whole lines only; a compaction waits until its summary line is there. */
async function itemsOf(fresh: Uint8Array, offset: number, path: string, run: Run): Promise<ChainItem[]> {
  let end = fresh.lastIndexOf(NL) + 1;
  let lastOfFile = false;
  if (run.final && end < fresh.length && isJsonLine(fresh.subarray(end))) [end, lastOfFile] = [fresh.length, true];
  if (end === 0) return [];
  const bytes = fresh.subarray(0, end);
  const [{ splitTranscript }, { usageOf }] = await Promise.all([import('./split.js'), import('./usage.js')]);
  let segments = splitTranscript(bytes);
  const last = segments[segments.length - 1];
  // a boundary line alone at the end: its summary is being written; take both together next time
  if (!run.final && last?.kind === 'compaction' && last.lines === 1 && last.end === bytes.length) segments = segments.slice(0, -1);
  let lastTime: string | undefined;
  return segments.map((seg, i) => {
    const artifact = bytes.subarray(seg.start, seg.end);
    const usage = usageOf(artifact);
    if (seg.timestamp !== undefined && !Number.isNaN(Date.parse(seg.timestamp))) lastTime = seg.timestamp;
    return {
      template: 'claude-code',
      session: run.session,
      type: seg.kind,
      trigger: seg.kind === 'compaction' ? 'compaction' : run.trigger,
      summary: seg.prompt ?? '',
      createdAt: lastTime,
      // the file's name, not its path, as import records it
      source: { file: basename(path), offset: offset + seg.start, length: seg.end - seg.start, ...usage },
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
  const items = await itemsOf(bytes.subarray(offset), offset, s.file, run);
  let tip = matching;
  let commits: WrittenCommit[] = [];
  if (matching) ctx.refs.update(refs.branch(branch), matching, null);
  if (items.length) {
    commits = await append(ctx, branch, items, matching);
    tip = commits[commits.length - 1].oid;
  }
  const end = offset + items.reduce((n, i) => n + i.artifact.length, 0);
  if (tip) saveState(ctx, s, run, branch, tip, end, bytes, 0);
  return { branch, commits, forked: { from: pos.branch, at: matching && `ctx-${matching.slice(0, 12)}`, reason } };
}

/** Oldest first, the commits whose artifact is still the file's bytes at their source range. */
async function matchingPrefix(ctx: RepoContext, s: Stream, tip: string, bytes: Uint8Array): Promise<{ matching: string | null; offset: number }> {
  const chain = await (await repoReads()).chainWithArtifacts(ctx, tip);
  let matching: string | null = null;
  let offset = 0;
  for (const c of chain) {
    const src = c.meta.source as { file?: unknown; offset?: unknown; length?: unknown } | undefined;
    // a compaction `ctx compact` wrote holds no transcript bytes: the file still matches after it
    if (isSyntheticCompaction(c.meta)) {
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

function nextFork(ctx: RepoContext, base: string): string {
  const prefix = refs.branch(`${base}.fork-`);
  let n = 0;
  for (const r of ctx.refs.list(refs.branch(dirname(base) + '/'))) {
    if (!r.ref.startsWith(prefix)) continue;
    const k = Number(r.ref.slice(prefix.length));
    if (Number.isSafeInteger(k) && k > n) n = k;
  }
  return `${base}.fork-${n + 1}`;
}

