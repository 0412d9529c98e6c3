// The native engine: the git binary. One long-lived `cat-file --batch` for reads (a one-shot `--buffer` one for bulk),
// one `fast-import` per write batch.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Writable } from 'node:stream';
import type { ChainLink, CommitSpec, Engine, GitObject, ObjectType } from './engine.js';
import { formatSignature, groupTreeFiles } from './tree-layout.js';
import { fitsLoose, writeLooseCommits } from './loose-objects.js';
import { findByPrefix } from './object-ids.js';

// Variables that would point git somewhere else than `gitdir`, or (replace refs) make it disagree with isomorphic-git.
const DROPPED_ENV = ['GIT_WORK_TREE', 'GIT_INDEX_FILE', 'GIT_OBJECT_DIRECTORY', 'GIT_ALTERNATE_OBJECT_DIRECTORIES', 'GIT_COMMON_DIR', 'GIT_NAMESPACE'];
const TYPES = new Set(['blob', 'tree', 'commit', 'tag']);
const SPECS_PER_WRITE = 1024;
// From this many specs a one-shot `--buffer` process pays for its spawn: git then writes big blocks, not one per object.
const BULK_SPECS = 1000;

type Deliver = (obj: GitObject | null, err?: Error) => void;

function gitEnv(gitdir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, GIT_DIR: gitdir, GIT_NO_REPLACE_OBJECTS: '1' };
  for (const k of DROPPED_ENV) delete env[k];
  return env;
}

function gitError(what: string, code: number | null, stderr: string): Error {
  const first = stderr.split('\n').find((l) => l.trim() !== '');
  return new Error(first ?? `git ${what} exited with ${code}`);
}

/** Wait until a full writable drains or fails; a failure is reported by the process's exit, not here. */
function drained(stream: Writable): Promise<void> {
  const events = ['drain', 'error', 'close'];
  return new Promise((ok) => {
    const done = () => {
      for (const ev of events) stream.removeListener(ev, done);
      ok();
    };
    for (const ev of events) stream.once(ev, done);
  });
}

/** A `git cat-file --batch` process and the parser of its answers; `buffered` ones answer only once stdin ends. */
class CatFile {
  private readonly proc: ChildProcess;
  private queue: (Deliver | undefined)[] = [];
  private head = 0;
  private partial: Buffer | null = null; // an unfinished header line
  private body: { type: ObjectType; data: Buffer; filled: number } | null = null; // an object split across chunks
  private skipNewline = false; // the LF after an object's data
  private stderr = '';
  failure: Error | null = null;
  readonly exited: Promise<void>;

  constructor(gitdir: string, buffered: boolean) {
    this.proc = spawn('git', ['cat-file', '--batch', ...(buffered ? ['--buffer'] : [])], { env: gitEnv(gitdir), stdio: ['pipe', 'pipe', 'pipe'] });
    this.proc.stdout!.on('data', (chunk: Buffer) => this.onData(chunk));
    this.proc.stderr!.on('data', (chunk: Buffer) => void (this.stderr += chunk.toString('utf8')));
    this.proc.stdin!.on('error', () => {}); // an early exit surfaces through 'close' below
    this.exited = new Promise((ok) => {
      this.proc.on('error', (e) => {
        this.fail(e); // e.g. git not found: there may be no 'close' after this
        ok();
      });
      this.proc.on('close', (code) => {
        this.fail(gitError('cat-file', code, this.stderr));
        ok();
      });
    });
  }

  private fail(e: Error): void {
    this.failure ??= e;
    const waiting = this.queue.slice(this.head);
    this.queue = [];
    this.head = 0;
    for (const deliver of waiting) deliver?.(null, this.failure);
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
      chunk.forEach((_, j) => this.queue.push((obj, err) => deliver(start + j, obj, err)));
      if (!stdin.write(chunk.join('\n') + '\n')) await drained(stdin);
    }
  }

  private deliver(obj: GitObject | null): void {
    const fn = this.queue[this.head];
    this.queue[this.head++] = undefined;
    // Drop answered entries now and then: shift() on a long array costs O(n) each time.
    if (this.head >= 1024 && this.head * 2 >= this.queue.length) [this.queue, this.head] = [this.queue.slice(this.head), 0];
    fn?.(obj);
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
      let line = chunk.toString('latin1', pos, nl);
      if (this.partial) {
        line = this.partial.toString('latin1') + line;
        this.partial = null;
      }
      pos = nl + 1;
      const header = this.parseHeader(line);
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

export function createGitEngine(gitdir: string): Engine {
  const dir = resolve(gitdir);
  let catFile: CatFile | null = null;
  const oneShots = new Set<CatFile>();
  let closed = false;

  function batch(count: number): CatFile {
    if (closed) throw new Error('engine is closed');
    if (count >= BULK_SPECS) {
      const cat = new CatFile(dir, true);
      oneShots.add(cat);
      void cat.exited.then(() => oneShots.delete(cat));
      return cat;
    }
    if (!catFile || catFile.failure) catFile = new CatFile(dir, false);
    return catFile;
  }

  async function readObjects(specs: readonly string[]): Promise<(GitObject | null)[]> {
    const out: (GitObject | null)[] = new Array(specs.length).fill(null);
    // A spec with a newline cannot be sent on a line; no git object is named that way.
    const sendable: number[] = [];
    specs.forEach((s, i) => !/[\n\r]/.test(s) && sendable.push(i));
    if (sendable.length === 0) return out;
    const cat = batch(sendable.length);
    let left = sendable.length;
    return new Promise((ok, fail) => {
      const deliver = (j: number, obj: GitObject | null, err?: Error) => {
        if (err) return fail(err);
        out[sendable[j]] = obj;
        if (--left === 0) ok(out);
      };
      const sent = cat.send(sendable.length === specs.length ? specs : sendable.map((i) => specs[i]), deliver);
      sent.then(() => void (oneShots.has(cat) && cat.close()), fail);
    });
  }

  return {
    name: 'git',
    readObjects,
    readObject: async (oid) => (await readObjects([oid]))[0],

    async chain(tip, max) {
      if (tip.startsWith('-')) throw new Error(`bad revision: ${tip}`);
      if (max !== undefined && max <= 0) return [];
      const limit = max === undefined || !Number.isFinite(max) ? [] : [`--max-count=${Math.floor(max)}`];
      // one process gives every commit, its tree and message: later reads go to objects by id
      const { stdout } = await run(dir, ['rev-list', '--first-parent', '--format=%x00%T%x00%B%x00', ...limit, tip], []);
      return parseChain(stdout);
    },

    // a checkpoint's few objects are written in-process; bulk writes (imports, notes) go to fast-import
    writeCommits: async (specs) => (fitsLoose(specs) ? writeLooseCommits(dir, specs, (oid) => findByPrefix(dir, oid).length > 0) : fastImport(dir, specs)),

    async close() {
      closed = true;
      await Promise.all([catFile?.close(), ...[...oneShots].map((c) => c.exited)]);
      catFile = null;
    },
  };
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

/** Run git to completion, feeding `input` to stdin; throws with git's first stderr line on failure. */
async function run(gitdir: string, args: string[], input: readonly Uint8Array[]): Promise<{ stdout: Buffer; pid: number | undefined }> {
  const proc = spawn('git', args, { env: gitEnv(gitdir), stdio: ['pipe', 'pipe', 'pipe'] });
  const out: Buffer[] = [];
  let stderr = '';
  proc.stdout.on('data', (c: Buffer) => out.push(c));
  proc.stderr.on('data', (c: Buffer) => void (stderr += c.toString('utf8')));
  proc.stdin.on('error', () => {}); // an early exit is reported by the exit code below
  const exit = new Promise<number | null>((ok, fail) => {
    proc.on('error', fail);
    proc.on('close', ok);
  });
  for (let i = 0; i < input.length && proc.exitCode === null && !proc.stdin.destroyed; ) {
    // Coalesce small parts: one write per part would cost a syscall each.
    let size = 0;
    const batch: Uint8Array[] = [];
    while (i < input.length && size < 1 << 18) size += batch[batch.push(input[i++]) - 1].byteLength;
    if (!proc.stdin.write(batch.length === 1 ? batch[0] : Buffer.concat(batch))) await Promise.race([drained(proc.stdin), exit]);
  }
  proc.stdin.end();
  const code = await exit;
  if (code !== 0) {
    const err = gitError(args[0], code, stderr);
    (err as Error & { pid?: number }).pid = proc.pid;
    throw err;
  }
  return { stdout: Buffer.concat(out), pid: proc.pid };
}

/** Quote a path for a fast-import `M` line when git would misread it bare. */
function fiPath(path: string): string {
  return path.startsWith('"') ? `"${path.replace(/["\\]/g, (c) => `\\${c}`)}"` : path;
}

async function fastImport(gitdir: string, specs: readonly CommitSpec[]): Promise<string[]> {
  if (specs.length === 0) return [];
  const ref = `refs/ctx-tmp/${process.pid}-${randomBytes(6).toString('hex')}`;
  const parts: Uint8Array[] = [];
  let text = ''; // pending command text, flushed before each block of raw bytes
  const flush = () => {
    if (text) parts.push(Buffer.from(text, 'utf8'));
    text = '';
  };
  const data = (bytes: Uint8Array) => {
    text += `data ${bytes.byteLength}\n`;
    flush();
    parts.push(bytes);
    text += '\n';
  };
  specs.forEach((spec, i) => {
    const { root, dirs } = groupTreeFiles(spec.files); // validates paths as the isogit engine does
    const files = [...root.values(), ...[...dirs.values()].flatMap((d) => [...d.values()])];
    // A root commit must not inherit the temp branch's previous commit.
    if (spec.parents.length === 0) text += `reset ${ref}\n`;
    text += `commit ${ref}\nmark :${i + 1}\n`;
    text += `author ${formatSignature(spec.author)}\ncommitter ${formatSignature(spec.committer)}\n`;
    data(Buffer.from(spec.message, 'utf8'));
    spec.parents.forEach((p, k) => {
      let from: string;
      if (typeof p === 'string') {
        if (!/^[0-9a-f]{40,64}$/.test(p)) throw new Error(`parent is not an object id: ${p}`);
        from = p;
      } else {
        if (!(p.index >= 0 && p.index < i)) throw new Error(`parent index ${p.index} is not an earlier commit`);
        from = `:${p.index + 1}`;
      }
      text += `${k === 0 ? 'from' : 'merge'} ${from}\n`;
    });
    text += 'deleteall\n';
    for (const f of files) {
      if ('data' in f) {
        text += `M 100644 inline ${fiPath(f.path)}\n`;
        data(f.data);
      } else {
        if (!/^[0-9a-f]{40,64}$/.test(f.oid)) throw new Error(`not an object id: ${f.oid}`);
        text += `M 100644 ${f.oid} ${fiPath(f.path)}\n`;
      }
    }
  });
  for (let i = 1; i <= specs.length; i++) text += `get-mark :${i}\n`;
  // Resetting without `from` makes fast-import delete the temp ref instead of writing it.
  text += `reset ${ref}\ndone\n`;
  flush();
  try {
    const { stdout } = await run(gitdir, ['fast-import', '--quiet', '--done'], parts);
    const ids = stdout.toString('latin1').split('\n').filter((l) => l !== '');
    if (ids.length !== specs.length || !ids.every((id) => /^[0-9a-f]{40,64}$/.test(id))) {
      throw new Error(`unexpected git fast-import output: ${ids.join(' ').slice(0, 200)}`);
    }
    return ids;
  } catch (e) {
    const pid = (e as { pid?: number }).pid;
    if (pid !== undefined) fs.rmSync(join(gitdir, `fast_import_crash_${pid}`), { force: true });
    throw e;
  } finally {
    await removeTempRef(gitdir, ref);
  }
}

/** Make sure the temp ref is gone: its loose file, its now-empty directories, any packed-refs line. */
async function removeTempRef(gitdir: string, ref: string): Promise<void> {
  fs.rmSync(join(gitdir, ref), { force: true });
  for (let d = dirname(ref); d !== 'refs'; d = dirname(d)) {
    try {
      fs.rmdirSync(join(gitdir, d));
    } catch {
      break; // not empty, or never created
    }
  }
  const packed = join(gitdir, 'packed-refs');
  // fast-import never packs refs; this guards against a `git pack-refs` racing with us.
  if (fs.existsSync(packed) && fs.readFileSync(packed, 'latin1').includes(` ${ref}\n`)) await run(gitdir, ['update-ref', '-d', ref], []);
}
