// Both object engines against real bare repos, checked with native git: same ids, exact bytes, clean refs.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommitSpec, Engine, EngineName } from '../src/store/engine.js';
import { createGitEngine } from '../src/store/engine-git.js';
import { createIsogitEngine } from '../src/store/engine-isogit.js';
import { createEngine, gitOnPath } from '../src/store/engine-select.js';
import { releaseKept } from '../src/store/pack-write.js';
import { UsageError } from '../src/errors/index.js';

// Recorded once (and rebuilt by hand with hash-object/mktree); if this changes, the on-disk format changed.
const TIP_ID = '572ce80a258450cbb6b49422d9a9e69db489f76f';
const MISSING = '0123456789abcdef0123456789abcdef01234567';

const tmp = fs.mkdtempSync(join(os.tmpdir(), 'ctx-engines-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function git(gitdir: string, args: string[], input?: Uint8Array): Buffer {
  return execFileSync('git', args, { env: { ...process.env, GIT_DIR: gitdir }, input, stdio: ['pipe', 'pipe', 'pipe'] });
}

function bareRepo(name: string): string {
  const dir = join(tmp, name);
  execFileSync('git', ['init', '--bare', '-q', dir]);
  return dir;
}

const bytes = (s: string) => Buffer.from(s, 'utf8');
const allBytes = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
const sig = (t: number) => ({ name: 'Ada Lövelace', email: 'ada@example.org', timestamp: t });
const messages = ['first\n', 'zweite Nachricht — ünïcødé ✓ 🚀\n\nbody line\n', 'three\r\n\n\nkept as given\n\n'];
const bigBlob = bytes('x'.repeat(5000));

function specsFor(existingBlob: string): CommitSpec[] {
  return [
    {
      files: [{ path: 'meta.json', data: bytes('{"n":0}\n') }, { path: 'chunks/0000', data: allBytes }],
      parents: [],
      author: sig(1700000000),
      committer: sig(1700000001),
      message: messages[0],
    },
    {
      files: [{ path: 'meta.json', data: bytes('{"n":1}\n') }, { path: 'big', oid: existingBlob }, { path: 'chunks/0001', data: bytes('') }],
      parents: [{ index: 0 }],
      author: sig(1700000100),
      committer: sig(1700000101),
      message: messages[1],
    },
    {
      files: [{ path: 'meta.json', data: bytes('{"n":2}\n') }],
      parents: [{ index: 1 }],
      author: sig(1700000200),
      committer: { name: 'ctx', email: 'ctx@localhost', timestamp: 1700000201 },
      message: messages[2],
    },
  ];
}

const factories: Record<EngineName, (dir: string) => Engine> = { git: createGitEngine, isogit: createIsogitEngine };
const written: Partial<Record<EngineName, string[]>> = {};

for (const name of ['git', 'isogit'] as const) {
  describe(`engine ${name}`, () => {
    let dir: string;
    let engine: Engine;
    let ids: string[];
    let blob: string;
    const refsBefore = () => git(dir, ['for-each-ref']).toString();

    beforeAll(async () => {
      dir = bareRepo(name);
      blob = git(dir, ['hash-object', '-w', '--stdin'], bigBlob).toString().trim();
      // A ref that must not move, and HEAD on it so fsck has nothing to remark on.
      const empty = git(dir, ['mktree'], bytes('')).toString().trim();
      git(dir, ['update-ref', 'refs/heads/keep', git(dir, ['commit-tree', empty], bytes('k\n')).toString().trim()]);
      git(dir, ['symbolic-ref', 'HEAD', 'refs/heads/keep']);
      engine = factories[name](dir);
      ids = await engine.writeCommits(specsFor(blob));
      written[name] = ids;
    });
    afterAll(() => engine.close());

    it('writes commits that fsck --strict accepts, and moves no ref', () => {
      expect(ids).toHaveLength(3);
      expect(ids[2]).toBe(TIP_ID);
      const fsck = spawnSync('git', ['fsck', '--strict', '--no-dangling'], { env: { ...process.env, GIT_DIR: dir } });
      expect(fsck.stdout.toString() + fsck.stderr.toString()).toBe('');
      expect(fsck.status).toBe(0);
      const keep = git(dir, ['rev-parse', 'refs/heads/keep']).toString().trim();
      expect(refsBefore()).toBe(`${keep} commit\trefs/heads/keep\n`);
      expect(fs.existsSync(join(dir, 'refs', 'ctx-tmp'))).toBe(false);
    });

    it('stores the message and signature lines byte for byte', () => {
      const tree = git(dir, ['rev-parse', `${ids[1]}^{tree}`]).toString().trim();
      const expected = `tree ${tree}\nparent ${ids[0]}\nauthor Ada Lövelace <ada@example.org> 1700000100 +0000\n` +
        `committer Ada Lövelace <ada@example.org> 1700000101 +0000\n\n${messages[1]}`;
      expect(git(dir, ['cat-file', 'commit', ids[1]])).toEqual(bytes(expected));
      expect(git(dir, ['cat-file', 'commit', ids[2]]).subarray(-messages[2].length)).toEqual(bytes(messages[2]));
      expect(git(dir, ['ls-tree', '-r', '--name-only', ids[1]]).toString()).toBe('big\nchunks/0001\nmeta.json\n');
    });

    const gitTree = (oid: string) => git(dir, ['rev-parse', `${oid}^{tree}`]).toString().trim();
    const checkReads = async (e: Engine) => {
      const got = await e.readObjects([
        `${ids[0]}:meta.json`, `${ids[0]}:chunks/0000`, `${ids[1]}:big`, `${ids[1]}:chunks/0001`,
        `${ids[0]}:nope`, `${ids[0]}:chunks/nope`, MISSING, `${MISSING}:meta.json`, ids[2],
      ]);
      expect(got.slice(0, 4).map((o) => [o?.type, Buffer.from(o!.data)])).toEqual([
        ['blob', bytes('{"n":0}\n')], ['blob', allBytes], ['blob', bigBlob], ['blob', Buffer.alloc(0)],
      ]);
      expect(got.slice(4, 8)).toEqual([null, null, null, null]);
      expect(got[8]?.type).toBe('commit');
      expect(Buffer.from(got[8]!.data)).toEqual(git(dir, ['cat-file', 'commit', ids[2]]));
      const [tree] = await e.readObjects([`${ids[0]}:chunks`]);
      expect(tree?.type).toBe('tree');
      expect((await e.readObject(ids[0]))?.type).toBe('commit');
      expect(await e.readObject(MISSING)).toBeNull();
      expect(Buffer.from((await e.readObject(blob))!.data)).toEqual(bigBlob);
      expect(await e.chain(ids[2])).toEqual([2, 1, 0].map((i) => ({ oid: ids[i], tree: gitTree(ids[i]), message: messages[i] })));
      expect((await e.chain(ids[2], 2)).map((l) => l.oid)).toEqual([ids[2], ids[1]]);
      expect((await e.chain(ids[0], 5)).map((l) => l.oid)).toEqual([ids[0]]);
    };

    it('reads objects, paths and first parents', () => checkReads(engine));

    it('keeps answers in order for bulk and concurrent reads', async () => {
      const pick = (i: number) => [`${ids[0]}:meta.json`, MISSING, `${ids[1]}:big`][i % 3];
      const expected = (i: number) => [bytes('{"n":0}\n'), null, bigBlob][i % 3]?.toString('latin1') ?? null;
      const bulk = Array.from({ length: 1200 }, (_, i) => pick(i)); // past the one-shot `--buffer` threshold
      const small = Array.from({ length: 50 }, (_, i) => pick(i + 1));
      const [a, b, c] = await Promise.all([engine.readObjects(bulk), engine.readObjects(small), engine.readObjects(small.slice(7))]);
      // Compared as strings: deep equality walks a Buffer byte by byte.
      const asBytes = (objs: typeof a) => objs.map((o) => (o ? Buffer.from(o.data).toString('latin1') : null));
      expect(asBytes(a)).toEqual(bulk.map((_, i) => expected(i)));
      expect(asBytes(b)).toEqual(small.map((_, i) => expected(i + 1)));
      expect(asBytes(c)).toEqual(small.slice(7).map((_, i) => expected(i + 8)));
    });

    it('writes roots, merges and existing parents in a later batch', async () => {
      const more = await engine.writeCommits([
        { files: [], parents: [], author: sig(1), committer: sig(1), message: 'root\n' },
        { files: [{ path: 'a', data: bytes('a') }], parents: [ids[2], { index: 0 }], author: sig(2), committer: sig(2), message: 'merge\n' },
      ]);
      expect(git(dir, ['rev-list', '--parents', '-n', '1', more[1]]).toString()).toBe(`${more[1]} ${ids[2]} ${more[0]}\n`);
      expect(git(dir, ['rev-list', '--count', more[0]]).toString()).toBe('1\n');
      expect((await engine.chain(more[1])).map((l) => l.oid)).toEqual([more[1], ...ids.slice().reverse()]);
      written[name]!.push(...more);
    });

    it('refuses a missing parent or blob and leaves nothing behind', async () => {
      const base = { files: [], author: sig(1), committer: sig(1), message: 'x\n' };
      await expect(engine.writeCommits([{ ...base, parents: [MISSING] }])).rejects.toThrow();
      await expect(engine.writeCommits([{ ...base, parents: [], files: [{ path: 'f', oid: MISSING }] }])).rejects.toThrow();
      await expect(engine.writeCommits([{ ...base, parents: [], files: [{ path: 'a/b/c', data: bytes('') }] }])).rejects.toThrow(/invalid tree path/);
      expect(fs.readdirSync(dir).filter((f) => f.startsWith('fast_import_crash'))).toEqual([]);
      expect(git(dir, ['for-each-ref', '--format=%(refname)']).toString()).toBe('refs/heads/keep\n');
    });

    it('still reads after git gc packs everything', async () => {
      git(dir, ['update-ref', 'refs/heads/ctx', written[name]!.at(-1)!]);
      git(dir, ['gc', '-q', '--prune=now']);
      expect(fs.readdirSync(join(dir, 'objects', 'pack')).some((f) => f.endsWith('.pack'))).toBe(true);
      await checkReads(engine);
      const fresh = factories[name](dir);
      await checkReads(fresh);
      await fresh.close();
    });
  });
}

describe('both engines', () => {
  it('produce identical commit ids for identical specs', () => {
    expect(written.git).toHaveLength(5);
    expect(written.isogit).toEqual(written.git);
  });

  it('write a small self-contained batch as loose objects in-process, with the ids isomorphic-git gives', async () => {
    // the first and third specs name no existing blob, so the git engine writes them without fast-import
    const small = [specsFor('')[0], { ...specsFor('')[2], parents: [{ index: 0 }] }];
    const ids: Record<EngineName, string[]> = { git: [], isogit: [] };
    for (const name of ['git', 'isogit'] as const) {
      const dir = bareRepo(`loose-${name}`);
      const e = name === 'git' ? createGitEngine(dir) : createIsogitEngine(dir);
      ids[name] = await e.writeCommits(small);
      await e.close();
      git(dir, ['update-ref', 'refs/heads/master', ids[name][1]]);
      expect(git(dir, ['count-objects', '-v']).toString()).toMatch(/^count: 8\n[^]*^in-pack: 0$/m);
      expect(spawnSync('git', ['--git-dir', dir, 'fsck', '--strict', '--no-progress'], { encoding: 'utf8' })).toMatchObject({ status: 0, stdout: "", stderr: "" });
      expect(git(dir, ['cat-file', 'commit', ids[name][1]]).toString()).toContain(`parent ${ids[name][0]}\n`);
    }
    expect(ids.git).toEqual(ids.isogit);
    // a parent that does not exist is refused, as fast-import refuses it
    const e = createGitEngine(bareRepo('loose-orphan'));
    await expect(e.writeCommits([{ ...specsFor('')[0], parents: [MISSING] }])).rejects.toThrow(`commit ${MISSING} not found`);
    await e.close();
  });

  it('writes a small batch as one pack and index that git verifies, with the same ids as loose objects', async () => {
    const small = [specsFor('')[0], { ...specsFor('')[2], parents: [{ index: 0 }] }];
    const dir = bareRepo('packed-git');
    const e = createGitEngine(dir);
    const kept: string[] = [];
    const ids = await e.writeCommits(small, { pack: { kept } });
    // the reader already running finds the pack written after it started
    expect((await e.readObject(ids[1]))?.type).toBe('commit');
    // the pack stays kept (a repack leaves it alone) until its ref has moved and the writer lets go
    expect(kept.map((k) => k.slice(dir.length))).toEqual([expect.stringMatching(/^\/objects\/pack\/pack-[0-9a-f]{40}\.keep$/)]);
    expect(fs.existsSync(kept[0])).toBe(true);
    const keep = kept[0];
    releaseKept(kept);
    expect([kept, fs.existsSync(keep)]).toEqual([[], false]);
    await e.close();
    const loose = createGitEngine(bareRepo('packed-loose'));
    expect(ids).toEqual(await loose.writeCommits(small));
    await loose.close();
    git(dir, ['update-ref', 'refs/heads/master', ids[1]]);
    expect(git(dir, ['count-objects', '-v']).toString()).toMatch(/^count: 0\n[^]*^in-pack: 8\npacks: 1\n/m);
    const packs = fs.readdirSync(join(dir, 'objects', 'pack')).sort();
    expect(packs).toEqual([packs[0].replace(/\.idx$/, '.idx'), packs[0].replace(/\.idx$/, '.pack')]);
    expect(git(dir, ['verify-pack', '-v', join(dir, 'objects', 'pack', packs[0])]).toString()).toMatch(/^non delta: 8 objects\n/m);
    expect(spawnSync('git', ['--git-dir', dir, 'fsck', '--strict', '--no-progress'], { encoding: 'utf8' })).toMatchObject({ status: 0, stdout: '', stderr: '' });
    expect(git(dir, ['cat-file', 'commit', ids[1]]).toString()).toContain(`parent ${ids[0]}\n`);
    // a missing parent writes nothing at all
    const orphan = bareRepo('packed-orphan');
    const o = createGitEngine(orphan);
    await expect(o.writeCommits([{ ...specsFor('')[0], parents: [MISSING] }], { pack: { kept: [] } })).rejects.toThrow(`commit ${MISSING} not found`);
    await o.close();
    expect(fs.readdirSync(join(orphan, 'objects', 'pack'))).toEqual([]);
  });

  it('turns a git failure into an Error carrying git\'s message', async () => {
    const e = createGitEngine(join(tmp, 'no-such-repo'));
    await expect(e.readObject(MISSING)).rejects.toThrow(/^fatal: not a git repository/);
    await expect(e.chain(MISSING)).rejects.toThrow(/^fatal: not a git repository/);
    await e.close();
  });

  it('selects the git engine when git is on PATH', async () => {
    expect(gitOnPath()).toBe(true);
    expect(gitOnPath({ PATH: '' })).toBe(false);
    const auto = createEngine(join(tmp, 'git'), 'auto');
    expect(auto.name).toBe('git');
    await auto.close();
    expect(createEngine(join(tmp, 'git'), 'isogit').name).toBe('isogit');
    const path = process.env.PATH;
    try {
      process.env.PATH = join(tmp, 'nowhere');
      expect(() => createEngine(tmp, 'git')).toThrow(UsageError);
      expect(createEngine(tmp, 'auto').name).toBe('isogit');
    } finally {
      process.env.PATH = path;
    }
  });
});
