// Before a push: what is new to the remote is scanned with the project's secret rules (each commit's
// artifact, meta.json and message with its author, the annotations, and annotated tags' messages); a finding blocks the push
// (commit ids, where, rule names, never the secret) unless --allow-secrets.
import { shortId } from '../../core/ids.js';
import { scanSecrets } from '../../core/secret-rules.js';
import { SecretFoundError } from '../../errors/index.js';
import { artifactEntry, readArtifactsAt } from '../../store/context-commits.js';
import { parseCommit, parseTree } from '../../store/objects.js';
import { refs } from '../../store/refs.js';
import { hasObject, reachable } from '../../store/commit-graph.js';
import { notesIndexAt } from '../../store/notes.js';
import type { PushUpdate } from '../../store/sync/transport.js';
import type { RepoContext } from '../repo/repo-context.js';
import { openScanCache, type ScanCache } from './scan-cache.js';

const BATCH = 512;

const rulesIn = (bytes: Uint8Array) => [...new Set(scanSecrets(bytes).map((f) => f.rule))];

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
  const fresh = (await reachable(ctx.engine, tips, new Set(remote.values()))).filter((c) => !cache.has(c));
  for (let i = 0; i < fresh.length; i += BATCH) {
    const oids = fresh.slice(i, i + BATCH);
    const commits = await ctx.engine.readObjects(oids);
    const trees = await ctx.engine.readObjects(commits.map((c) => parseCommit(c!.data).tree));
    const items: { oid: string; spec: string }[] = [];
    const metas: { oid: string; blob: string }[] = [];
    const where = new Map<string, Set<string>>();
    const flag = (oid: string, rules: string[]) => rules.forEach((r) => (where.get(oid) ?? where.set(oid, new Set()).get(oid)!).add(r));
    oids.forEach((oid, j) => {
      // the commit object: its message (the summary is its subject) and author
      flag(oid, rulesIn(commits[j]!.data));
      const entries = trees[j] ? parseTree(trees[j]!.data) : [];
      // a commit that is not a context commit has no artifact to scan
      const art = artifactEntry(entries);
      if (art) items.push({ oid, spec: art.oid });
      const meta = entries.find((e) => e.name === 'meta.json');
      if (meta) metas.push({ oid, blob: meta.oid });
    });
    const arts = await readArtifactsAt(ctx.engine, items);
    items.forEach((it, j) => flag(it.oid, rulesIn(arts[j])));
    const metaBlobs = await ctx.engine.readObjects(metas.map((m) => m.blob));
    metas.forEach((m, j) => flag(m.oid, metaBlobs[j] ? rulesIn(metaBlobs[j]!.data) : []));
    for (const oid of oids) {
      const rules = where.get(oid);
      if (rules?.size) found.push(`${shortId(oid)} (${[...rules].sort().join(', ')})`);
    }
    cache.add(oids.filter((oid) => !where.get(oid)?.size));
  }
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
