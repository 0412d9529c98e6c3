// `ctx compact`: the context at a branch tip through the compaction pipeline, written back as one
// compaction commit on the branch (compare-and-swap, as checkpoint).
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { compactMessages, type Stage, type StageReport } from '../core/compaction.js';
import { fullId } from '../core/ids.js';
import { CtxError, NotFoundError } from '../errors/index.js';
import { renderMarkdown } from '../formats/markdown.js';
import { isRecord, type NeutralMessage } from '../formats/neutral.js';
import { knownFormat, storageFormat } from '../formats/registry.js';
import { readArtifacts, readStoredCommits } from '../store/context-commits.js';
import { readNotes } from '../store/notes.js';
import { checkBranchName, refs } from '../store/refs.js';
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
}

export interface CompactResult {
  commit: WrittenCommit;
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
  const tip = ctx.refs.read(ref);
  if (!tip) throw new NotFoundError(`no branch ${branch}`);
  const m = await materialize(ctx, tip, { stop: 'compaction' });
  const oids = m.commits.map((id) => id.slice(4));
  const { messages, pinned, stored, lastLine } = await readContext(ctx, oids);
  const summarizer = opts.summaryText !== undefined ? () => Promise.resolve(opts.summaryText!) : opts.summarizer !== undefined ? runSummarizer(opts.summarizer) : undefined;
  const out = await compactMessages(messages, { stages: opts.stages, budget: opts.budget, keepTurns: opts.keepTurns, pinned, summarizer });
  const format = compactionFormat(stored);
  const created = ctx.now().toISOString();
  const artifact = format === 'claude-code-v1' ? claudeCompactLines(out.messages, lastLine, out.tokensBefore, created, tip) : storageFormat(format).fromNeutral!(out.messages);
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
  return { commit, from: m.commits, format, messagesBefore: messages.length, messagesAfter: out.messages.length, tokensBefore: out.tokensBefore, tokensAfter, report: out.report };
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
  for (let i = 0; i < stored.length; ) {
    let j = i + 1;
    while (j < stored.length && stored[j].meta.format === stored[i].meta.format) j++;
    const f = knownFormat(stored[i].meta.format);
    if (!f?.toNeutral) throw new CtxError(`ctx-${stored[i].oid.slice(0, 12)} holds ${stored[i].meta.format}, which ctx cannot read into messages`);
    const whole = f.toNeutral(f.parse(f.concat(artifacts.slice(i, j)), { lastOfFile: true }));
    const each = stored.slice(i, j).map((_, k) => f.toNeutral!(f.parse(artifacts[i + k], { lastOfFile: true })).length);
    if (each.reduce((a, b) => a + b, 0) === whole.length) {
      let at = messages.length;
      each.forEach((n, k) => {
        if (foldAnnotations(notes.get(stored[i + k].oid)).pinned === true) for (let x = 0; x < n; x++) pinned.add(at + x);
        at += n;
      });
    }
    messages.push(...whole);
    if (f.name === 'claude-code-v1')
      for (const e of f.parse(artifacts[j - 1], { lastOfFile: true })) if (isRecord(e) && typeof e.sessionId === 'string') lastLine = e;
    i = j;
  }
  return { messages, pinned, stored: stored[stored.length - 1].meta.format, lastLine };
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

export const CLAUDE_CONTINUATION = 'This session is being continued from a previous conversation that ran out of context. The summary below covers the earlier portion of the conversation.';

/**
 * Claude Code's own compaction shape (a `compact_boundary` system line and an `isCompactSummary`
 * user line), so a claude-code-v1 chain stays claude-code-v1: the compacted context as its summary.
 */
function claudeCompactLines(messages: readonly NeutralMessage[], last: Record<string, unknown> | undefined, preTokens: number, timestamp: string, tip: string): Uint8Array {
  const uuid = (salt: string) => {
    const h = createHash('sha256').update(`${tip} ${salt}`).digest('hex');
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
  };
  const session: Record<string, unknown> = {};
  for (const k of ['userType', 'cwd', 'sessionId', 'version', 'gitBranch']) if (last?.[k] !== undefined) session[k] = last[k];
  const boundary = uuid('boundary');
  const text = `${CLAUDE_CONTINUATION}\n\n${Buffer.from(renderMarkdown(messages)).toString('utf8')}`;
  const lines = [
    { parentUuid: null, logicalParentUuid: last?.uuid ?? null, isSidechain: false, ...session, type: 'system', subtype: 'compact_boundary', content: 'Conversation compacted', isMeta: false, timestamp, uuid: boundary, level: 'info', compactMetadata: { trigger: 'manual', preTokens } },
    { parentUuid: boundary, isSidechain: false, ...session, type: 'user', message: { role: 'user', content: text }, isVisibleInTranscriptOnly: true, isCompactSummary: true, uuid: uuid('summary'), timestamp },
  ];
  return Buffer.from(lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
}
