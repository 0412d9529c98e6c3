// Saved sessions: `ctx save` (an annotated tag on a branch's tip whose message carries a
// description and a `Ctx-Save:` JSON trailer), `ctx sessions` (them, newest first) and `ctx restore`
// (the saved context back as a branch's working context, on top of its tip: nothing lost).
import { canonicalJson } from '../../core/canonical-json.js';
import { fullId } from '../../core/ids.js';
import { isoMs, type Meta } from '../../core/meta.js';
import { ConflictError, IntegrityError, NotFoundError, UsageError } from '../../errors/index.js';
import { knownFormat } from '../../formats/registry.js';
import { checkBranchName, refs } from '../../store/refs.js';
import { parseTag, writeTagObject } from '../../store/tags.js';
import { runSummarizer } from '../write/compact.js';
import { neutralMessages, parseStop, readContext, readTipMeta } from '../read/context-reader.js';
import { materialize, windowOf } from '../read/materialize.js';
import { windowParts } from '../read/window.js';
import type { Window } from '../../core/window.js';
import type { RepoContext } from '../repo/repo-context.js';
import { screenFields, secretPolicy, type SecretPolicy } from '../write/secrets.js';
import { checkpoint, type WrittenCommit } from '../write/write.js';
import { MAX_SAVE_MESSAGE, mib, saveRecordProblem } from './save-record.js';

/** The trailer of a save's tag message: one line of canonical JSON. */
const TRAILER = 'Ctx-Save: ';
export const SAVE_STOPS = ['compaction', 'root'] as const;
export type SaveStop = (typeof SAVE_STOPS)[number];

/** What a save records (the `Ctx-Save:` trailer), besides the commit its tag points at. */
export interface SaveRecord {
  v: 1;
  /** the branch saved */
  branch: string;
  saved_at: string;
  summary: string;
  /** messages and tokens of the saved context, as its format counts them; null when this build cannot read the format */
  message_count: number | null;
  token_count: number | null;
  /** the format the saved context materializes in */
  format: string;
  /**
   * which messages: the start of the rolling window applied (ISO; null: none), the stop of the walk,
   * the oldest commit read (null: the window held nothing), how many
   */
  window: { since: string | null; stop: SaveStop; from: string | null; commits: number };
  /** secrets replaced in the description or summary (rule → count) */
  redactions?: Record<string, number>;
}

export interface SavedSession extends SaveRecord {
  /** the tag's name, without refs/tags/ */
  name: string;
  /** the commit saved (`ctx-<40 hex>`) */
  id: string;
  description: string;
  /** who saved it: the tag's tagger */
  by: string;
}

export interface SaveOptions {
  description: string;
  /** the tag's name; default `save/<branch>/<yyyymmdd-hhmmss>` (UTC) */
  name?: string;
  summary?: string;
  /** shell command: the saved messages as JSON on stdin, the summary on stdout */
  summarizer?: string;
  stop?: SaveStop;
  /** a rolling window (as materialize takes it); default: the branch's ctx.window.<branch> */
  since?: string;
  principal?: string;
  secrets?: SecretPolicy;
}

export async function save(ctx: RepoContext, branch: string, opts: SaveOptions): Promise<SavedSession & { warnings?: string[] }> {
  const stop = opts.stop ?? 'compaction';
  if (!SAVE_STOPS.includes(stop)) throw new UsageError(`a save materializes --stop compaction or root, not '${stop}'`);
  if (opts.summary !== undefined && opts.summarizer !== undefined) throw new UsageError('give --summary or --summarizer, not both');
  const tip = ctx.refs.read(refs.branch(checkBranchName(branch)));
  if (!tip) throw new NotFoundError(`no branch ${branch}`);
  const name = opts.name === undefined ? generatedName(ctx, branch) : checkBranchName(opts.name, 'save name');
  const ref = refs.tag(name);
  const existing = ctx.refs.read(ref);
  if (existing) throw new ConflictError(`saved session ${name} already exists (at ctx-${(await ctx.commitAt(ref, existing)).slice(0, 12)})`, { hint: 'choose another with --name NAME' });
  ctx.refs.checkCreatable(ref);
  // the window as an instant, so a restore reads the same messages whenever it runs
  const window = windowOf(ctx, branch, { stop, since: opts.since });
  const m = await materialize(ctx, tip, { stop, since: window?.start ?? 'all' });
  const fmt = knownFormat(m.format);
  const entries = fmt?.parse(m.bytes, { lastOfFile: true });
  const summary = opts.summary ?? (opts.summarizer !== undefined ? await summarize(ctx, tip, stop, window, opts.summarizer) : (await readTipMeta(ctx, tip)).summary);
  const principal = opts.principal ?? ctx.defaults.principal;
  const text = screenFields({ description: opts.description.trim(), summary: summary.trim(), principal }, secretPolicy(ctx.config, opts.secrets), (f) => `the ${f}`);
  const record: SaveRecord = {
    v: 1,
    branch,
    saved_at: isoMs(ctx.now()),
    summary: text.fields.summary!,
    message_count: fmt && entries ? fmt.count(entries) : null,
    token_count: fmt && entries ? (await ctx.tokenCounter()).count(fmt.tokenTexts(entries)) : null,
    format: m.format,
    window: { since: window?.start ?? null, stop, from: m.commits[0] ?? null, commits: m.commits.length },
    ...(text.redactions ? { redactions: text.redactions } : {}),
  };
  const description = text.fields.description!;
  const tagger = ctx.signature(text.fields.principal);
  const message = `${description === '' ? `save of ${branch}` : description}\n\n${TRAILER}${canonicalJson(record)}\n`;
  // what ctx sessions would refuse to list is never written
  if (Buffer.byteLength(message) > MAX_SAVE_MESSAGE - 4096) throw new UsageError(`a save's description and summary take at most 1 MiB, not ${mib(Buffer.byteLength(message))}`);
  const tag = writeTagObject(ctx.gitdir, tip, name, tagger, message);
  ctx.refs.update(ref, tag, null);
  return { ...record, name, id: fullId(tip), description, by: tagger.name, ...(text.warnings.length ? { warnings: text.warnings } : {}) };
}

/** Every saved session (annotated tags with a `Ctx-Save:` trailer), newest first; other tags are not saves. */
export async function sessions(ctx: RepoContext): Promise<SavedSession[]> {
  const tags = ctx.refs.list(refs.tags);
  const objects = await ctx.engine.readObjects(tags.map((t) => t.oid));
  const out: SavedSession[] = [];
  tags.forEach((t, i) => {
    const name = t.ref.slice(refs.tags.length);
    const s = objects[i]?.type === 'tag' ? savedSession(name, objects[i]!.data) : null;
    // a forged record (a fetched tag) is named and left out, never printed or used
    if (s && 'problem' in s) ctx.warn(`skipping saved session ${name}: ${s.problem}`);
    else if (s) out.push(s);
  });
  return out.sort((a, b) => (a.saved_at !== b.saved_at ? (a.saved_at < b.saved_at ? 1 : -1) : a.name < b.name ? -1 : 1));
}

export async function findSession(ctx: RepoContext, name: string): Promise<SavedSession> {
  const oid = ctx.refs.read(refs.tag(checkBranchName(name, 'save name')));
  const o = oid ? await ctx.engine.readObject(oid) : null;
  const s = o?.type === 'tag' ? savedSession(name, o.data) : null;
  if (s && 'problem' in s) throw new IntegrityError(`saved session ${name}: ${s.problem}`, { hint: `ctx sessions lists the others; git tag -d ${name} removes it` });
  if (!s) throw new NotFoundError(oid ? `${name} is a tag, not a saved session` : `no saved session ${name}: ctx sessions lists them`, { hint: 'ctx sessions lists them' });
  return s;
}

export interface Restored {
  session: SavedSession;
  branch: string;
  /** the branch's tip before the restore (null: the branch was made by it) */
  previous: string | null;
  commit: WrittenCommit;
}

/**
 * The saved context back as BRANCH's working context (default: the branch it was saved from): a
 * compaction commit whose artifact is the saved context, on top of the branch's tip. A default
 * materialization then starts at it; the tip before stays in the chain, and `--stop root` passes over
 * the restore (it is a compaction ctx wrote), so it still reads every byte the branch held.
 */
export async function restore(ctx: RepoContext, name: string, opts: { branch?: string } = {}): Promise<Restored> {
  const session = await findSession(ctx, name);
  const branch = checkBranchName(opts.branch ?? session.branch);
  const ref = refs.branch(branch);
  ctx.refs.checkCreatable(ref);
  const saved = session.id.slice(4);
  const m = await materialize(ctx, saved, { stop: session.window.stop, since: session.window.since ?? 'all' });
  if (!knownFormat(m.format)) throw new UsageError(`${name} holds ${m.from.join(', ')}, which this build cannot store again`);
  const previous = ctx.refs.read(ref);
  const meta: Meta = await readTipMeta(ctx, saved);
  const commit = await checkpoint(ctx, {
    branch,
    format: m.format,
    artifact: m.bytes,
    ...(previous ? { parent: previous } : {}),
    type: 'compaction',
    trigger: 'explicit',
    template: meta.template,
    session: meta.session_id,
    summary: `restored ${name}`,
    // the commit it stands on: live capture goes on from there
    source: { kind: 'ctx-compact', of: fullId(previous ?? saved), policy: 'restore', save: name, saved: session.id },
    // the saved context as materialized: its last line may be a file's own last line
    lastOfFile: true,
  });
  return { session, branch, previous, commit };
}

/** A save read from its tag: null when the tag is no save (another tool's), `problem` when it is one ctx does not trust. */
function savedSession(name: string, data: Uint8Array): SavedSession | { problem: string } | null {
  const tag = parseTag(data);
  if (!tag || tag.type !== 'commit') return null;
  const at = tag.message.lastIndexOf(`\n${TRAILER}`);
  if (at < 0) return null;
  if (data.length > MAX_SAVE_MESSAGE) return { problem: `its message is ${mib(data.length)}, over ${mib(MAX_SAVE_MESSAGE).replace('.0', '')}` };
  let record: SaveRecord;
  try {
    record = JSON.parse(tag.message.slice(at + 1 + TRAILER.length).split('\n')[0]);
  } catch {
    return null; // a tag another tool wrote with a line that only looks like ours
  }
  if (record?.v !== 1) return null;
  const problem = saveRecordProblem(record as unknown as Record<string, unknown>);
  if (problem) return { problem };
  return { ...record, name, id: fullId(tag.object), description: tag.message.slice(0, at).trimEnd(), by: tag.tagger.replace(/ <.*$/, '') };
}

/** `save/<branch>/<yyyymmdd-hhmmss>`, with `-2`, `-3`… when a save of the same second exists. */
function generatedName(ctx: RepoContext, branch: string): string {
  const stamp = isoMs(ctx.now()).replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  const base = `save/${branch}/${stamp}`;
  for (let n = 1; ; n++) {
    const name = n === 1 ? base : `${base}-${n}`;
    if (ctx.refs.read(refs.tag(name)) === null) return checkBranchName(name, 'save name');
  }
}

async function summarize(ctx: RepoContext, tip: string, stop: SaveStop, window: Window | null, command: string): Promise<string> {
  const { parts } = await readContext(ctx, tip, await parseStop(ctx, stop));
  return runSummarizer(command)(neutralMessages(window ? await windowParts(ctx, parts, Date.parse(window.start)) : parts));
}
