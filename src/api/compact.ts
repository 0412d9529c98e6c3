// `ctx compact`: the context at a branch tip through the compaction pipeline, written back as one
// compaction commit on the branch (compare-and-swap, as checkpoint).
import { spawn } from 'node:child_process';
import { compactMessages, type Stage, type StageReport } from '../core/compaction.js';
import { formatRuns } from '../core/materialize.js';
import { fullId, shortId } from '../core/ids.js';
import { CtxError, NotFoundError } from '../errors/index.js';
import { isRecord, type NeutralMessage } from '../core/neutral.js';
import { knownFormat, storageFormat } from '../formats/registry.js';
import { readArtifacts, readStoredCommits } from '../store/context-commits.js';
import { readNotes } from '../store/notes.js';
import { checkBranchName, refs } from '../store/refs.js';
import { catchUp, moveState } from '../runtimes/claude-code/catch-up.js';
import { claudeCompactLines } from '../runtimes/claude-code/compaction.js';
import { materialize } from './materialize.js';
import { foldAnnotations } from './read.js';
import type { RepoContext } from './repo-context.js';
import { checkpoint, type CommitFields, type WrittenCommit } from './write.js';

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
  commit: WrittenCommit;
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
  tokensAfter: number;
  report: StageReport[];
}

/** Writes the compaction in the tip's format when it can hold it, else bureau-agent-v1. */
export function compactionFormat(stored: string): string {
  if (stored === 'claude-code-v1' || knownFormat(stored)?.fromNeutral) return stored;
  return 'bureau-agent-v1';
}

export async function compact(ctx: RepoContext, branch: string, opts: CompactOptions): Promise<CompactResult> {
  const ref = refs.branch(checkBranchName(branch));
  const before = ctx.refs.read(ref);
  if (!before) throw new NotFoundError(`no branch ${branch}`);
  // nothing pending is lost: what the live transcript holds past the chain is checkpointed first
  const note = opts.note ?? (() => {});
  const caught = await catchUp(ctx, branch, before, opts.transcript, note);
  // said now: the catch-up stays even if the summarizer fails below
  for (const c of caught.commits) note(`caught up ${shortId(c.oid)} from ${caught.file}: ${c.meta.artifact_size} bytes, ${c.meta.message_count} messages`);
  const tip = caught.commits.length ? caught.commits[caught.commits.length - 1].oid : before;
  const m = await materialize(ctx, tip, { stop: 'compaction' });
  const oids = m.commits.map((id) => id.slice(4));
  const { messages, pinned, stored, lastLine, claudeBytes } = await readContext(ctx, oids);
  const summarizer = opts.summaryText !== undefined ? () => Promise.resolve(opts.summaryText!) : opts.summarizer !== undefined ? runSummarizer(opts.summarizer) : undefined;
  const out = await compactMessages(messages, { stages: opts.stages, budget: opts.budget, keepTurns: opts.keepTurns, pinned, summarizer, counter: await ctx.tokenCounter() });
  const format = compactionFormat(stored);
  const created = ctx.now().toISOString();
  const artifact =
    format === 'claude-code-v1'
      ? claudeCompactLines({ source: claudeBytes, input: messages, out, last: lastLine, timestamp: created, tip })
      : storageFormat(format).fromNeutral!(out.messages);
  const tokensAfter = out.report[out.report.length - 1].tokens;
  const commit = await checkpoint(ctx, {
    ...opts.fields,
    branch,
    format,
    artifact,
    parent: tip,
    type: 'compaction',
    trigger: 'compaction',
    summary: opts.fields?.summary ?? `compacted ${messages.length} messages into ${out.messages.length}`,
    source: { kind: 'ctx-compact', of: fullId(tip), policy: opts.stages.join(','), messages_before: messages.length, tokens_before: out.tokensBefore },
  });
  if (caught.state) moveState(ctx, caught.state, tip, commit.oid);
  return { commit, caughtUp: caught.commits, ...(caught.file !== undefined ? { transcript: caught.file } : {}), from: m.commits, format, messagesBefore: messages.length, messagesAfter: out.messages.length, tokensBefore: out.tokensBefore, tokensAfter, report: out.report };
}

/**
 * Neutral messages of the commits, oldest first, and which of them are pinned. Each run of one
 * format is read as materialize reads it; a run's pins map to messages when its commits, read one
 * by one, give the same messages (always for byte-append formats).
 */
async function readContext(ctx: RepoContext, oids: readonly string[]) {
  const stored = await readStoredCommits(ctx.engine, oids);
  const artifacts = await readArtifacts(ctx.engine, stored);
  const notes = await readNotes(ctx.engine, ctx.refs, oids);
  const messages: NeutralMessage[] = [];
  const pinned = new Set<number>();
  let lastLine: Record<string, unknown> | undefined;
  // the claude-code-v1 bytes the messages were read from: the compaction keeps their lines
  const claude: Uint8Array[] = [];
  for (const [i, j] of formatRuns(stored.map((c) => c.meta.format))) {
    const f = knownFormat(stored[i].meta.format);
    if (!f?.toNeutral) throw new CtxError(`ctx-${stored[i].oid.slice(0, 12)} holds ${stored[i].meta.format}, which ctx cannot read into messages`);
    const bytes = f.concat(artifacts.slice(i, j));
    const whole = f.toNeutral(f.parse(bytes, { lastOfFile: true }));
    const isPinned = stored.slice(i, j).map((c) => foldAnnotations(notes.get(c.oid)).pinned === true);
    // each artifact is read alone only to place pins: a run without any is read once
    const each = isPinned.includes(true) ? stored.slice(i, j).map((_, k) => f.toNeutral!(f.parse(artifacts[i + k], { lastOfFile: true })).length) : [];
    if (each.reduce((a, b) => a + b, 0) === whole.length) {
      let at = messages.length;
      each.forEach((n, k) => {
        if (isPinned[k]) for (let x = 0; x < n; x++) pinned.add(at + x);
        at += n;
      });
    }
    messages.push(...whole);
    if (f.name === 'claude-code-v1') {
      claude.push(bytes);
      for (const e of f.parse(artifacts[j - 1], { lastOfFile: true })) if (isRecord(e) && typeof e.sessionId === 'string') lastLine = e;
    }
  }
  return { messages, pinned, stored: stored[stored.length - 1].meta.format, lastLine, claudeBytes: Buffer.concat(claude) };
}

/** `sh -c CMD` with the messages as JSON on stdin; its stdout is the summary. */
function runSummarizer(command: string): (messages: NeutralMessage[]) => Promise<string> {
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
