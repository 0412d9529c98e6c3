// Where a thread's checkpoints are: the commits on its namespace's lines (the branch, and the older
// lines a fork left), each commit's checkpoint read once from meta.json and kept (commits never change).
import type { RepoContext } from '../../api/repo/repo-context.js';
import { readEntries } from '../../store/context-commits.js';
import { parseTree } from '../../store/objects.js';
import { refs } from '../../store/refs.js';
import { DIR } from './layout.js';
import { lineBranch, parseLineBranch, threadPrefix, BRANCH_PREFIX } from './names.js';

/** meta.json `source` of a checkpoint commit. */
export interface CheckpointSource {
  kind: 'langgraph';
  thread: string;
  ns: string;
  checkpoint: string;
  parent?: string;
  /** pending writes in its tree */
  writes: number;
  /** the messages channel's length and last id, for the next checkpoint's artifact */
  messages: number;
  last_message?: string;
}

const tipsOf = (lines: readonly Line[]) => lines.map((l) => `${l.branch} ${l.tip}`).join('\n');

/** bytes of blobs a saver keeps in memory */
const BLOB_CACHE = 32 * 1024 * 1024;

/** commits read a time while a line is indexed */
const WALK = 256;

export interface CheckpointCommit {
  oid: string;
  source: CheckpointSource;
}

export interface Line {
  branch: string;
  line: number;
  tip: string;
}

export class ThreadLines {
  private readonly sources = new Map<string, CheckpointSource>();
  private readonly entries = new Map<string, Map<string, string>>();
  /** per `<thread>/<ns>` branch prefix: the tips it was built at, each checkpoint's newest commit */
  private readonly indexes = new Map<string, { tips: string; byId: Map<string, CheckpointCommit>; seen: Set<string> }>();

  /** blob id → bytes, least recently used first */
  private readonly blobCache = new Map<string, Uint8Array>();
  private cachedBytes = 0;

  constructor(private readonly ctx: RepoContext) {}

  /** The namespace's lines, the branch (line 0) first. */
  lines(thread: string, ns: string): Line[] {
    const out: Line[] = [];
    for (const { ref, oid } of this.ctx.refs.list(refs.branch(threadPrefix(thread)))) {
      const branch = ref.slice(refs.heads.length);
      const name = parseLineBranch(branch);
      if (name && name.ns === ns && name.thread === thread) out.push({ branch, line: name.line, tip: oid });
    }
    return out.sort((a, b) => a.line - b.line);
  }

  /** The namespace's branch tip (line 0), read alone: the newest checkpoint needs no listing of the lines. */
  tip(thread: string, ns: string): string | null {
    return this.ctx.refs.read(refs.branch(lineBranch(thread, ns)));
  }

  /** Threads and namespaces that have a branch, in name order. */
  namespaces(thread?: string): { thread: string; ns: string }[] {
    const seen = new Map<string, { thread: string; ns: string }>();
    for (const { ref } of this.ctx.refs.list(refs.branch(thread === undefined ? BRANCH_PREFIX : threadPrefix(thread)))) {
      const name = parseLineBranch(ref.slice(refs.heads.length));
      if (name && name.line === 0) seen.set(ref, { thread: name.thread, ns: name.ns });
    }
    return [...seen.keys()].sort().map((k) => seen.get(k)!);
  }

  /** The checkpoint each commit holds (meta.json `source`), read in one pass for those not yet known. */
  async sourcesOf(links: readonly { oid: string; tree: string }[]): Promise<CheckpointSource[]> {
    const unknown = links.filter((l) => !this.sources.has(l.oid));
    if (unknown.length) for (const e of await readEntries(this.ctx.engine, unknown)) this.sources.set(e.oid, e.meta.source as unknown as CheckpointSource);
    return links.map((l) => this.sources.get(l.oid)!);
  }

  /** The checkpoint at a commit. */
  async sourceAt(oid: string): Promise<CheckpointSource> {
    const known = this.sources.get(oid);
    if (known) return known;
    const [link] = await this.ctx.engine.chain(oid, 1);
    return (await this.sourcesOf([link]))[0];
  }

  /** A commit this process wrote: known without reading it back. */
  wrote(oid: string, source: CheckpointSource, entries: Map<string, string>): void {
    this.sources.set(oid, source);
    this.entries.set(oid, entries);
  }

  /** Every checkpoint of the namespace by id, each at its newest commit (the one holding the most pending writes). */
  async checkpoints(thread: string, ns: string, lines = this.lines(thread, ns)): Promise<Map<string, CheckpointCommit>> {
    const key = lineBranch(thread, ns);
    const tips = tipsOf(lines);
    const index = this.indexes.get(key) ?? { tips: '', byId: new Map<string, CheckpointCommit>(), seen: new Set<string>() };
    if (index.tips === tips) return index.byId;
    // a line that moved is read from its tip down to the first commit already indexed
    for (const line of lines) {
      for (let from = line.tip, skip = 0; ; skip = 1) {
        const links = (await this.ctx.engine.chain(from, WALK + skip)).slice(skip);
        const fresh = links.findIndex((l) => index.seen.has(l.oid));
        const take = fresh < 0 ? links : links.slice(0, fresh);
        const sources = await this.sourcesOf(take);
        take.forEach((l, i) => {
          const s = sources[i];
          index.seen.add(l.oid);
          // a commit another writer put on the branch (a snapshot, an annotation's) holds no checkpoint
          if (s?.kind !== 'langgraph') return;
          const best = index.byId.get(s.checkpoint);
          if (!best || s.writes > best.source.writes) index.byId.set(s.checkpoint, { oid: l.oid, source: s });
        });
        if (fresh >= 0 || links.length < WALK) break;
        from = links[links.length - 1].oid;
      }
    }
    this.indexes.set(key, { ...index, tips });
    return index.byId;
  }

  /** A commit this process placed on the namespace's lines (`before` and `after`: as they were and are): an index current before stays so without a walk. */
  placed(thread: string, ns: string, before: readonly Line[], after: readonly Line[], commit: CheckpointCommit): void {
    const index = this.indexes.get(lineBranch(thread, ns));
    if (!index || index.tips !== tipsOf(before)) return;
    index.seen.add(commit.oid);
    const best = index.byId.get(commit.source.checkpoint);
    if (!best || commit.source.writes > best.source.writes) index.byId.set(commit.source.checkpoint, commit);
    index.tips = tipsOf(after);
  }

  /** The newest commit of checkpoint `id`: the branch's tip when it is that checkpoint, else a walk of the lines. */
  async find(thread: string, ns: string, id: string, lines = this.lines(thread, ns)): Promise<CheckpointCommit | undefined> {
    const main = lines[0]?.line === 0 ? lines[0] : undefined;
    if (main) {
      const s = await this.sourceAt(main.tip);
      if (s.checkpoint === id) return { oid: main.tip, source: s };
    }
    return (await this.checkpoints(thread, ns, lines)).get(id);
  }

  /** The `langgraph/` entries of a commit's tree: name → blob id. */
  async entriesOf(oids: readonly string[]): Promise<Map<string, string>[]> {
    const unknown = [...new Set(oids.filter((o) => !this.entries.has(o)))];
    const trees = await this.ctx.engine.readObjects(unknown.map((o) => `${o}:${DIR}`));
    unknown.forEach((o, i) => {
      const t = trees[i];
      this.entries.set(o, new Map(t?.type === 'tree' ? parseTree(t.data).map((e) => [e.name, e.oid]) : []));
    });
    return oids.map((o) => this.entries.get(o)!);
  }

  /** Blobs by id, those not kept read in one pass (null: missing); blobs never change, so the newest read are kept up to BLOB_CACHE bytes. */
  async blobs(oids: readonly string[]): Promise<Map<string, Uint8Array | null>> {
    const out = new Map<string, Uint8Array | null>();
    for (const oid of oids) {
      const kept = this.blobCache.get(oid);
      if (kept) this.keep(oid, kept);
      out.set(oid, kept ?? null);
    }
    const unknown = oids.filter((o) => out.get(o) === null);
    const read = await this.ctx.engine.readObjects(unknown);
    unknown.forEach((oid, i) => {
      const data = read[i]?.data ?? null;
      out.set(oid, data);
      if (data) this.keep(oid, data);
    });
    return out;
  }

  /** A blob kept (the newest use last): the least recently used go past BLOB_CACHE bytes. */
  keep(oid: string, data: Uint8Array): void {
    const had = this.blobCache.get(oid);
    if (had) {
      this.blobCache.delete(oid);
      this.cachedBytes -= had.byteLength;
    }
    if (data.byteLength > BLOB_CACHE / 4) return;
    this.blobCache.set(oid, data);
    this.cachedBytes += data.byteLength;
    for (const [old, bytes] of this.blobCache) {
      if (this.cachedBytes <= BLOB_CACHE) break;
      this.blobCache.delete(old);
      this.cachedBytes -= bytes.byteLength;
    }
  }

  /** Forget what was known of the thread's lines (its branches were deleted). */
  forget(thread: string): void {
    for (const key of [...this.indexes.keys()]) if (key.startsWith(threadPrefix(thread))) this.indexes.delete(key);
  }
}
