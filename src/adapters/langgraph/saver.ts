// CtxSaver: a LangGraph checkpointer over a ctx store. A thread's namespace is a branch, a
// checkpoint a context commit on its parent checkpoint's commit, its pending writes a commit after it.
import type { RunnableConfig } from '@langchain/core/runnables';
import {
  BaseCheckpointSaver,
  TASKS,
  WRITES_IDX_MAP,
  maxChannelVersion,
  compareWritesSortKeys,
  getCheckpointId,
  writesSortKey,
  type ChannelVersions,
  type Checkpoint,
  type CheckpointListOptions,
  type CheckpointMetadata,
  type CheckpointPendingWrite,
  type CheckpointTuple,
  type PendingWrite,
  type SerializerProtocol,
} from '@langchain/langgraph-checkpoint';
import { openStore, type ContextStore } from '../../api/library/context-store.js';
import type { RepoContext } from '../../api/repo/repo-context.js';
import { commitWithFiles } from '../../api/write/write.js';
import type { TreeFile } from '../../store/engine.js';
import { UsageError } from '../../errors/index.js';
import { refs } from '../../store/refs.js';
import { objectId } from '../../store/loose-objects.js';
import { CHECKPOINT, DIR, METADATA, parseWriteName, readTypedBlob, typedBlob, valueName, writeName } from './layout.js';
import { ThreadLines, type CheckpointCommit, type CheckpointSource, type Line } from './lines.js';
import { lineBranch, threadPrefix } from './names.js';
import { artifactOf, SESSION_FORMAT } from './artifact.js';

export interface CtxSaverOptions {
  /** the store: its path (created when missing) or an opened ContextStore */
  store: string | ContextStore;
  /** LangGraph's serializer; default its JsonPlusSerializer */
  serde?: SerializerProtocol;
  /** the channel whose LangChain messages become the commits' artifacts (default `messages`) */
  messagesChannel?: string;
}

const TEMPLATE = 'langgraph';

export class CtxSaver extends BaseCheckpointSaver {
  private readonly opened: Promise<ContextStore>;
  private readonly messagesChannel: string;
  private known: { ctx: RepoContext; lines: ThreadLines } | null = null;
  /** writes run one at a time in call order (LangGraph does not wait for a put before its writes); reads after them */
  private queue: Promise<unknown> = Promise.resolve();
  /** writes of a checkpoint not yet put, by heldKey: entry path → file */
  private readonly held = new Map<string, Map<string, TreeFile>>();

  constructor(opts: CtxSaverOptions) {
    super(opts.serde);
    this.opened = typeof opts.store === 'string' ? openStore(opts.store, { create: true }) : Promise.resolve(opts.store);
    this.opened.catch(() => {}); // reported by the first call, not as an unhandled rejection
    this.messagesChannel = opts.messagesChannel ?? 'messages';
  }

  /** A saver whose store is open (its errors thrown here, not at the first checkpoint). */
  static async open(store: string | ContextStore, opts: Omit<CtxSaverOptions, 'store'> = {}): Promise<CtxSaver> {
    const saver = new CtxSaver({ ...opts, store });
    await saver.repo();
    return saver;
  }

  /** The ContextStore the checkpoints are in. */
  get store(): Promise<ContextStore> {
    return this.opened;
  }

  /** Ends the store's git processes; the saver is unusable afterwards. */
  async close(): Promise<void> {
    await (await this.opened).close();
  }

  private serial<T>(run: () => Promise<T>): Promise<T> {
    const next = this.queue.then(run);
    this.queue = next.catch(() => {});
    return next;
  }

  private async repo(): Promise<{ ctx: RepoContext; lines: ThreadLines }> {
    if (this.known) return this.known;
    const { ctx } = await this.opened;
    return (this.known = { ctx, lines: new ThreadLines(ctx) });
  }

  async getTuple(config: RunnableConfig): Promise<CheckpointTuple | undefined> {
    await this.queue;
    const thread = config.configurable?.thread_id;
    if (thread === undefined) return undefined;
    const { thread: t, ns } = ids(thread, config.configurable?.checkpoint_ns);
    const { lines } = await this.repo();
    const id = getCheckpointId(config);
    const found = id ? await lines.find(t, ns, id) : await this.newest(lines, t, ns);
    if (!found) return undefined;
    const [tuple] = await this.tuples([found]);
    return id ? { ...tuple, config } : tuple;
  }

  /** The namespace's newest checkpoint: the branch's tip (a put of an older id goes to another line). */
  private async newest(lines: ThreadLines, thread: string, ns: string): Promise<CheckpointCommit | undefined> {
    const tip = lines.tip(thread, ns);
    return tip ? { oid: tip, source: await lines.sourceAt(tip) } : undefined;
  }

  async *list(config: RunnableConfig, options: CheckpointListOptions = {}): AsyncGenerator<CheckpointTuple> {
    await this.queue;
    const { lines } = await this.repo();
    const { before, filter } = options;
    let limit = options.limit;
    const thread = config.configurable?.thread_id;
    const wantNs = config.configurable?.checkpoint_ns;
    const wantId = config.configurable?.checkpoint_id;
    const beforeId = before?.configurable?.checkpoint_id;
    for (const { thread: t, ns } of lines.namespaces(thread === undefined ? undefined : ids(thread).thread)) {
      if (wantNs !== undefined && ns !== wantNs) continue;
      const byId = await lines.checkpoints(t, ns);
      const chosen = [...byId.keys()].filter((id) => (!wantId || id === wantId) && (!beforeId || id < beforeId)).sort().reverse();
      // in pages: a limit without a filter reads only what it yields
      for (let at = 0; at < chosen.length; at += PAGE) {
        for await (const tuple of this.eachTuple(chosen.slice(at, at + PAGE).map((id) => byId.get(id)!))) {
          if (filter && !Object.entries(filter).every(([k, v]) => (tuple.metadata as Record<string, unknown> | undefined)?.[k] === v)) continue;
          if (limit !== undefined && limit-- <= 0) return;
          yield tuple;
        }
      }
    }
  }

  put(config: RunnableConfig, checkpoint: Checkpoint, metadata: CheckpointMetadata, newVersions: ChannelVersions): Promise<RunnableConfig> {
    return this.serial(() => this.putNow(config, checkpoint, metadata, newVersions));
  }

  putWrites(config: RunnableConfig, writes: PendingWrite[], taskId: string, taskPath?: string): Promise<void> {
    return this.serial(() => this.putWritesNow(config, writes, taskId, taskPath));
  }

  deleteThread(threadId: string): Promise<void> {
    return this.serial(() => this.deleteThreadNow(threadId));
  }

  private async putNow(config: RunnableConfig, checkpoint: Checkpoint, metadata: CheckpointMetadata, newVersions: ChannelVersions): Promise<RunnableConfig> {
    const { thread, ns } = ids(config.configurable?.thread_id, config.configurable?.checkpoint_ns, 'put a checkpoint');
    const { lines } = await this.repo();
    const parentId: string | undefined = config.configurable?.checkpoint_id || undefined;
    const all = lines.lines(thread, ns);
    const parent = parentId ? await lines.find(thread, ns, parentId, all) : undefined;
    const [carried] = parent ? await lines.entriesOf([parent.oid]) : [new Map<string, string>()];
    const entries = new Map<string, string>();
    const files: TreeFile[] = [];
    const add = (name: string, data: Uint8Array) => files.push({ path: `${DIR}/${name}`, data });
    const { channel_values: values, ...rest } = checkpoint;
    add(CHECKPOINT, typedBlob(...(await this.serde.dumpsTyped(rest))));
    add(METADATA, typedBlob(...(await this.serde.dumpsTyped(metadata))));
    // a channel's value is stored at the version it changed in; an unchanged one is the parent's blob
    for (const [ch, version] of Object.entries(checkpoint.channel_versions)) {
      const name = valueName(ch, version);
      if (ch in newVersions) {
        if (values[ch] !== undefined) add(valueName(ch, newVersions[ch]), typedBlob(...(await this.serde.dumpsTyped(values[ch]))));
      } else if (carried.has(name)) entries.set(name, carried.get(name)!);
    }
    for (const [name, oid] of entries) files.push({ path: `${DIR}/${name}`, oid });
    const key = heldKey(thread, ns, checkpoint.id);
    files.push(...(this.held.get(key)?.values() ?? []));
    this.held.delete(key);
    const art = artifactOf(this.messagesChannel in newVersions ? values[this.messagesChannel] : undefined, parent?.source);
    const source: CheckpointSource = {
      kind: 'langgraph',
      thread,
      ns,
      checkpoint: checkpoint.id,
      ...(parentId ? { parent: parentId } : {}),
      writes: writesIn(files),
      messages: art.messages,
      ...(art.last ? { last_message: art.last } : {}),
    };
    const step = typeof metadata?.step === 'number' ? ` ${metadata.step}` : '';
    const summary = art.new ? undefined : `langgraph step${step} (${String(metadata?.source ?? 'checkpoint')})`;
    await this.place(all, { thread, ns, parent: parent?.oid ?? null, source, files, artifact: art.bytes, type: art.type, summary });
    return { configurable: { thread_id: thread, checkpoint_ns: ns, checkpoint_id: checkpoint.id } };
  }

  private async putWritesNow(config: RunnableConfig, writes: PendingWrite[], taskId: string, taskPath?: string): Promise<void> {
    const { thread, ns } = ids(config.configurable?.thread_id, config.configurable?.checkpoint_ns, 'put writes');
    const id = config.configurable?.checkpoint_id;
    if (!id) throw new UsageError('put writes: the config has no checkpoint_id');
    const { lines } = await this.repo();
    const all = lines.lines(thread, ns);
    const at = await lines.find(thread, ns, id, all);
    const key = heldKey(thread, ns, id);
    const had = at ? (await lines.entriesOf([at.oid]))[0] : new Map<string, string>();
    const held = this.held.get(key) ?? new Map<string, TreeFile>();
    const files: TreeFile[] = [];
    for (const [i, [channel, value]] of writes.entries()) {
      const idx = WRITES_IDX_MAP[channel] ?? i;
      const name = writeName(taskId, idx);
      // a task's regular write is kept as first written; a special one (error, interrupt) replaced
      if (idx >= 0 && (had.has(name) || held.has(`${DIR}/${name}`))) continue;
      files.push({ path: `${DIR}/${name}`, data: typedBlob(...(await this.serde.dumpsTyped(value)), [channel, taskPath ?? '']) });
    }
    if (!files.length) return;
    // LangGraph may write a task's results before it puts their checkpoint: they go into its commit
    if (!at) {
      for (const f of files) held.set(f.path, f);
      return void this.held.set(key, held);
    }
    const replaced = new Set(files.map((f) => f.path));
    for (const [name, oid] of had) if (!replaced.has(`${DIR}/${name}`)) files.push({ path: `${DIR}/${name}`, oid });
    const source = { ...at.source, writes: writesIn(files) };
    const channels = [...new Set(writes.map(([c]) => c))].join(', ');
    await this.place(all, { thread, ns, parent: at.oid, source, files, artifact: artifactOf(undefined, at.source).bytes, type: 'delta', summary: `langgraph writes of ${taskId}: ${channels}` });
  }

  private async deleteThreadNow(threadId: string): Promise<void> {
    const { ctx, lines } = await this.repo();
    const { thread } = ids(threadId);
    for (const { ref, oid } of ctx.refs.list(refs.branch(threadPrefix(thread)))) ctx.refs.delete(ref, oid);
    lines.forget(thread);
  }

  /**
   * Writes the commit and moves a line to it: the branch when its checkpoint is the newest (the old
   * tip, unless the commit stands on it, kept as a line of its own), else the line it extends or a new one.
   */
  private async place(all: Line[], c: { thread: string; ns: string; parent: string | null; source: CheckpointSource; files: TreeFile[]; artifact: Uint8Array; type: 'delta' | 'compaction'; summary?: string }): Promise<void> {
    const { ctx, lines } = await this.repo();
    const main = all.find((l) => l.line === 0);
    const newest = !main || c.source.checkpoint >= (await lines.sourceAt(main.tip)).checkpoint;
    const extended = all.find((l) => l.tip === c.parent && l.line > 0);
    let target: { branch: string; line: number; expected: string | null };
    // the lines as this write leaves them, known without listing the refs again
    let after = [...all];
    if (newest) {
      if (main && main.tip !== c.parent && !all.some((l) => l.line > 0 && l.tip === main.tip)) {
        const kept = { branch: lineBranch(c.thread, c.ns, nextLine(all)), line: nextLine(all), tip: main.tip };
        ctx.refs.update(refs.branch(kept.branch), main.tip, null);
        after.push(kept);
      }
      target = { branch: lineBranch(c.thread, c.ns), line: 0, expected: main?.tip ?? null };
    } else target = extended ? { ...extended, expected: extended.tip } : { branch: lineBranch(c.thread, c.ns, nextLine(all)), line: nextLine(all), expected: null };
    const w = await commitWithFiles(ctx, {
      branch: target.branch,
      expected: target.expected,
      parent: c.parent,
      format: SESSION_FORMAT,
      artifact: c.artifact,
      files: c.files,
      type: c.type,
      template: TEMPLATE,
      session: c.thread,
      trigger: 'explicit',
      source: c.source as unknown as Record<string, unknown>,
      ...(c.summary ? { summary: c.summary } : {}),
    });
    // a line the new branch tip stands on is reachable from it: no longer a line of its own
    if (newest && extended) {
      ctx.refs.delete(refs.branch(extended.branch), extended.tip);
      after = after.filter((l) => l.branch !== extended.branch);
    }
    after = [...after.filter((l) => l.branch !== target.branch), { branch: target.branch, line: target.line, tip: w.oid }].sort((a, b) => a.line - b.line);
    // what the commit holds, known without reading it back: the next put on it carries its blobs
    lines.placed(c.thread, c.ns, all, after, { oid: w.oid, source: c.source });
    const held = c.files.map((f) => {
      if ('oid' in f) return [f.path.slice(DIR.length + 1), f.oid] as const;
      const data = (f as { data: Uint8Array }).data;
      const oid = objectId('blob', data);
      lines.keep(oid, data);
      return [f.path.slice(DIR.length + 1), oid] as const;
    });
    lines.wrote(w.oid, c.source, new Map(held));
  }

  /** A checkpoint of a version before 4 holds the sends its parent's tasks wrote (as MemorySaver reads one). */
  private async migratePendingSends(checkpoint: Checkpoint, thread: string, ns: string, parentId: string): Promise<void> {
    const { lines } = await this.repo();
    const parent = await lines.find(thread, ns, parentId);
    const [tuple] = parent ? await this.tuples([parent], false) : [];
    const sends = (tuple?.pendingWrites ?? []).filter(([, channel]) => channel === TASKS).map(([, , value]) => value);
    checkpoint.channel_values ??= {};
    checkpoint.channel_values[TASKS] = sends;
    checkpoint.channel_versions ??= {};
    const versions = Object.values(checkpoint.channel_versions);
    checkpoint.channel_versions[TASKS] = versions.length ? maxChannelVersion(...versions) : this.getNextVersion(undefined);
  }

  /** Tuples of checkpoint commits, in order. */
  private async tuples(commits: readonly CheckpointCommit[], migrate = true): Promise<CheckpointTuple[]> {
    const out: CheckpointTuple[] = [];
    for await (const t of this.eachTuple(commits, migrate)) out.push(t);
    return out;
  }

  /**
   * Tuples of checkpoint commits: their `langgraph/` trees in one pass, then every blob they need in
   * another; each tuple's values decoded only as it is handed over (a page of them decoded at once is
   * mostly garbage to collect).
   */
  private async *eachTuple(commits: readonly CheckpointCommit[], migrate = true): AsyncGenerator<CheckpointTuple> {
    const { lines } = await this.repo();
    const entries = await lines.entriesOf(commits.map((c) => c.oid));
    // every blob of the trees in one pass: a tree holds only what its checkpoint reads
    const blobs = await lines.blobs([...new Set(entries.flatMap((e) => [...e.values()]))]);
    const blobOf = (e: Map<string, string>, name: string) => readTypedBlob(blobs.get(e.get(name)!)!);
    const parts = await Promise.all(
      entries.map(async (e) => {
        const [cp, md] = [blobOf(e, CHECKPOINT), blobOf(e, METADATA)];
        const checkpoint = (await this.serde.loadsTyped(cp.type, cp.bytes)) as Omit<Checkpoint, 'channel_values'>;
        const metadata = (await this.serde.loadsTyped(md.type, md.bytes)) as CheckpointMetadata;
        return { checkpoint, metadata };
      }),
    );
    const plan = entries.map((e, i) => {
      const values = Object.entries(parts[i].checkpoint.channel_versions)
        .map(([ch, v]) => [ch, e.get(valueName(ch, v))] as const)
        .filter((x): x is readonly [string, string] => x[1] !== undefined);
      const writes = [...e.keys()].flatMap((name) => {
        const w = parseWriteName(name);
        return w ? [{ ...w, oid: e.get(name)! }] : [];
      });
      return { values, writes };
    });
    for (const [i, c] of commits.entries()) {
      const { checkpoint, metadata } = parts[i];
      const channel_values: Record<string, unknown> = {};
      for (const [ch, oid] of plan[i].values) {
        const b = readTypedBlob(blobs.get(oid)!);
        channel_values[ch] = await this.serde.loadsTyped(b.type, b.bytes);
      }
      const writes = await Promise.all(
        plan[i].writes.map(async (w) => {
          const b = readTypedBlob(blobs.get(w.oid)!);
          const [channel, path] = b.header as [string, string];
          return { key: writesSortKey(path, w.task, w.idx), write: [w.task, channel, await this.serde.loadsTyped(b.type, b.bytes)] as CheckpointPendingWrite };
        }),
      );
      writes.sort((a, b) => compareWritesSortKeys(a.key, b.key));
      const { thread, ns, checkpoint: id, parent } = c.source;
      const tuple: CheckpointTuple = {
        config: { configurable: { thread_id: thread, checkpoint_ns: ns, checkpoint_id: id } },
        checkpoint: { ...checkpoint, channel_values } as Checkpoint,
        metadata,
        pendingWrites: writes.map((w) => w.write),
      };
      if (parent) tuple.parentConfig = { configurable: { thread_id: thread, checkpoint_ns: ns, checkpoint_id: parent } };
      if (migrate && checkpoint.v < 4 && parent) await this.migratePendingSends(tuple.checkpoint, thread, ns, parent);
      yield tuple;
    }
  }
}

const PAGE = 100;

const heldKey = (thread: string, ns: string, id: string) => JSON.stringify([thread, ns, id]);

/** Pending writes among a commit's `langgraph/` files. */
const writesIn = (files: readonly TreeFile[]) => files.filter((f) => parseWriteName(f.path.slice(DIR.length + 1))).length;

/** The first line number no line of the namespace has. */
const nextLine = (all: readonly Line[]) => Math.max(0, ...all.map((l) => l.line)) + 1;

/** A config's thread and namespace, checked: both strings (they become branch names). */
function ids(thread: unknown, ns: unknown = '', what?: string): { thread: string; ns: string } {
  if (typeof thread !== 'string' || thread === '')
    throw new UsageError(`${what ?? 'read'}: the config's configurable.thread_id must be a non-empty string (got ${thread === undefined ? 'none' : typeof thread})`);
  if (typeof ns !== 'string') throw new UsageError(`${what ?? 'read'}: configurable.checkpoint_ns must be a string`);
  return { thread, ns: ns ?? '' };
}
