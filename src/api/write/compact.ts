// `ctx compact`: the context at a branch tip through the compaction pipeline, written back as one
// compaction commit on the branch (compare-and-swap, as checkpoint).
import { spawn } from 'node:child_process';
import { compactMessages, type CompactionResult, type Stage, type StageReport } from '../../core/compaction.js';
import { fullId, shortId } from '../../core/ids.js';
import type { Meta } from '../../core/meta.js';
import type { NeutralMessage } from '../../core/neutral.js';
import { BadInputError, CtxError, NotFoundError } from '../../errors/index.js';
import { compactionFormatFor, storageFormat } from '../../formats/registry.js';
import { runtimeRegistry } from '../capture/sessions.js';
import { readEntries } from '../../store/context-commits.js';
import { checkBranchName, refs } from '../../store/refs.js';
import { catchUp, moveState, type CatchUp } from '../capture/catch-up.js';
import { neutralRuns, pinnedMessages, readContext, readTipMeta, type ContextPart } from '../read/context-reader.js';
import type { RepoContext } from '../repo/repo-context.js';
import { checkpoint, type CommitFields, type WrittenCommit } from './write.js';

const runtimeOfFormat = async (format: string) => (await runtimeRegistry()).runtimeOfFormat(format);

export interface CompactOptions {
  /** metadata of the compaction commit (principal, session, summary…) */
  fields?: Omit<CommitFields, 'type' | 'trigger' | 'source'>;
  stages: readonly Stage[];
  budget?: number;
  keepTurns?: number;
  /** the summary text (`--summary-file`) */
  summaryText?: string;
  /** a shell command: the messages to summarize as JSON on stdin, the summary on stdout */
  summarizer?: string;
  /** the Claude Code transcript the branch captures: bytes past the chain are checkpointed first */
  transcript?: string;
  /** lines for people (stderr): the catch-up commits, and why a catch-up did not happen */
  note?: (line: string) => void;
}

export interface CompactResult {
  /** the compaction commit; null when every stage was skipped (the context is already under budget): nothing written */
  commit: WrittenCommit | null;
  /** the commits that caught up with the transcript before compacting, oldest first */
  caughtUp: WrittenCommit[];
  /** the transcript they came from */
  transcript?: string;
  /** the commits whose context was compacted, oldest first */
  from: string[];
  format: string;
  messagesBefore: number;
  messagesAfter: number;
  tokensBefore: number;
  /** the compaction commit's token_count (the pipeline's own count when nothing was written) */
  tokensAfter: number;
  report: StageReport[];
}

export async function compact(ctx: RepoContext, branch: string, opts: CompactOptions): Promise<CompactResult> {
  const at = await readForCompaction(ctx, branch, opts);
  const { messages, parts } = at;
  const pinned = await pinnedMessages(ctx, parts, messages);
  const summarizer = opts.summaryText !== undefined ? () => Promise.resolve(opts.summaryText!) : opts.summarizer !== undefined ? runSummarizer(opts.summarizer) : undefined;
  const out = await compactMessages(messages, { stages: opts.stages, budget: opts.budget, keepTurns: opts.keepTurns, pinned, summarizer, counter: await ctx.tokenCounter() });
  const done = { ...at.done, tokensBefore: out.tokensBefore, report: out.report };
  // already under budget (every stage skipped) or nothing any stage could do: a compaction would change nothing
  if (out.report.every((r) => r.skipped || r.changed === 0)) return { ...done, commit: null, messagesAfter: out.messages.length, tokensAfter: out.report[out.report.length - 1].tokens };
  const commit = await writeCompaction(ctx, branch, at, out, opts.stages.join(','), opts.fields, `compacted ${messages.length} messages into ${out.messages.length}`);
  return { ...done, commit, messagesAfter: out.messages.length, tokensAfter: commit.meta.token_count };
}

export type ClearOptions = Pick<CompactOptions, 'fields' | 'transcript' | 'note'>;

export interface ClearResult extends Omit<CompactResult, 'commit' | 'report' | 'messagesAfter' | 'tokensAfter'> {
  /** the clear: a compaction commit that keeps nothing */
  commit: WrittenCommit;
}

/**
 * `ctx clear`: a compaction commit that keeps nothing (policy `clear`), so the default
 * materialization starts empty after it; `--stop root` passes over it and still reads everything.
 * Always written, also on a context that is already empty: the clear marks when the window starts.
 */
export async function clear(ctx: RepoContext, branch: string, opts: ClearOptions = {}): Promise<ClearResult> {
  const at = await readForCompaction(ctx, branch, opts);
  const counted = await compactMessages(at.messages, { stages: [], counter: await ctx.tokenCounter() });
  const out = { ...counted, messages: [], origins: [], summaryAt: -1 };
  const commit = await writeCompaction(ctx, branch, at, out, 'clear', opts.fields, `cleared ${at.messages.length} messages`);
  return { ...at.done, tokensBefore: out.tokensBefore, commit };
}

type ReadForCompaction = Awaited<ReturnType<typeof readForCompaction>>;

/** The context at the branch's tip (after catching up with its live transcript), as compact and clear read it. */
async function readForCompaction(ctx: RepoContext, branch: string, opts: ClearOptions) {
  const ref = refs.branch(checkBranchName(branch));
  const before = ctx.refs.read(ref);
  if (!before) throw new NotFoundError(`no branch ${branch}`);
  // nothing pending is lost: what the live transcript holds past the chain is checkpointed first
  const note = opts.note ?? (() => {});
  const beforeMeta = await readTipMeta(ctx, before);
  const caught = await catchUpFirst(ctx, branch, before, beforeMeta.format, opts.transcript, note);
  // said now: the catch-up stays even if the summarizer fails below
  for (const c of caught.commits) note(`caught up ${shortId(c.oid)} from ${caught.file}: ${c.meta.artifact_size} bytes, ${c.meta.message_count} messages`);
  const tip = caught.commits.length ? caught.commits[caught.commits.length - 1].oid : before;
  const { parts } = await readContext(ctx, tip, { kind: 'compaction' });
  const tipMeta = await sessionMeta(ctx, caught.commits.length ? caught.commits[caught.commits.length - 1].meta : beforeMeta, parts);
  const runs = neutralRuns(parts);
  const messages = runs.flatMap((r) => r.messages);
  const format = compactionFormatFor(tipMeta.format);
  const done = { caughtUp: caught.commits, ...(caught.file !== undefined ? { transcript: caught.file } : {}), from: parts.map((p) => fullId(p.oid)), format: format.name, messagesBefore: messages.length };
  return { tip, caught, tipMeta, parts, runs, messages, format, done };
}

/** The compaction commit on the branch: `out` written in the format's own compaction shape, else from the neutral messages. */
async function writeCompaction(ctx: RepoContext, branch: string, at: ReadForCompaction, out: Omit<CompactionResult, 'report'>, policy: string, fields: CompactOptions['fields'], summary: string): Promise<WrittenCommit> {
  const { format, tip, tipMeta, messages } = at;
  const created = ctx.now().toISOString();
  const artifact = format.writeCompaction
    ? format.writeCompaction({ ...sourceOf(at.runs, format.name), input: messages, out, timestamp: created, tip })
    : format.fromNeutral!(out.messages);
  const commit = await checkpoint(ctx, {
    // the compaction belongs to the branch's session and kind of agent
    template: tipMeta.template,
    session: tipMeta.session_id,
    ...fields,
    branch,
    format: format.name,
    artifact,
    parent: tip,
    type: 'compaction',
    trigger: 'compaction',
    summary: fields?.summary ?? summary,
    source: { kind: 'ctx-compact', of: fullId(tip), policy, messages_before: messages.length, tokens_before: out.tokensBefore },
  });
  if (at.caught.state) moveState(ctx, at.caught.state, tip, commit.oid);
  return commit;
}

/** The catch-up of the runtime whose live transcript the branch holds; other chains have none. */
async function catchUpFirst(ctx: RepoContext, branch: string, tip: string, format: string, transcript: string | undefined, note: (line: string) => void): Promise<CatchUp> {
  const stream = (await runtimeOfFormat(format))?.transcript;
  if (stream) return catchUp(ctx, stream, branch, tip, transcript, note);
  if (transcript !== undefined) throw new BadInputError(`--transcript catches up chains a live transcript feeds; ${branch} holds ${format}`);
  return { commits: [] };
}

/** The tip's meta.json, with the session and template of the newest commit of the context that names a session. */
async function sessionMeta(ctx: RepoContext, meta: Meta, parts: readonly ContextPart[]): Promise<Meta> {
  if (meta.session_id !== '') return meta;
  for (const e of (await readEntries(ctx.engine, parts)).reverse()) if (e.meta.session_id !== '') return { ...meta, session_id: e.meta.session_id, template: e.meta.template };
  return meta;
}

/** The context's bytes in `format` (the entries its messages were read from), and which messages came from them. */
function sourceOf(runs: ReturnType<typeof neutralRuns>, format: string): { source: Uint8Array; inSource: boolean[] } {
  const mine = runs.filter((r) => r.run[0].format === format);
  return {
    source: Buffer.concat(mine.map((r) => storageFormat(format).concat(r.run.map((p) => p.artifact)))),
    inSource: runs.flatMap((r) => r.messages.map(() => r.run[0].format === format)),
  };
}

/** `sh -c CMD` with the messages as JSON on stdin; its stdout is the summary. */
export function runSummarizer(command: string): (messages: NeutralMessage[]) => Promise<string> {
  return (messages) =>
    new Promise((done, fail) => {
      const child = spawn('sh', ['-c', command], { stdio: ['pipe', 'pipe', 'pipe'] });
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      child.stdout.on('data', (b: Buffer) => out.push(b));
      child.stderr.on('data', (b: Buffer) => err.push(b));
      child.on('error', (e) => fail(new CtxError(`summarizer failed to start: ${e.message}`)));
      child.on('close', (code) => {
        const text = Buffer.concat(out).toString('utf8');
        if (code !== 0) return fail(new CtxError(`summarizer exited with ${code}: ${Buffer.concat(err).toString('utf8').trim().split('\n')[0] ?? ''}`));
        if (!text.trim()) return fail(new CtxError('summarizer printed nothing'));
        done(text);
      });
      child.stdin.on('error', () => {}); // a summarizer that does not read its input
      child.stdin.end(JSON.stringify(messages));
    });
}
