// The native engine: the git binary. One long-lived `cat-file --batch` for reads (a one-shot `--buffer` one for bulk),
// `fast-import.ts` for bulk writes, loose objects in-process for small ones.
import type { ChildProcess } from 'node:child_process';
import { closeSync, readSync } from 'node:fs';
import { resolve } from 'node:path';
import type { ChainLink, Engine, GitObject, ObjectType } from './engine.js';
import { fastImport } from './fast-import.js';
import { drained, gitEnv, gitError, run, spawnGit, spoolFile } from './git-process.js';
import { fitsLoose, readLoose, writeLooseCommits } from './loose-objects.js';
import { fitsPack, writePackedCommits } from './pack-write.js';
import { objectLookup } from './object-ids.js';
import { UnreadableObject } from './damage.js';
import { parseCommit, parseTree, walkFirstParents } from './objects.js';

const TYPES = new Set(['blob', 'tree', 'commit', 'tag']);
const SPECS_PER_WRITE = 1024;
// From this many specs a one-shot `--buffer` process pays for its spawn: git then writes big blocks, not one per object.
const BULK_SPECS = 1000;
// At most this many loose objects (a read's, or a chain's commits) are read in-process: each inflates
// and hashes a file, ~0.1-0.2 ms in a short-lived process; more are git's (cat-file, rev-list), whose start costs a few ms.
const LOOSE_READS = 16;

/** cat-file failures that are damage of the object being read (the first one waiting for an answer). */
const damaged = new WeakSet<Error>();

/** A `git cat-file --batch` process and the parser of its answers; `buffered` ones answer only once stdin ends. */
class CatFile {
  private readonly proc: ChildProcess;
  // answers still to come, in order: batches of specs sent together, `next` the next answer of the first
  private queue: { deliver: (i: number, obj: GitObject | null, err?: Error) => void; start: number; end: number }[] = [];
  private head = 0;
  private next = 0;
  private partial: Buffer | null = null; // an unfinished header line
  private body: { type: ObjectType; data: Buffer; filled: number } | null = null; // an object split across chunks
  private skipNewline = false; // the LF after an object's data
  private stderr = '';
  failure: Error | null = null;
  readonly exited: Promise<void>;

  /**
   * `spool`: a file descriptor git writes its answers to, read once git is done (see spoolFile);
   * `transient`: the objects handed out are views valid during the delivery only, so one read buffer serves.
   */
  constructor(gitdir: string, buffered: boolean, spool: number | null = null, transient = false) {
    this.proc = spawnGit(['cat-file', '--batch', ...(buffered ? ['--buffer'] : [])], { env: gitEnv(gitdir), stdio: ['pipe', spool ?? 'pipe', 'pipe'] });
    this.proc.stdout?.on('data', (chunk: Buffer) => this.onData(chunk));
    this.proc.stderr!.on('data', (chunk: Buffer) => void (this.stderr += chunk.toString('utf8')));
    this.proc.stdin!.on('error', () => {}); // an early exit surfaces through 'close' below
    this.exited = new Promise((ok) => {
      this.proc.on('error', (e) => {
        this.fail(e); // e.g. git not found: there may be no 'close' after this
        ok();
      });
      this.proc.on('close', (code) => {
        if (spool !== null) {
          try {
            // what git answered before it failed is whole: the failure is then the first object not answered
            readSpool(spool, transient, (chunk) => this.onData(chunk));
          } catch (e) {
            this.fail(e as Error);
          } finally {
            closeSync(spool);
          }
        }
        const e = gitError('cat-file', code, this.stderr);
        // git read an object and died on its bytes; not a start-up failure (no repo) nor a signal
        if (code !== null && code !== 0 && this.stderr !== '' && !/not a git repository/.test(this.stderr)) damaged.add(e);
        this.fail(e);
        ok();
      });
    });
  }

  private fail(e: Error): void {
    this.failure ??= e;
    const waiting = this.queue.slice(this.head);
    const next = this.next;
    [this.queue, this.head, this.next] = [[], 0, 0];
    waiting.forEach((b, k) => {
      for (let i = k === 0 ? next : b.start; i < b.end; i++) b.deliver(i, null, this.failure!);
    });
  }

  /** Send specs; `deliver` is called once per spec, in order. Resolves when all are written. */
  async send(specs: readonly string[], deliver: (i: number, obj: GitObject | null, err?: Error) => void): Promise<void> {
    const stdin = this.proc.stdin!;
    for (let start = 0; start < specs.length; start += SPECS_PER_WRITE) {
      if (this.failure || stdin.destroyed) {
        await this.exited; // so the error is git's own message, not EPIPE
        throw this.failure!;
      }
      const chunk = specs.slice(start, start + SPECS_PER_WRITE);
      // Queue and write together, synchronously, so concurrent callers cannot interleave.
      if (this.queue.length === this.head) [this.queue, this.head, this.next] = [[], 0, start];
      this.queue.push({ deliver, start, end: start + chunk.length });
      if (!stdin.write(chunk.join('\n') + '\n')) await drained(stdin);
    }
  }

  private deliver(obj: GitObject | null): void {
    const b = this.queue[this.head];
    if (!b) return;
    const i = this.next++;
    if (this.next === b.end) {
      // the batch is answered: the next one starts; answered batches are dropped now and then
      // (shift() on a long array costs O(n) each time)
      this.queue[this.head++] = undefined!;
      this.next = this.queue[this.head]?.start ?? 0;
      if (this.head >= 64 && this.head * 2 >= this.queue.length) [this.queue, this.head] = [this.queue.slice(this.head), 0];
    }
    b.deliver(i, obj);
  }

  private onData(chunk: Buffer): void {
    let pos = 0;
    while (pos < chunk.length) {
      if (this.body) {
        const b = this.body;
        const n = Math.min(b.data.length - b.filled, chunk.length - pos);
        chunk.copy(b.data, b.filled, pos, pos + n);
        b.filled += n;
        pos += n;
        if (b.filled < b.data.length) continue;
        this.body = null;
        this.skipNewline = true;
        this.deliver({ type: b.type, data: b.data });
        continue;
      }
      if (this.skipNewline) {
        this.skipNewline = false;
        pos++;
        continue;
      }
      const nl = chunk.indexOf(10, pos);
      if (nl < 0) {
        const rest = chunk.subarray(pos);
        this.partial = this.partial ? Buffer.concat([this.partial, rest]) : Buffer.from(rest);
        return;
      }
      let header: { type: ObjectType; size: number } | null;
      if (this.partial) {
        header = this.parseHeader(this.partial.toString('latin1') + chunk.toString('latin1', pos, nl));
        this.partial = null;
      } else header = headerAt(chunk, pos, nl) ?? this.parseHeader(chunk.toString('latin1', pos, nl));
      pos = nl + 1;
      if (header === null) continue;
      if (pos + header.size <= chunk.length) {
        // The whole object is in this chunk: hand out a view, not a copy (node sizes chunks to what was read).
        this.skipNewline = true;
        this.deliver({ type: header.type, data: chunk.subarray(pos, pos + header.size) });
        pos += header.size;
      } else {
        this.body = { type: header.type, data: Buffer.allocUnsafe(header.size), filled: 0 };
      }
    }
  }

  /** `<oid> <type> <size>` gives the object to read next; `<spec> missing|ambiguous` answers null at once. */
  private parseHeader(line: string): { type: ObjectType; size: number } | null {
    const sp2 = line.lastIndexOf(' ');
    const sp1 = line.lastIndexOf(' ', sp2 - 1);
    const type = line.slice(sp1 + 1, sp2);
    const size = Number(line.slice(sp2 + 1));
    if (sp1 >= 40 && TYPES.has(type) && Number.isSafeInteger(size) && size >= 0) return { type: type as ObjectType, size };
    if (line.endsWith(' missing') || line.endsWith(' ambiguous')) this.deliver(null);
    else {
      this.fail(new Error(`unexpected git cat-file output: ${line.slice(0, 200)}`));
      this.proc.kill();
    }
    return null;
  }

  async close(): Promise<void> {
    this.proc.stdin!.end();
    await this.exited;
  }
}

/** The spool's bytes in 4 MiB chunks, each a buffer of its own (answers are views into them) unless `transient`. */
function readSpool(fd: number, transient: boolean, each: (chunk: Buffer) => void): void {
  const one = transient ? Buffer.allocUnsafe(4 << 20) : null;
  for (let at = 0; ; ) {
    const buf = one ?? Buffer.allocUnsafe(4 << 20);
    const n = readSync(fd, buf, 0, buf.length, at);
    if (n === 0) return;
    at += n;
    each(buf.subarray(0, n));
  }
}

const OBJECT_TYPES: Record<number, ObjectType> = { 0x62: 'blob', 0x74: 'tree', 0x63: 'commit' };

/**
 * An object's header (`<oid> <type> <size>`) read off the bytes between `start` and `nl`, the usual
 * case, without making a string of it (a long read has one per object); null for anything else
 * (`missing`, a tag), which parseHeader then reads.
 */
function headerAt(buf: Buffer, start: number, nl: number): { type: ObjectType; size: number } | null {
  let size = 0;
  let i = nl - 1;
  for (let unit = 1; i > start && buf[i] >= 0x30 && buf[i] <= 0x39 && unit < 1e15; i--, unit *= 10) size += (buf[i] - 0x30) * unit;
  if (i === nl - 1 || buf[i] !== 0x20) return null;
  const sp = buf.lastIndexOf(0x20, i - 1);
  const type = OBJECT_TYPES[buf[sp + 1]];
  return sp - start >= 40 && type !== undefined && i - sp - 1 === type.length ? { type, size } : null;
}

export function createGitEngine(gitdir: string): Engine {
  const dir = resolve(gitdir);
  let catFile: CatFile | null = null;
  const oneShots = new Set<CatFile>();
  let closed = false;

  function batch(count: number, transient = false): CatFile {
    if (closed) throw new Error('engine is closed');
    if (count >= BULK_SPECS) {
      const cat = new CatFile(dir, true, spoolFile(), transient);
      oneShots.add(cat);
      void cat.exited.then(() => oneShots.delete(cat));
      return cat;
    }
    if (!catFile || catFile.failure) catFile = new CatFile(dir, false);
    return catFile;
  }

  /** Each object handed over as it arrives, in order (a missing one as null), none kept: see Engine.readEach. */
  async function readEach(specs: readonly string[], each: (i: number, obj: GitObject | null) => void, transient = true): Promise<void> {
    // A spec with a newline cannot be sent on a line; no git object is named that way.
    const sendable: number[] = [];
    specs.forEach((s, i) => (/[\n\r]/.test(s) ? each(i, null) : sendable.push(i)));
    if (sendable.length === 0) return;
    // a few objects, all loose (what the last hooks wrote): read here, without starting git
    const loose = sendable.length <= LOOSE_READS ? allLoose(sendable.map((i) => specs[i])) : null;
    if (loose) return loose.forEach((obj, j) => each(sendable[j], obj));
    const cat = batch(sendable.length, transient);
    let left = sendable.length;
    let failed = false;
    return new Promise((ok, fail) => {
      const deliver = (j: number, obj: GitObject | null, err?: Error) => {
        if (failed) return;
        try {
          if (err) throw damaged.has(err) ? new UnreadableObject(specs[sendable[j]], err) : err;
          each(sendable[j], obj);
        } catch (e) {
          failed = true;
          return fail(e);
        }
        if (--left === 0) ok();
      };
      const sent = cat.send(sendable.length === specs.length ? specs : sendable.map((i) => specs[i]), deliver);
      sent.then(() => void (oneShots.has(cat) && cat.close()), fail);
    });
  }

  function allLoose(specs: string[]): GitObject[] | null {
    const out: GitObject[] = [];
    for (const spec of specs) {
      const obj = looseSpec(spec);
      if (!obj) return null;
      out.push(obj);
    }
    return out;
  }

  /** `<oid>` or `<commit or tree>:<path>` (an artifact by its tree), when every object on the way is loose. */
  function looseSpec(spec: string): GitObject | null {
    const colon = spec.indexOf(':');
    let obj = readLoose(dir, colon === -1 ? spec : spec.slice(0, colon));
    if (colon === -1 || !obj) return obj;
    if (obj.type === 'commit') obj = readLoose(dir, parseCommit(obj.data).tree);
    for (const name of spec.slice(colon + 1).split('/')) {
      if (obj?.type !== 'tree') return null;
      const entry = parseTree(obj.data).find((e) => e.name === name);
      obj = entry ? readLoose(dir, entry.oid) : null;
    }
    return obj;
  }

  /** The first-parent chain from `tip` when it is short and all loose, read here; null otherwise (rev-list then lists it). */
  function looseChain(tip: string, max = Infinity): ChainLink[] | null {
    const links: ChainLink[] = [];
    for (let oid: string | undefined = tip; oid !== undefined && links.length < max; ) {
      const obj = links.length < LOOSE_READS ? readLoose(dir, oid) : null;
      if (obj?.type !== 'commit') return null;
      const c = parseCommit(obj.data);
      links.push({ oid, tree: c.tree, message: c.message });
      oid = c.parents[0];
    }
    return links;
  }

  async function readObjects(specs: readonly string[]): Promise<(GitObject | null)[]> {
    const out: (GitObject | null)[] = new Array(specs.length).fill(null);
    await readEach(specs, (i, obj) => void (out[i] = obj), false);
    return out;
  }

  /** First-parent links from rev-list's output; walked object by object where rev-list cannot say. */
  async function revList<L>(tip: string, args: string[], parse: (out: Buffer) => L[], max?: number, options: string[] = []): Promise<(L | ChainLink)[]> {
    if (tip.startsWith('-')) throw new Error(`bad revision: ${tip}`);
    let links: L[];
    try {
      links = parse((await run(dir, [...options, 'rev-list', '--first-parent', ...args, tip], [], { spooled: true })).stdout);
    } catch {
      // rev-list fails on more than the chain (a damaged packed-refs, say) and names no commit we can
      // trust: walking object by object names where the chain breaks, or reads it whole
      return walkFirstParents(readObjects, tip, max);
    }
    // rev-list prints nothing for a blob or a tree
    return links.length ? links : walkFirstParents(readObjects, tip, max);
  }

  return {
    name: 'git',
    readObjects,
    readEach: (specs, each) => readEach(specs, each),

    readObject: async (oid) => (await readObjects([oid]))[0],

    async chain(tip, max) {
      if (max !== undefined && max <= 0) return [];
      const limit = max === undefined || !Number.isFinite(max) ? [] : [`--max-count=${Math.floor(max)}`];
      const loose = looseChain(tip, max === undefined ? Infinity : Math.floor(max));
      if (loose) return loose;
      // one process gives every commit, its tree and message: later reads go to objects by id
      return revList(tip, ['--format=%x00%T%x00%B%x00', ...limit], parseChain, max);
    },

    // no message asked for and none formatted. The commit-graph is off: from it git would list
    // the chain without reading a commit, and a damaged commit would go unnoticed
    chainTrees: (tip) => revList(tip, ['--format=%T'], parseTrees, undefined, ['-c', 'core.commitGraph=false']),

    async history(tips) {
      if (tips.length === 0) return [];
      if (tips.some((t) => !/^[0-9a-f]{40,64}$/.test(t))) throw new Error('not an object id');
      // --timestamp and --parents, not --format: a format reads every commit, these come from the commit-graph
      return parseHistory((await run(dir, ['rev-list', '--first-parent', '--parents', '--timestamp', '--stdin'], [Buffer.from(`${tips.join('\n')}\n`)], { spooled: true })).stdout);
    },

    // a checkpoint's few objects are written in-process; bulk writes (imports, notes) go to fast-import.
    // A write asking for a pack gets one, large or small: its .keep holds it until the caller's ref
    // moves, where fast-import drops its own .keep when it exits, before that ref moves
    writeCommits: async (specs, opts) => {
      const exists = () => (opts?.known ? (oid: string) => /^[0-9a-f]{40}$/.test(oid) : objectsExist(dir));
      if (opts?.pack && fitsPack(specs)) return writePackedCommits(dir, specs, exists(), opts.pack.kept);
      if (!fitsLoose(specs, opts?.known)) return fastImport(dir, specs);
      return writeLooseCommits(dir, specs, exists());
    },

    async close() {
      closed = true;
      await Promise.all([catFile?.close(), ...[...oneShots].map((c) => c.exited)]);
      catFile = null;
    },
  };
}

/** `commit <oid>\n<tree>\n` records. */
function parseTrees(out: Buffer): { oid: string; tree: string }[] {
  const links: { oid: string; tree: string }[] = [];
  const lines = out.toString('latin1').split('\n');
  for (let i = 0; i + 1 < lines.length; i += 2) links.push({ oid: lines[i].slice(7), tree: lines[i + 1] });
  return links;
}

/** `<time> <oid> [<parent>]` lines. */
function parseHistory(out: Buffer): { oid: string; parent: string | null; time: number }[] {
  const commits: { oid: string; parent: string | null; time: number }[] = [];
  for (const line of out.toString('latin1').split('\n')) {
    const [time, oid, parent] = line.split(' ');
    if (oid) commits.push({ oid, parent: parent || null, time: Number(time) });
  }
  return commits;
}

/** `commit <oid>\n\0<tree>\0<message>\0\n` records; messages cannot hold NUL, so NUL delimits. */
function parseChain(out: Buffer): ChainLink[] {
  const links: ChainLink[] = [];
  for (let at = 0; at < out.length; ) {
    const nl = out.indexOf(0x0a, at);
    const treeEnd = out.indexOf(0, nl + 2);
    const msgEnd = out.indexOf(0, treeEnd + 1);
    links.push({ oid: out.toString('latin1', at + 7, nl), tree: out.toString('latin1', nl + 2, treeEnd), message: out.toString('utf8', treeEnd + 1, msgEnd) });
    at = msgEnd + 2;
  }
  return links;
}

const pause = new Int32Array(new SharedArrayBuffer(4));

/**
 * Whether objects are in the store, for one write: one listing of the packs serves every id. A miss
 * is looked for again in a new listing: one taken while a repack (`git gc --auto`, which a write may
 * start) renames its pack in and deletes the old ones can show neither, so only a miss three times
 * over is one.
 */
function objectsExist(gitdir: string): (oid: string) => boolean {
  let lookup = objectLookup(gitdir);
  return (oid) => {
    for (let attempt = 0; ; attempt++) {
      if (lookup?.(oid)) return true;
      if (attempt === 2) return false;
      Atomics.wait(pause, 0, 0, 10 * (attempt + 1));
      lookup = objectLookup(gitdir);
    }
  };
}
