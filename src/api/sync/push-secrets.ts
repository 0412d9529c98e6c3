// Before a push: what is new to the remote is scanned with the project's secret rules (each commit's
// artifact, meta.json and message with its author, the annotations, and annotated tags' messages); a finding blocks the push
// (commit ids, where, rule names, never the secret) unless --allow-secrets.
import { shortId } from '../../core/ids.js';
import { scanSecrets } from '../../core/secret-rules.js';
import { IntegrityError, SecretFoundError } from '../../errors/index.js';
import { artifactEntry, readArtifactsAt } from '../../store/context-commits.js';
import { parseCommit, parseTree } from '../../store/objects.js';
import { refs } from '../../store/refs.js';
import { hasObject } from '../../store/commit-graph.js';
import { StoreDamage, UnreadableObject } from '../../store/damage.js';
import type { Engine, GitObject } from '../../store/engine.js';
import { notesIndexAt } from '../../store/notes.js';
import type { PushUpdate } from '../../store/sync/transport.js';
import type { RepoContext } from '../repo/repo-context.js';
import { openScanCache, type ScanCache } from './scan-cache.js';

/** Objects read at once where the engine cannot hand them over one by one. */
const BATCH = 2048;
/** Bytes of texts scanned as one. */
const GROUP_BYTES = 4 << 20;

const rulesIn = (bytes: Uint8Array) => [...new Set(scanSecrets(bytes).map((f) => f.rule))];

// Between two texts scanned as one: no rule's match holds a NUL, nor a line break next to one where it
// needs a value, so no match spans two texts, and each text's own matches are found where they were.
const SEP = Buffer.from('\n\0\n', 'latin1');

/**
 * Texts scanned as one (a scan costs mostly per pass, not per byte), each followed by SEP, with where
 * each commit's texts are. The joined scan never misses what a text alone holds; it may rarely find
 * what none does (the escape-decoded lines of two texts read as neighbours), so a finding is checked text by text.
 */
class Group {
  private buf = Buffer.allocUnsafe(1 << 16);
  size = 0;
  readonly texts = new Map<string, [number, number][]>();

  add(oid: string, data: Uint8Array): void {
    if (this.size + data.length + SEP.length > this.buf.length) {
      const grown = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.size + data.length + SEP.length));
      this.buf.copy(grown, 0, 0, this.size);
      this.buf = grown;
    }
    this.buf.set(data, this.size);
    const span: [number, number] = [this.size, this.size + data.length];
    SEP.copy(this.buf, span[1]);
    this.size = span[1] + SEP.length;
    const spans = this.texts.get(oid);
    if (spans) spans.push(span);
    else this.texts.set(oid, [span]);
  }

  bytes(): Buffer {
    return this.buf.subarray(0, this.size);
  }

  clear(): void {
    this.size = 0;
    this.texts.clear();
  }
}

/**
 * The commits reachable from `tips` without passing `stop`, breadth first as `reachable` walks them,
 * with their bytes, skipping (but walking past) those `known` says are clean.
 */
async function freshCommits(engine: Engine, tips: readonly string[], stop: ReadonlySet<string>, known: (oid: string) => boolean): Promise<{ oid: string; data: Uint8Array }[]> {
  const seen = new Set<string>();
  const out: { oid: string; data: Uint8Array }[] = [];
  for (let level = tips.filter((t) => !stop.has(t)); level.length; ) {
    level = level.filter((o) => !seen.has(o));
    level.forEach((o) => seen.add(o));
    const objs = await engine.readObjects(level);
    const next: string[] = [];
    objs.forEach((o, i) => {
      if (o?.type !== 'commit') return;
      if (!known(level[i])) out.push({ oid: level[i], data: o.data });
      for (const p of parseCommit(o.data).parents) if (!stop.has(p) && !seen.has(p)) next.push(p);
    });
    level = next;
  }
  return out;
}

/**
 * Each object handed over in order as it arrives, through one git where the engine streams (one
 * process keeps its cache of delta bases: the artifacts of a store are deltas of each other); `data` is valid during the call.
 */
async function eachObject(engine: Engine, specs: readonly string[], each: (i: number, obj: GitObject | null) => void): Promise<void> {
  if (engine.readEach) return engine.readEach(specs, each);
  for (let i = 0; i < specs.length; i += BATCH) (await engine.readObjects(specs.slice(i, i + BATCH))).forEach((o, j) => each(i + j, o));
}

/**
 * Which rules each fresh commit's texts break (none: clean): its commit object (the message, whose
 * subject is the summary, and the author), its artifact (a chunked one whole) and its meta.json.
 */
async function scanCommits(engine: Engine, fresh: readonly { oid: string; data: Uint8Array }[]): Promise<Map<string, string[]>> {
  const layout: { art?: string; chunked?: boolean; meta?: string }[] = fresh.map(() => ({}));
  await eachObject(engine, fresh.map((c) => parseCommit(c.data).tree), (i, tree) => {
    if (tree?.type !== 'tree') return;
    const entries = parseTree(tree.data);
    // a commit that is not a context commit has no artifact to scan
    const art = artifactEntry(entries);
    layout[i] = { art: art?.oid, chunked: art?.chunked, meta: entries.find((e) => e.name === 'meta.json')?.oid };
  });
  const verdict = new Map<string, string[]>();
  const group = new Group();
  const judge = () => {
    // the usual case, nothing anywhere: one scan of them all says so; else each text is scanned alone to say where
    const any = scanSecrets(group.bytes()).length > 0;
    for (const [oid, spans] of group.texts) verdict.set(oid, any ? [...new Set(spans.flatMap(([from, to]) => rulesIn(group.bytes().subarray(from, to))))] : []);
    group.clear();
  };
  // a chunked artifact is read whole, after the others
  const chunked = new Map<string, { oid: string; spec: string; texts: Uint8Array[] }>();
  const specs: string[] = [];
  const owner: number[] = [];
  const isArt: boolean[] = [];
  layout.forEach((l, i) => {
    if (l.art && !l.chunked) (specs.push(l.art), owner.push(i), isArt.push(true));
    if (l.meta) (specs.push(l.meta), owner.push(i), isArt.push(false));
  });
  let next = 0; // the next commit to enter a group: each enters with its commit object, in order
  const enter = (upTo: number) => {
    for (; next <= upTo; next++) {
      const c = fresh[next];
      const l = layout[next];
      if (l.art && l.chunked) chunked.set(c.oid, { oid: c.oid, spec: l.art, texts: [c.data] });
      else group.add(c.oid, c.data);
    }
  };
  try {
    await eachObject(engine, specs, (k, obj) => {
      const i = owner[k];
      if (i !== owner[k - 1] && group.size >= GROUP_BYTES) judge();
      enter(i);
      const oid = fresh[i].oid;
      if (!obj && isArt[k]) throw new IntegrityError(`${shortId(oid)}: artifact is missing`);
      if (!obj) return;
      const c = chunked.get(oid);
      if (c) c.texts.push(Buffer.from(obj.data)); // a view valid during this call only
      else group.add(oid, obj.data);
    });
  } catch (e) {
    const k = e instanceof UnreadableObject ? specs.indexOf(e.spec) : -1;
    throw k >= 0 && isArt[k] ? new StoreDamage(fresh[owner[k]].oid, 'artifact is damaged', { cause: e }) : e;
  }
  enter(fresh.length - 1);
  judge();
  const rest = [...chunked.values()];
  for (let i = 0; i < rest.length; i += BATCH) {
    const some = rest.slice(i, i + BATCH);
    const arts = await readArtifactsAt(engine, some);
    some.forEach((c, j) => verdict.set(c.oid, [...new Set([...c.texts, arts[j]].flatMap(rulesIn))]));
  }
  return verdict;
}

export async function scanOutgoing(ctx: RepoContext, updates: readonly PushUpdate[], remote: ReadonlyMap<string, string>): Promise<void> {
  const tips: string[] = [];
  const found: string[] = [];
  const inNotes: string[] = [];
  const inTags: string[] = [];
  for (const u of updates) {
    if (u.src === refs.notes) inNotes.push(...(await scanNotes(ctx, u.oid, remote.get(refs.notes) ?? null)));
    else {
      const commit = await ctx.peel(u.oid);
      // an annotated tag (a saved session) carries a message of its own
      if (commit !== u.oid && u.old !== u.oid) {
        const [tag] = await ctx.engine.readObjects([u.oid]);
        const rules = tag ? rulesIn(tag.data) : [];
        if (rules.length) inTags.push(`tag ${u.src.replace(/^refs\/tags\//, '')} (${rules.sort().join(', ')})`);
      }
      tips.push(commit);
    }
  }
  // commits the remote's refs reach are not new to it (commits past a remote tip we lack are scanned too: safe side)
  const cache = scanCache(ctx.gitdir);
  // commits scanned clean before (by an earlier push, under these rules) are not read again
  const fresh = await freshCommits(ctx.engine, tips, new Set(remote.values()), cache.has);
  const verdict = await scanCommits(ctx.engine, fresh);
  for (const { oid } of fresh) {
    const rules = verdict.get(oid)!;
    if (rules.length) found.push(`${shortId(oid)} (${rules.sort().join(', ')})`);
  }
  cache.add(fresh.filter((c) => verdict.get(c.oid)!.length === 0).map((c) => c.oid));
  const commits = found.length;
  found.push(...inNotes, ...inTags);
  if (found.length) {
    const count = (n: number, what: string) => (n ? [`${n} ${what}${n === 1 ? '' : 's'}`] : []);
    const what = [...count(commits, 'commit'), ...count(inNotes.length, 'annotation'), ...count(inTags.length, 'tag')].join(' and ');
    throw new SecretFoundError(`push blocked: ${what} new to the remote hold secrets: ${found.slice(0, 10).join(', ')}${found.length > 10 ? ', …' : ''}`, {
      hint: 'remove them (fork before the commit), or push anyway with --allow-secrets',
    });
  }
}

/** The store's cache of clean commits; where it cannot be read or written (a read-only store), none: every commit is scanned. */
function scanCache(gitdir: string): ScanCache {
  const none: ScanCache = { has: () => false, add: () => {} };
  let cache: ScanCache;
  try {
    cache = openScanCache(gitdir);
  } catch {
    return none;
  }
  return {
    has: cache.has,
    add(commits) {
      try {
        cache.add(commits);
      } catch {
        // a cache: a push never fails for it
      }
    },
  };
}

/** Annotations new to the remote: note blobs at our notes tip that its notes tip (when we have it) lacks. */
async function scanNotes(ctx: RepoContext, tip: string, theirs: string | null): Promise<string[]> {
  const ours = await notesIndexAt(ctx.engine, tip);
  const known = new Set<string>();
  if (theirs && (await hasObject(ctx.engine, theirs))) for (const n of (await notesIndexAt(ctx.engine, theirs)).values()) known.add(n.oid);
  const fresh = [...ours].filter(([, n]) => !known.has(n.oid));
  const blobs = await ctx.engine.readObjects(fresh.map(([, n]) => n.oid));
  const out: string[] = [];
  fresh.forEach(([commit], i) => {
    const rules = blobs[i] ? rulesIn(blobs[i]!.data) : [];
    if (rules.length) out.push(`annotation of ${shortId(commit)} (${rules.sort().join(', ')})`);
  });
  return out;
}
