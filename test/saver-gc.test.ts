// CtxSaver puts (a pack of their own each, then the branch moves) racing git gc, git gc --auto
// (detached, as a writer starts it) and ctx gc on the same store: afterwards git fsck --strict and
// git gc pass and every checkpoint reads back whole through getTuple.
// A longer run: CTX_SAVER_GC_WRITERS=6 CTX_SAVER_GC_PUTS=300 npx vitest run test/saver-gc.test.ts
// Another build's saver: CTX_SAVER_GC_DIST=/path/to/its/dist.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { FIXED_ENV, ROOT, ctx, fsck, git, newStore, shellCtx, tempDir } from './helpers.js';
import type { CommitSpec } from '../src/store/engine.js';
import { createGitEngine } from '../src/store/engine-git.js';
import { releaseKept } from '../src/store/pack-write.js';

const WRITERS = Number(process.env.CTX_SAVER_GC_WRITERS ?? 3);
const PUTS = Number(process.env.CTX_SAVER_GC_PUTS ?? 15);
const DIST = process.env.CTX_SAVER_GC_DIST ?? join(ROOT, 'dist');

/** One writer process's puts: the checkpoint ids it printed, its exit code and stderr. */
function writer(store: string, thread: string): Promise<{ code: number; ids: string[]; stderr: string }> {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('CTX_') && k !== 'NODE_EXTRA_CA_CERTS') env[k] = v;
  return new Promise((done) => {
    const p = spawn(process.execPath, [join(ROOT, 'test', 'saver-writer.mjs'), DIST, store, thread, String(PUTS)], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let stderr = '';
    p.stdout.on('data', (b) => (out += b));
    p.stderr.on('data', (b) => (stderr += b));
    p.on('close', (code) => done({ code: code ?? -1, ids: out.split('\n').filter(Boolean), stderr }));
  });
}

/** Until no gc holds gc.pid (a detached gc --auto may still be packing), seen free three times running. */
async function gcSettled(store: string): Promise<void> {
  for (let free = 0, i = 0; free < 3 && i < 3000; i++) {
    free = existsSync(join(store, 'gc.pid')) ? 0 : free + 1;
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('CtxSaver puts racing gc', () => {
  it(`${WRITERS} savers × ${PUTS} puts against a loop of git gc, git gc --auto and ctx gc: fsck, gc and every getTuple whole`, async () => {
    const store = newStore();
    const done = join(dirname(store), 'writers-done');
    // each round one of the three; "already running" (git 128 with that message or gc.pid.lock taken,
    // ctx exit 3) is the expected answer of two at once, any other failure ends the loop with its stderr
    const gcLoop = shellCtx(
      store,
      `n=0; while [ ! -e "${done}" ] || [ $n -lt 3 ]; do
        case $((n % 3)) in
          0) err=$(git --git-dir="$CTX_STORE" -c gc.autoPackLimit=4 gc --auto --quiet 2>&1); rc=$? ;;
          1) err=$(git --git-dir="$CTX_STORE" gc --quiet 2>&1); rc=$? ;;
          2) err=$("$NODE" "$CTX_BIN" gc 2>&1 >/dev/null); rc=$?; [ $rc -eq 3 ] && rc=0 ;;
        esac
        case "$err" in *"gc is already running"*|*"gc.pid.lock': File exists"*) rc=0 ;; esac
        [ $rc -eq 0 ] || { printf 'round %s exited %s: %s\\n' "$n" "$rc" "$err" >&2; exit 1; }
        n=$((n+1))
      done; echo $n`,
    );
    const writers = await Promise.all(Array.from({ length: WRITERS }, (_, k) => writer(store, `thread ${k}`)));
    mkdirSync(done);
    const gcs = await gcLoop;
    await gcSettled(store);
    for (const w of writers) expect(w).toMatchObject({ code: 0, stderr: '' });
    for (const w of writers) expect(w.ids).toHaveLength(PUTS);
    expect(gcs).toMatchObject({ code: 0, stderr: '' });
    // each put released its pack once its branch moved
    expect(readdirSync(join(store, 'objects', 'pack')).filter((n) => n.endsWith('.keep'))).toEqual([]);

    expect(fsck(store)).toEqual({ code: 0, output: '' });
    const gc = spawnSync('git', ['--git-dir', store, 'gc', '--quiet'], { encoding: 'utf8' });
    expect({ code: gc.status, stderr: gc.stderr }).toEqual({ code: 0, stderr: '' });
    expect(fsck(store)).toEqual({ code: 0, output: '' });

    const { CtxSaver } = await import(pathToFileURL(join(DIST, 'langgraph.js')).href);
    const saver = await CtxSaver.open(store);
    try {
      for (const [k, w] of writers.entries()) {
        const thread = `thread ${k}`;
        for (const [i, id] of w.ids.entries()) {
          const t = await saver.getTuple({ configurable: { thread_id: thread, checkpoint_ns: '', checkpoint_id: id } });
          expect(t?.checkpoint.id).toBe(id);
          expect(t.checkpoint.channel_values.n).toBe(i);
          expect(t.checkpoint.channel_values.messages).toHaveLength(i + 1);
          expect(t.checkpoint.channel_values.doc).toMatch(new RegExp(`^${thread}: a document`));
          expect(t.pendingWrites).toEqual([[`task-${i}`, 'n', i + 1]]);
        }
        let listed = 0;
        for await (const _ of saver.list({ configurable: { thread_id: thread } })) listed++;
        expect(listed).toBe(PUTS);
      }
    } finally {
      await saver.close();
    }
  }, 3_600_000);
});

describe('a put\'s .keep', () => {
  it('ctx gc removes a .keep whose writer died, and leaves a live writer\'s and one ctx did not make', () => {
    const store = newStore();
    const packs = join(store, 'objects', 'pack');
    mkdirSync(packs, { recursive: true });
    const keep = (c: string) => join(packs, `pack-${c.repeat(40)}.keep`);
    writeFileSync(keep('a'), 'ctx-lock pid=2147483646 boot=- start=-\n'); // no such process
    writeFileSync(keep('b'), `ctx-lock pid=${process.pid} boot=- start=-\n`); // this test: alive
    writeFileSync(keep('c'), ''); // git index-pack --keep's, or a user's
    const r = ctx(store, ['gc'], { env: FIXED_ENV });
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(readdirSync(packs).filter((n) => n.endsWith('.keep')).sort()).toEqual([`pack-${'b'.repeat(40)}.keep`, `pack-${'c'.repeat(40)}.keep`]);
  });

  it('a .keep planted as a link (to a device that never ends, to a dead writer\'s record) or as a FIFO is neither read nor removed', () => {
    const store = newStore();
    const packs = join(store, 'objects', 'pack');
    mkdirSync(packs, { recursive: true });
    const dead = join(tempDir(), 'record');
    writeFileSync(dead, 'ctx-lock pid=2147483646 boot=- start=-\n');
    const names = ['d', 'e', 'f'].map((c) => `pack-${c.repeat(40)}.keep`);
    symlinkSync('/dev/zero', join(packs, names[0]));
    symlinkSync(dead, join(packs, names[1]));
    execFileSync('mkfifo', [join(packs, names[2])]);
    const r = ctx(store, ['gc'], { env: FIXED_ENV });
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(readdirSync(packs).filter((n) => n.endsWith('.keep')).sort()).toEqual(names);
    expect(readFileSync(dead, 'utf8')).toBe('ctx-lock pid=2147483646 boot=- start=-\n');
  });

  it('a write too large for loose objects (5 MiB) is one pack held by its .keep too: git gc --prune=now before its ref moves keeps it, and git reads it as fast-import wrote it', async () => {
    const store = newStore();
    // 5 MiB that do not compress away, past the 4 MiB a write takes as loose objects (beyond that it went to fast-import, whose own .keep goes when it exits)
    const data = Buffer.alloc(5 * 1024 * 1024);
    for (let i = 0, x = 1; i < data.length; i++) data[i] = (x = (x * 1103515245 + 12345) >>> 0) >>> 24;
    const who = { name: 'Ada', email: 'ada@example.org', timestamp: 1700000000 };
    const spec: CommitSpec = { files: [{ path: 'big', data }], parents: [], author: who, committer: who, message: 'big\n' };
    const engine = createGitEngine(store);
    const kept: string[] = [];
    const [oid] = await engine.writeCommits([spec], { pack: { kept } });
    await engine.close();
    expect(kept.map((k) => k.slice(store.length))).toEqual([expect.stringMatching(/^\/objects\/pack\/pack-[0-9a-f]{40}\.keep$/)]);
    // no ref reaches the commit yet: only the .keep holds it
    git(store, ['gc', '--quiet', '--prune=now']);
    expect(git(store, ['cat-file', '-t', oid])).toBe('commit\n');
    expect(git(store, ['cat-file', '-s', `${oid}:big`])).toBe(`${data.length}\n`);
    const keep = kept[0];
    releaseKept(kept);
    expect([kept, existsSync(keep)]).toEqual([[], false]);
    // the same id as fast-import gives the same commit
    const bare = join(tempDir(), 'other.git');
    execFileSync('git', ['init', '--bare', '-q', bare]);
    const other = createGitEngine(bare);
    expect(await other.writeCommits([spec])).toEqual([oid]);
    await other.close();
    git(store, ['update-ref', 'refs/heads/main', oid]);
    expect(fsck(store)).toEqual({ code: 0, output: '' });
  });
});
