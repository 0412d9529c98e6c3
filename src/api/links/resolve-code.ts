// From a code commit to the contexts that made it, and how each is known: a link record in the
// store (recorded), a `Ctx-Context:` line the context's tool calls bear out (verified), one they do
// not or the store does not hold (claimed: reported, never acted on), or neither but the commit's
// added lines found among what the sessions wrote (matched). `(cherry picked from commit X)` leads to
// X's links too.
import { cherryPickedFrom, contextClaims, type LinkRecord } from '../../core/links.js';
import { CtxError } from '../../errors/index.js';
import { addedLines, changedFiles, codeCommit, resolveCode, type AddedLines, type CodeCommit, type CodeFileChange } from '../../store/code/history.js';
import { effectsReader, type EffectsReader } from '../search/effects.js';
import type { RepoContext } from '../repo/repo-context.js';
import { contentIndex, normalise, type ContentHit } from './content-index.js';
import { linkIndex, type ContextLink } from './records.js';
import { drainAt } from './drain.js';
import { namesFile, readChain, verifyAgainst, type Verification } from './verify-link.js';

export type LinkKnown = 'recorded' | 'verified' | 'claimed' | 'matched';

/** One context that made (or is said to have made) a code commit. */
export interface CodeContext {
  /** the context commit, 40 hex */
  context: string;
  known: LinkKnown;
  /** whether the store holds the context commit (a claim may name one it does not) */
  inStore: boolean;
  /** the code commit the link was found on: the commit asked about, or the one it was cherry-picked from */
  via: string;
  /** `recorded`: the link record (its `how` is recorded or rewritten) */
  record?: LinkRecord;
  /** the commit's files the context edited or wrote (a record's files when recorded) */
  files: string[];
  /** how many of the commit's added lines the context wrote (not counted for a record) */
  lines: number;
}

/** A code commit and the contexts that made it. */
export interface CodeContexts {
  /** the work tree's top */
  repo: string;
  commit: CodeCommit;
  files: CodeFileChange[];
  added: AddedLines[];
  contexts: CodeContext[];
}

/** What one call reads once: the link index and the effects reader. */
interface Reads {
  index: Map<string, ContextLink[]>;
  effects: EffectsReader;
}

/**
 * The contexts that made the code commit `rev` (a sha, or any revision) of the repository at
 * `codeCwd`. Recorded ones first, then the message's claims in order, then those of the commit it
 * was cherry-picked from; each context once, by the strongest way it is known.
 */
export async function contextsOfCode(ctx: RepoContext, codeCwd: string, rev: string): Promise<CodeContexts> {
  const { sha, top } = resolveCode(codeCwd, rev);
  await drainAt(ctx, top);
  const commit = codeCommit(top, sha);
  const files = changedFiles(top, sha);
  const added = addedLines(top, sha);
  const reads: Reads = { index: await linkIndex(ctx), effects: await effectsReader() };
  const out: CodeContext[] = [];
  const paths = [...new Set([...files.map((f) => f.path), ...added.map((a) => a.path)])];
  await collect(ctx, reads, top, commit, paths, added, out, new Set([sha]));
  const result: CodeContexts = { repo: top, commit, files, added, contexts: out };
  if (!out.some((c) => c.known === 'recorded' || c.known === 'verified')) for (const m of await matched(ctx, sha, top, added)) add(out, m);
  return result;
}

const RANK: Record<LinkKnown, number> = { recorded: 0, verified: 1, matched: 2, claimed: 3 };

function add(out: CodeContext[], c: CodeContext): void {
  const i = out.findIndex((o) => o.context === c.context);
  if (i < 0) out.push(c);
  else if (RANK[c.known] < RANK[out[i].known]) out[i] = c;
}

/** The links of `commit` (and, through cherry-pick lines, of the commits it was picked from) into `out`. */
async function collect(ctx: RepoContext, reads: Reads, top: string, commit: CodeCommit, paths: string[], added: AddedLines[], out: CodeContext[], seen: Set<string>): Promise<void> {
  for (const { context, link } of reads.index.get(commit.sha) ?? []) add(out, { context, known: 'recorded', inStore: true, via: commit.sha, record: link, files: link.files ?? [], lines: 0 });
  for (const context of contextClaims(commit.message)) {
    if (out.some((o) => o.context === context && o.known === 'recorded')) continue;
    const v = await verified(ctx, reads, context, paths, added, top);
    const did = v !== null && v !== 'unreadable' ? v : null;
    add(out, { context, known: did?.verified ? 'verified' : 'claimed', inStore: v !== null, via: commit.sha, files: did?.files ?? [], lines: did?.lines ?? 0 });
  }
  for (const from of cherryPickedFrom(commit.message)) {
    if (seen.has(from) || seen.size > 16) continue;
    seen.add(from);
    let picked: CodeCommit;
    try {
      picked = codeCommit(top, from);
    } catch {
      // the source is not in this clone: its recorded links still are
      for (const { context, link } of reads.index.get(from) ?? []) add(out, { context, known: 'recorded', inStore: true, via: from, record: link, files: link.files ?? [], lines: 0 });
      continue;
    }
    await collect(ctx, reads, top, picked, paths, added, out, seen);
  }
}

/**
 * What a named context's tool calls did to the commit, read from its tip back (the last 16 commits,
 * then 512, then all) until they verify it: a true claim is mostly borne out by the last turns.
 * null: the store does not hold it; `unreadable`: it does but cannot read it (damage, a format this
 * build does not know), so it stays a claim.
 */
async function verified(ctx: RepoContext, reads: Reads, context: string, paths: string[], added: AddedLines[], top: string): Promise<Verification | null | 'unreadable'> {
  try {
    let v: Verification | null = null;
    for (const depth of [16, 512, Infinity]) {
      const chain = await readChain(ctx, context, depth, reads.effects);
      if (!chain) return null;
      v = verifyAgainst(chain.messages, paths, added, top);
      if (v.verified || chain.complete) break;
    }
    return v;
  } catch (e) {
    if (e instanceof CtxError) return 'unreadable';
    throw e;
  }
}

/**
 * The sessions whose tool calls wrote at least a quarter of the commit's added lines (as the content
 * index normalises them), each as the context commit of that session that holds its latest such write.
 */
async function matched(ctx: RepoContext, sha: string, top: string, added: AddedLines[]): Promise<CodeContext[]> {
  const keys: { path: string; key: string }[] = [];
  for (const f of added)
    for (const [, text] of f.lines) {
      const key = normalise(text);
      if (key !== null) keys.push({ path: f.path, key });
    }
  if (keys.length === 0) return [];
  const index = await contentIndex(ctx);
  // per session: the lines it wrote, the files, and the context commits that wrote them
  const bySession = new Map<string, { lines: number; files: Set<string>; contexts: string[] }>();
  for (const { path, key } of keys) {
    const hits = index.hits(key);
    const sessions = new Map<string, ContentHit[]>();
    for (const h of hits) (sessions.get(h.session) ?? sessions.set(h.session, []).get(h.session)!).push(h);
    for (const [session, hs] of sessions) {
      const s = bySession.get(session) ?? bySession.set(session, { lines: 0, files: new Set(), contexts: [] }).get(session)!;
      s.lines++;
      for (const h of hs) {
        if (namesFile(h.path, path, top)) s.files.add(path);
        if (!s.contexts.includes(h.context)) s.contexts.push(h.context);
      }
    }
  }
  const out: CodeContext[] = [];
  for (const s of bySession.values()) {
    if (s.lines * 4 < keys.length) continue;
    out.push({ context: await latest(ctx, s.contexts), known: 'matched', inStore: true, via: sha, files: [...s.files], lines: s.lines });
  }
  return out.sort((a, b) => b.lines - a.lines);
}

/** Of context commits of one session, the one whose chain holds the most of the others (the latest write). */
async function latest(ctx: RepoContext, contexts: string[]): Promise<string> {
  if (contexts.length === 1) return contexts[0];
  let best = contexts[contexts.length - 1];
  let most = -1;
  for (const c of contexts.slice(0, 16)) {
    const chain = new Set((await ctx.engine.chain(c)).map((l) => l.oid));
    const n = contexts.filter((o) => chain.has(o)).length;
    if (n > most) (best = c), (most = n);
  }
  return best;
}
