// Every --json record is built here: its own type, not an internal object; test/json.test.ts pins
// each command's field list. Every record carries "v":1.
import type { UsageRow } from '../api/read/usage.js';
import type { CommitRecord, BranchInfo, ThreadInfo } from '../api/read/read.js';
import type { Cursor } from '../api/read/cursors.js';
import type { WrittenCommit } from '../api/write/write.js';
import type { BudgetReport } from '../api/read/budget.js';
import type { Materialized } from '../api/read/materialize.js';
import type { ClearResult, CompactResult } from '../api/write/compact.js';
import type { Restored, SavedSession } from '../api/sync/saves.js';
import type { SummaryOutcome } from '../api/write/summarize.js';
import type { VerifyReport } from '../api/maintain/verify.js';
import type { IndexStatus } from '../api/search/search-index.js';
import type { ExpiredBranch, GcReport } from '../api/maintain/gc.js';
import type { RefReport, SyncReport } from '../api/sync/sync.js';
import type { HooksReport, ImportResult, McpReport, ToolEffect } from '../api/capture/runtime.js';
import type { Resolution, SessionTip } from '../api/capture/resolve.js';
import type { AuditEntry, StateDiff, StateStats, StateValue, StateWrite } from '../api/state/state.js';
import type { GrepHit } from '../api/search/grep.js';
import type { FileTouch } from '../api/search/touched.js';
import type { GitHooksReport } from '../api/links/git-hooks.js';
import type { CodeCommit, DiffFile } from '../api/links/code-repo.js';
import type { WhyContext, WhyReport } from '../api/links/why.js';
import type { BlameLine } from '../api/links/blame.js';
import type { SessionSummary } from '../api/read/sessions-list.js';
import { fullId } from '../core/ids.js';
import { displaySummary } from '../core/summary.js';
import type { CtxError } from '../errors/index.js';
import type { NeutralMessage } from '../core/neutral.js';

export function initJson(path: string, created: boolean) {
  return { v: 1, path, created };
}

export function commitJson(r: CommitRecord) {
  return { v: 1, id: r.id, parent: r.parent, branches: r.branches, summary: r.summary, meta: r.meta, annotations: r.annotations, links: r.links };
}

export function logJson(r: CommitRecord) {
  const m = r.meta;
  return {
    v: 1,
    id: r.id,
    parent: r.parent,
    type: m.type,
    format: m.format,
    created_at: m.created_at,
    message_count: m.message_count,
    token_count: m.token_count,
    summary: r.summary,
    branches: r.branches,
    links: r.links,
    ...titleJson(m),
  };
}

/** `title` and `pr` where the chain's session has them (a runtime's title line, its pull request link). */
function titleJson(m: { source?: Record<string, unknown> }): { title?: string; pr?: { number: number; url: string; repository: string } } {
  const s = m.source as { title?: unknown; pr?: { number?: unknown; url?: unknown; repository?: unknown } } | undefined;
  const pr = s?.pr;
  return {
    ...(typeof s?.title === 'string' ? { title: s.title } : {}),
    ...(pr && typeof pr.number === 'number' && typeof pr.url === 'string' && typeof pr.repository === 'string' ? { pr: { number: pr.number, url: pr.url, repository: pr.repository } } : {}),
  };
}

export function writtenJson(w: WrittenCommit, branch: string) {
  return { v: 1, id: fullId(w.oid), branch, parent: w.parent === null ? null : fullId(w.parent), type: w.meta.type, format: w.meta.format };
}

export function branchJson(b: BranchInfo) {
  return { v: 1, name: b.name, id: b.id, type: b.meta.type, created_at: b.meta.created_at, summary: displaySummary(b.meta.summary, b.meta), ...titleJson(b.meta) };
}

/** `damaged`: what a damaged branch's ref held instead of a commit id (its id is then null). */
export function branchDeletedJson(branch: string, oid: string | null, damaged?: string) {
  return damaged === undefined ? { v: 1, deleted: branch, id: fullId(oid!) } : { v: 1, deleted: branch, id: null, damaged };
}

export function forkJson(branch: string, oid: string) {
  return { v: 1, branch, id: fullId(oid) };
}

/** The annotation as appended to the note (v, at, by, then what was given), and the commit. */
export function annotationJson(record: Record<string, unknown>, oid: string) {
  return { ...record, id: fullId(oid) };
}

/** `content` only when the bytes went to stdout: base64 for a binary format. */
export function materializedJson(m: Materialized, withContent: boolean) {
  const record: { v: 1; format: string; tier: string; stop: string; window: { since: string; start: string } | null; view: string; masked: number; commits: string[]; bytes: number; content?: string } = {
    v: 1,
    format: m.format,
    tier: m.tier,
    stop: m.stop,
    // the rolling window applied: as given (--since or ctx.window.<branch>) and the instant it starts
    window: m.window ? { since: m.window.since, start: m.window.start } : null,
    view: m.view,
    masked: m.masked,
    commits: m.commits,
    bytes: m.bytes.length,
  };
  if (withContent) record.content = Buffer.from(m.bytes).toString(m.binary ? 'base64' : 'utf8');
  return record;
}

export function budgetJson(b: BudgetReport) {
  return {
    v: 1,
    window: b.window,
    used: b.used,
    reserved_output: b.reservedOutput,
    reserved_system: b.reservedSystem,
    available: b.available,
    remaining: b.remaining,
    // JSON has no Infinity: null when nothing of the window is left for the context
    ratio: Number.isFinite(b.ratio) ? roundRatio(b.ratio) : null,
    threshold: b.threshold,
    over: b.over,
  };
}

/** Four decimals: enough to compare with a threshold, stable to print. */
export const roundRatio = (r: number) => Math.round(r * 1e4) / 1e4;

export function compactJson(done: CompactResult, branch: string) {
  return {
    v: 1,
    // null when nothing was written (every stage skipped)
    id: done.commit && fullId(done.commit.oid),
    branch,
    parent: done.commit && (done.commit.parent === null ? null : fullId(done.commit.parent)),
    format: done.format,
    compacted: done.from,
    caught_up: done.caughtUp.map((c) => fullId(c.oid)),
    messages_before: done.messagesBefore,
    messages_after: done.messagesAfter,
    tokens_before: done.tokensBefore,
    tokens_after: done.tokensAfter,
    stages: done.report,
  };
}

/** One per commit: `summary` when annotated, `error` when the command failed. */
export function summaryJson(o: SummaryOutcome) {
  return { v: 1, ...o };
}

export function verifyJson(r: VerifyReport) {
  return { v: 1, ok: r.problems.length === 0, commits: r.commits, problems: r.problems };
}

/** One record per expired branch, then the summary. */
export function gcBranchJson(e: ExpiredBranch) {
  return { v: 1, branch: e.branch, id: fullId(e.oid), created_at: e.created_at, pattern: e.pattern, retention: e.keep, action: e.action };
}

export function gcJson(r: GcReport) {
  return { v: 1, dry_run: r.dry_run, deleted: r.branches.filter((b) => b.action === 'deleted').length, before: r.before, after: r.after, derived_removed: r.derived_removed };
}

export function importJson(r: ImportResult, tip: string) {
  return { v: 1, branch: r.branch, session: r.session, commits: r.commits.length, bytes: r.bytes, id: fullId(tip) };
}

/** One file of a directory import. */
export function importFileJson(file: string, r: ImportResult, tip: string) {
  return { v: 1, file, branch: r.branch, session: r.session, commits: r.commits.length, bytes: r.bytes, id: fullId(tip), unchanged: r.commits.length === 0 };
}

/** A file of a directory import that failed: its error, as the CLI would print it alone. */
export function importFileErrorJson(file: string, e: CtxError) {
  return { v: 1, file, error: e.code, message: e.message, exit: e.exit };
}

export function hooksJson(action: string, r: HooksReport) {
  return { v: 1, action, path: r.path, changed: r.changed, installed: Object.values(r.events).every((c) => c !== null), events: r.events, ...(r.covers !== undefined ? { covers: r.covers } : {}) };
}

/** `ctx mcp install|uninstall|status RUNTIME`: ctx's server entry in the runtime's MCP configuration. */
export function mcpConfigJson(action: string, r: McpReport) {
  return { v: 1, action, path: r.path, changed: r.changed, installed: r.command !== null, command: r.command, ...(r.covers !== undefined ? { covers: r.covers } : {}) };
}

/** `ctx hooks … git`: each hook's state (ctx, chained, absent, other). */
export function gitHooksJson(action: string, r: GitHooksReport) {
  return { v: 1, action, path: r.path, changed: r.changed, installed: Object.values(r.hooks).every((s) => s === 'ctx' || s === 'chained'), hooks: r.hooks };
}

export function exportJson(sessionId: string, path: string, command: string, branch?: string) {
  return { v: 1, session_id: sessionId, path, command, ...(branch !== undefined ? { branch } : {}) };
}

/** `url` always redacted (`user:***@`). */
/** `ctx clone`: the store made and what it holds (counts of local branches and tags after the clone). */
export function cloneJson(path: string, url: string, filter: string | null, branches: number, tags: number) {
  return { v: 1, path, remote: 'origin', url, filter, branches, tags };
}

export function indexStatusJson(r: IndexStatus) {
  return { v: 1, path: r.path, exists: r.exists, current: r.current, commits: r.commits, refs: r.refs, bytes: r.bytes };
}

export function remoteJson(name: string, url: string) {
  return { v: 1, name, url };
}

export function remoteRemovedJson(name: string, url: string) {
  return { v: 1, removed: name, url };
}

export function refJson(s: SyncReport, r: RefReport) {
  return { v: 1, remote: s.remote, ref: r.ref, local: r.local, old: r.old, new: r.new, status: r.status, ok: r.ok, diverged: r.diverged };
}

export function clearJson(done: ClearResult, branch: string) {
  const c = done.commit;
  return {
    v: 1,
    id: fullId(c.oid),
    branch,
    parent: c.parent === null ? null : fullId(c.parent),
    format: done.format,
    cleared: done.from,
    caught_up: done.caughtUp.map((x) => fullId(x.oid)),
    messages_before: done.messagesBefore,
    tokens_before: done.tokensBefore,
  };
}

/** A saved session: `ctx save` prints the one made, `ctx sessions` one per line. */
export function sessionJson(s: SavedSession) {
  return {
    v: 1,
    name: s.name,
    id: s.id,
    branch: s.branch,
    saved_at: s.saved_at,
    by: s.by,
    description: s.description,
    summary: s.summary,
    message_count: s.message_count,
    token_count: s.token_count,
    format: s.format,
    window: { since: s.window.since, stop: s.window.stop, from: s.window.from, commits: s.window.commits },
  };
}

export function restoredJson(r: Restored) {
  return { v: 1, name: r.session.name, id: fullId(r.commit.oid), branch: r.branch, parent: r.previous === null ? null : fullId(r.previous), saved: r.session.id, format: r.commit.meta.format, message_count: r.commit.meta.message_count };
}

export function resolvedJson(r: Resolution) {
  return { v: 1, id: fullId(r.oid), principal: r.principal, at: r.at, created_at: r.created_at };
}

export function currentJson(s: SessionTip) {
  return { v: 1, id: fullId(s.oid), branch: s.branch, created_at: s.created_at, branches: s.branches };
}

export function threadJson(t: ThreadInfo) {
  return { v: 1, thread: t.thread, id: t.id, created_at: t.created_at, author: t.author, summary: t.summary, commits: t.commits };
}

export function cursorJson(c: Cursor) {
  return { v: 1, branch: c.branch, agent: c.agent, id: c.id, at: c.at };
}

export function stateWriteJson(w: StateWrite) {
  const r = w.record;
  return { v: 1, branch: w.branch, id: w.commit ? fullId(w.commit.oid) : null, op: r.op, agent: r.agent, keys: r.keys, diff: r.diff };
}

export function stateValueJson(s: StateValue) {
  return { v: 1, key: s.key, value: s.value };
}

export function policyJson(p: { id: string; agents: Record<string, string[]> }) {
  return { v: 1, id: p.id, agents: p.agents };
}

export function stateDiffJson(d: StateDiff) {
  return { v: 1, from: d.from, to: d.to, namespaces: d.namespaces };
}

export function auditJson(e: AuditEntry) {
  const s = e.state;
  return { v: 1, id: e.id, created_at: e.created_at, principal: e.principal, agent: s.agent, op: s.op, keys: s.keys, diff: s.diff, schema: s.schema ?? null };
}

export function statsJson(s: StateStats) {
  return { v: 1, id: s.id, schema: s.schema, total: s.total, namespaces: s.namespaces, arrays: s.arrays, externalized: s.externalized, limits: s.limits };
}

export function grepJson(h: GrepHit) {
  return { v: 1, commit: h.commit, branch: h.branch, entry: h.entry, role: h.role, at: h.at, snippet: h.snippet };
}

/** `ctx why`: one context that made a code commit, how it is known, and its conversation slice. */
export function whyJson(r: WhyReport, c: WhyContext) {
  const record = c.record ? { how: c.record.how, ...(c.record.from ? { from: c.record.from } : {}), at: c.record.at, by: c.record.by } : null;
  return {
    v: 1,
    code: r.commit.sha,
    context: c.id,
    known: c.known,
    in_store: c.inStore,
    via: c.via,
    record,
    session: c.session,
    branch: c.branch,
    runtime: c.runtime?.name ?? null,
    model: c.model,
    principal: c.principal,
    author: c.author,
    files: c.files,
    lines: c.lines,
    since: c.since,
    total: c.total,
    entries: c.entries.map((e) => ({ commit: e.commit, entry: e.entry, kind: e.kind, text: e.text, ...(e.tool !== undefined ? { tool: e.tool, paths: e.paths ?? [] } : {}), ...(e.at !== undefined ? { at: e.at } : {}) })),
  };
}

export function fileTouchJson(t: FileTouch) {
  return { v: 1, path: t.path, action: t.action, tool: t.tool, commit: t.commit, branch: t.branch, session: t.session, entry: t.entry, at: t.at };
}

// The web view's own records (ctx serve): what no command prints.

/** A line of `ctx log --all --graph`: the lanes drawn, and the commit's log record (null on a line that joins lanes). */
export function graphLineJson(graph: string, commit: CommitRecord | null) {
  return { v: 1, graph, commit: commit && logJson(commit) };
}

/** A code commit (the web view's /code/<sha>): who made it, its message, and its diff against its first parent in files and hunks. */
export function codeCommitJson(c: CodeCommit, files: DiffFile[]) {
  return { v: 1, sha: c.sha, parents: c.parents, author: c.author.name, author_email: c.author.email, authored_at: c.author.date, committer: c.committer.name, committer_email: c.committer.email, committed_at: c.committer.date, message: c.message, files };
}

/**
 * A page of a context's neutral messages: `total` in the whole context, `offset` of the first here,
 * `own` the index of the first message the commit's own artifact holds (a search hit's entry N is own + N).
 * A tool call its runtime knows carries `view` (ToolView: edit, write, shell, todo, read, patch,
 * agent); a compaction's summary, or the first message after a clear, carries `divider`
 * ({kind, commit, summary}, serve/marks.ts).
 */
export function messagesJson(id: string, total: number, offset: number, own: number, messages: readonly NeutralMessage[]) {
  return { v: 1, id, total, offset, own, messages };
}

/** A hit on the search page: grep's record, and where the match is in its snippet (JavaScript string indices), null when it is not there. */
export function searchHitJson(h: GrepHit, mark: [number, number] | null) {
  return { ...grepJson(h), mark };
}

/** The subagent run an agent call started, kept on a branch of its own: its messages are /api/messages?id=ID&stop=STOP (the run's own commits). */
export interface SubagentRun {
  id: string;
  stop: string;
  branch: string;
}

/** A compaction or a clear before a message of the web view (`summary`: the message is the compaction's summary itself). */
export interface Divider {
  kind: 'compaction' | 'clear';
  commit: string;
  summary: boolean;
}

/** What a part of a message the web view cut says (its `cut` field): where it is (`3`: content[3]; `3.1`: a tool result's block 1), its whole length in characters, its size in UTF-8 bytes. */
export interface Cut {
  part: string;
  length: number;
  bytes: number;
}

/** A piece of a message's part the page asked for (its parts are cut in pages): the text from `offset`, of `length` in all. */
export function partJson(id: string, entry: number, part: string, piece: { offset: number; text: string; length: number }) {
  return { v: 1, id, entry, part, offset: piece.offset, length: piece.length, text: piece.text };
}

/**
 * Two contexts (read from `stop`) compared from their fork point: `common` messages both begin with,
 * `fork_point` the index of the last of them (null: none), `base` the newest commit both chains hold
 * (null: none), how many messages each holds (`total_a`, `total_b`), and the start of each one's
 * continuation past the common ones, in order, each with its index.
 */
export function diffJson(a: string, b: string, d: { stop: string; base: string | null; common: number; totalA: number; totalB: number; onlyA: { index: number; message: NeutralMessage }[]; onlyB: { index: number; message: NeutralMessage }[] }) {
  return { v: 1, a, b, stop: d.stop, base: d.base, fork_point: d.common > 0 ? d.common - 1 : null, common: d.common, total_a: d.totalA, total_b: d.totalB, only_a: d.onlyA, only_b: d.onlyB };
}

/** One tool call's effect on a file (the web view's file history): the lines it took out and put in, [] when its arguments do not say. */
export function editJson(commit: string, entry: number, call: string, tool: string, t: ToolEffect) {
  return { v: 1, commit, entry, call, tool, action: t.action, path: t.path, removed: t.removed ?? [], added: t.added ?? [] };
}

/** How to resume a commit in a runtime: export it as a session, then the runtime's own resume command. */
export function resumeJson(runtime: string, title: string, native: boolean, command: string) {
  return { v: 1, runtime, title, native, command };
}

/** A runtime that exports (the web view offers its resume command): the formats its sessions are stored in. */
/** A session of the web view's start page (/api/sessions): a branch with its title, runtime, model, project, counts and the session it forks from. */
export function sessionSummaryJson(s: SessionSummary) {
  return { v: 1, branch: s.branch, id: s.id, title: s.title, titled: s.titled, runtime: s.runtime, format: s.format, model: s.model, project: s.project, created_at: s.created_at, updated_at: s.updated_at, commits: s.commits, message_count: s.message_count, token_count: s.token_count, fork: s.fork };
}

export function runtimeJson(name: string, title: string, formats: readonly string[]) {
  return { v: 1, runtime: name, title, formats };
}

/** A line of `ctx blame`: the code line, its code commit, and the context entry that wrote it (all null for `human`). */
export function blameLineJson(path: string, l: BlameLine) {
  return {
    v: 1,
    path,
    line: l.line,
    code: l.commit,
    original_line: l.original,
    author: l.author,
    author_mail: l.authorMail,
    author_time: new Date(l.authorTime * 1000).toISOString(),
    context: l.context === null ? null : fullId(l.context),
    how: l.how,
    entry: l.entry,
    tool: l.tool,
    tool_path: l.toolPath,
    branch: l.branch,
    session: l.session,
    prompt: l.prompt,
    text: l.text,
  };
}

/** `ctx runtime list`: one runtime, built in or an executable on PATH (`used`: false when a built-in name shadows it). */
export function runtimeListJson(r: { name: string; title?: string; capabilities?: string[]; path?: string; used?: boolean }) {
  return r.path === undefined
    ? { v: 1, name: r.name, source: 'built-in', title: r.title, capabilities: r.capabilities }
    : { v: 1, name: r.name, source: 'path', path: r.path, used: r.used !== false };
}

/** `ctx runtime check`: each check's result, and whether all passed. */
export function runtimeCheckJson(r: { runtime: string; path: string; checks: { name: string; result: string; reason?: string }[] }) {
  return { v: 1, runtime: r.runtime, path: r.path, ok: r.checks.every((c) => c.result === 'ok'), checks: r.checks.map((c) => ({ name: c.name, result: c.result, ...(c.reason !== undefined ? { reason: c.reason } : {}) })) };
}

/** `ctx usage`: one group's tokens and estimated cost; the last record is the total (`by: "total"`). */
export function usageJson(r: UsageRow, by: string) {
  return { v: 1, by, key: by === 'total' ? null : r.key, responses: r.responses, input_tokens: r.input, output_tokens: r.output, cache_read_tokens: r.cacheRead, cache_write_tokens: r.cacheWrite, cost_usd: r.cost, unpriced_models: r.unpriced };
}
