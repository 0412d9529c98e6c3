// Corrupted stores, damaged as git plumbing or a file edit would: every read names what is damaged
// (the ref, the commit, packed-refs) in one line, exit 5, on both engines; never `internal error`,
// never wrong data. What the damage does not touch still reads; listings (branch, log --all) go
// around a damaged ref with a warning, as git's "ignoring broken ref".
import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync, rmSync, writeFileSync, chmodSync } from 'node:fs';
import { join } from 'node:path';
import { ENGINES, ctx, git, storeLike } from './helpers.js';
import { RepoContext } from '../src/api/repo/repo-context.js';
import { branchList } from '../src/api/read/read.js';

const ENV = { CTX_PRINCIPAL: 'alice', CTX_MACHINE: 'box', CTX_NOW: '2026-01-02T03:04:05.678Z' };
const line = (text: string) => `{"type":"user","message":{"role":"user","content":"${text}"}}\n`;

/** main: three commits, annotated at its tip; ok: one commit of its own. Built once (ids are fixed), copied per test. */
const store = storeLike((template) => {
  for (const text of ['one', 'two', 'three']) expect(ctx(template, ['checkpoint', '-b', 'main', '--format', 'claude-code-v1', '-'], { input: line(text), env: ENV }).code).toBe(0);
  expect(ctx(template, ['checkpoint', '-b', 'ok', '--format', 'claude-code-v1', '-'], { input: line('ok'), env: ENV }).code).toBe(0);
  expect(ctx(template, ['annotate', 'main', '--summary', 'hello'], { env: ENV }).code).toBe(0);
});

const oid = (s: string, rev: string) => git(s, ['rev-parse', rev]).trim();
const short = (s: string, rev: string) => oid(s, rev).slice(0, 12);
const id = (s: string, rev: string) => `ctx-${short(s, rev)}`;

/** The one pack of a store after `git gc`, writable, and the offset of `rev`'s object in it. */
function packed(s: string, rev: string): { pack: string; offset: number } {
  git(s, ['gc', '-q']);
  const dir = join(s, 'objects', 'pack');
  const pack = join(dir, readdirSync(dir).find((n) => n.endsWith('.pack'))!);
  chmodSync(pack, 0o644);
  const want = oid(s, rev);
  const idx = git(s, ['verify-pack', '-v', pack.replace(/\.pack$/, '.idx')]).split('\n').find((l) => l.startsWith(want))!;
  return { pack, offset: Number(idx.trim().split(/\s+/)[4]) };
}

const refFile = (s: string, ref: string, content: string) => writeFileSync(join(s, ref), content);

describe.each(ENGINES)('a corrupted store, engine %s', (engine) => {
  const run = (s: string, args: string[]) => ctx(s, ['--engine', engine, ...args], { env: ENV });
  /** A command that fails on the damage: nothing on stdout, exactly `stderr`, exit 5. */
  const refused = (s: string, args: string[], stderr: string) => expect(run(s, args)).toMatchObject({ code: 5, stdout: '', stderr });
  /**
   * The commands a damage is tried with: all of them on git, whose reads differ by command (rev-list,
   * cat-file); one on isomorphic-git, where every read is the one read() and the naming of the damage
   * is shared code (src/store/refs.ts, damage.ts, objects.ts, api/repo/repo-context.ts) already tried on git.
   */
  const commands = (all: string[][]) => (engine === 'git' ? all : [all.find((a) => a[0] === 'materialize') ?? all[0]]);
  /** `ctx branch` lists the intact branches (exit 0) and warns of the damage, as git's "ignoring broken ref". */
  const branchWarned = async (s: string, stderr: string) => {
    const { tips } = await branches(s);
    const warning = stderr.replace(/^ctx: (packed-refs: )?/, (_, packed) => `ctx: warning: ignoring ${packed ? 'damaged packed-refs: ' : 'broken ref '}`);
    expect(run(s, ['branch'])).toMatchObject({ code: 0, stderr: warning, stdout: tips.map(([n, tip]) => `${n}\t${tip.slice(0, 16)}\n`).join('') });
    return warning;
  };
  const branches = async (s: string) => {
    const repo = new RepoContext(s, { engine });
    try {
      const { branches: list, damaged } = await branchList(repo);
      return { names: list.map((b) => b.name), damaged: damaged.map((e) => e.message), tips: list.map((b) => [b.name, b.id]) };
    } finally {
      await repo.close();
    }
  };

  it.each([
    ['blob', 'main:meta.json'],
    ['tree', 'main^{tree}'],
  ])('a branch at a %s is damage of that ref', async (type, rev) => {
    const s = store();
    // git update-ref refuses a non-commit under refs/heads/: the file is written as a broken tool would
    refFile(s, 'refs/heads/x', `${oid(s, rev)}\n`);
    const err = `ctx: refs/heads/x: points at ${short(s, rev)}, which is a ${type}, not a commit\n`;
    for (const args of commands([['verify'], ['verify', 'x'], ['log', 'x'], ['show', 'x'], ['materialize', 'x'], ['budget', 'x', '--window', '1000']])) refused(s, args, err);
    await branchWarned(s, err);
    expect(await branches(s)).toMatchObject({ names: ['main', 'ok'], damaged: [err.slice(5, -1)] });
    // the intact branches still read
    expect(run(s, ['materialize', 'ok'])).toMatchObject({ code: 0, stdout: line('ok') });
    expect(run(s, ['log', 'main']).code).toBe(0);
  });

  it('a tag at a blob is damage of that tag', () => {
    const s = store();
    git(s, ['update-ref', 'refs/tags/t', oid(s, 'main:meta.json')]);
    refused(s, ['materialize', 't'], `ctx: refs/tags/t: points at ${short(s, 'main:meta.json')}, which is a blob, not a commit\n`);
  });

  it('a ref file of garbage is damage, not an object id', async () => {
    const s = store();
    refFile(s, 'refs/heads/x', 'garbage\n');
    const err = 'ctx: refs/heads/x: holds "garbage", not an object id or "ref: <name>"\n';
    for (const args of commands([['verify'], ['verify', 'x'], ['log', 'x'], ['show', 'x'], ['materialize', 'x'], ['budget', 'x', '--window', '1000']])) refused(s, args, err);
    const warning = await branchWarned(s, err);
    expect(run(s, ['log', '--all'])).toMatchObject({ code: 0, stderr: warning });
    expect(await branches(s)).toMatchObject({ names: ['main', 'ok'], damaged: [err.slice(5, -1)] });
    // a branch beside the damage deletes as usual (exit 0), and the damaged one can be deleted
    const okTip = id(s, 'ok');
    expect(run(s, ['branch', 'delete', 'ok'])).toMatchObject({ code: 0, stdout: `Deleted branch ok (was ${okTip})\n`, stderr: '' });
    expect(run(s, ['branch', 'delete', 'x'])).toMatchObject({ code: 0, stdout: 'Deleted damaged branch x (it held "garbage", not an object id or "ref: <name>")\n', stderr: '' });
    expect(git(s, ['for-each-ref', '--format=%(refname)', 'refs/heads/'])).toBe('refs/heads/main\n');
    expect(run(s, ['branch'])).toMatchObject({ code: 0, stderr: '' });
    refFile(s, 'refs/heads/y', 'garbage\n');
    expect(ctx(s, ['--engine', engine, '--json', 'branch', 'delete', 'y'], { env: ENV })).toMatchObject({ code: 0, stdout: '{"v":1,"deleted":"y","id":null,"damaged":"holds \\"garbage\\", not an object id or \\"ref: <name>\\""}\n', stderr: '' });
    // the ref the store's HEAD follows, damaged: `ctx log` without a name reads it
    refFile(s, 'refs/heads/main', 'x'.repeat(50));
    refused(s, ['log'], `ctx: refs/heads/main: holds "${'x'.repeat(40)}…", not an object id or "ref: <name>"\n`);
  });

  it('a missing parent names the commit whose parent it is', () => {
    const s = store();
    const parent = oid(s, 'main~1');
    rmSync(join(s, 'objects', parent.slice(0, 2), parent.slice(2)));
    const err = `ctx: ${id(s, 'main')}: its parent ${parent.slice(0, 12)} is missing\n`;
    for (const args of commands([['verify'], ['verify', 'main'], ['log', 'main'], ['show', 'main~1'], ['materialize', 'main'], ['budget', 'main', '--window', '1000']])) refused(s, args, err);
    // the tip itself is whole
    expect(run(s, ['show', 'main']).code).toBe(0);
    expect(run(s, ['branch'])).toMatchObject({ code: 0, stdout: `main\t${id(s, 'main')}\nok\t${id(s, 'ok')}\n` });
  });

  it('a flipped byte in a pack: the object that holds it cannot be read', async () => {
    const s = store();
    const before = run(s, ['materialize', 'ok']).stdout;
    const { pack, offset } = packed(s, 'main:delta.jsonl');
    const bytes = readFileSync(pack);
    bytes[offset + 20] ^= 0xff;
    writeFileSync(pack, bytes);
    if (engine === 'git') {
      // git reads the pack object by object: only main's artifact is lost
      const err = `ctx: ${id(s, 'main')}: artifact is damaged\n`;
      for (const args of commands([['verify', 'main'], ['materialize', 'main'], ['budget', 'main', '--window', '1000']])) refused(s, args, err);
      expect(run(s, ['materialize', 'ok'])).toMatchObject({ code: 0, stdout: before });
      expect(run(s, ['branch']).code).toBe(0);
    } else {
      // isomorphic-git checks the whole pack's checksum before it reads any object of it
      const err = (ref: string) => `ctx: refs/heads/${ref}: points at ${short(s, ref)}, which cannot be read, the object store is damaged\n`;
      for (const args of commands([['verify', 'main'], ['log', 'main'], ['show', 'main'], ['materialize', 'main'], ['budget', 'main', '--window', '1000']])) refused(s, args, err('main'));
      refused(s, ['materialize', 'ok'], err('ok'));
      expect(await branches(s)).toMatchObject({ names: [], damaged: [err('main').slice(5, -1), err('ok').slice(5, -1)] });
    }
    expect(run(s, ['verify'])).toMatchObject({ code: 5, stdout: '' });
  });

  it('a truncated pack: every object in it is lost', async () => {
    const s = store();
    const { pack } = packed(s, 'main');
    writeFileSync(pack, readFileSync(pack).subarray(0, 1000));
    // git no longer opens a pack that does not match its index: its objects are missing
    const what = engine === 'git' ? 'is missing' : 'cannot be read, the object store is damaged';
    const err = (ref: string) => `ctx: refs/heads/${ref}: points at ${short(s, ref)}, which ${what}\n`;
    for (const args of commands([['verify', 'main'], ['log', 'main'], ['show', 'main'], ['materialize', 'main'], ['budget', 'main', '--window', '1000']])) refused(s, args, err('main'));
    expect(await branches(s)).toMatchObject({ names: [], damaged: [err('main').slice(5, -1), err('ok').slice(5, -1)] });
    const v = run(s, ['verify']);
    expect(v).toMatchObject({ code: 5, stdout: '' });
    expect(v.stderr.split('\n').sort()).toEqual(['', err('main').trim(), err('ok').trim(), `ctx: refs/notes/ctx: ${engine === 'git' ? `points at ${short(s, 'refs/notes/ctx')}, which is missing` : `its commit ${short(s, 'refs/notes/ctx')} cannot be read, the object store is damaged`}`].sort());
  });

  it('packed-refs with a line of garbage: every ref it may hold is unknown', async () => {
    const s = store();
    git(s, ['pack-refs', '--all']);
    writeFileSync(join(s, 'packed-refs'), `${readFileSync(join(s, 'packed-refs'), 'utf8')}garbage\n`);
    const n = readFileSync(join(s, 'packed-refs'), 'utf8').split('\n').length - 1;
    const err = `ctx: packed-refs: line ${n} is not "<object id> <ref>" ("garbage")\n`;
    for (const args of commands([['verify'], ['log', 'nope']])) refused(s, args, err);
    const warning = await branchWarned(s, err);
    expect(run(s, ['log', '--all'])).toMatchObject({ code: 0, stderr: warning });
    // the refs it does name read; a ref it does not hold cannot be told apart from a lost one
    expect(run(s, ['materialize', 'ok'])).toMatchObject({ code: 0, stdout: line('ok') });
    expect(await branches(s)).toMatchObject({ names: ['main', 'ok'], damaged: [err.slice(5, -1)] });
  });

  it('packed-refs holding garbage for one ref: that ref is damaged, the rest read', async () => {
    const s = store();
    git(s, ['pack-refs', '--all']);
    const file = join(s, 'packed-refs');
    writeFileSync(file, readFileSync(file, 'utf8').replace(`${oid(s, 'main')} refs/heads/main`, 'zzzz refs/heads/main'));
    const err = 'ctx: refs/heads/main: packed-refs holds "zzzz" for it, not an object id\n';
    for (const args of commands([['verify'], ['log', 'main'], ['show', 'main'], ['materialize', 'main'], ['budget', 'main', '--window', '1000']])) refused(s, args, err);
    await branchWarned(s, err);
    expect(await branches(s)).toMatchObject({ names: ['ok'], damaged: [err.slice(5, -1)] });
    expect(run(s, ['materialize', 'ok'])).toMatchObject({ code: 0, stdout: line('ok') });
  });

  it('refs/notes/ctx at a missing object: verify and annotate fail, log and show read without annotations', () => {
    const s = store();
    const materialized = run(s, ['materialize', 'main']).stdout;
    refFile(s, 'refs/notes/ctx', '0123456789abcdef0123456789abcdef01234567\n');
    const err = 'ctx: refs/notes/ctx: points at 0123456789ab, which is missing\n';
    for (const args of commands([['verify'], ['verify', 'main']])) refused(s, args, err);
    for (const args of commands([['log', 'main'], ['show', 'main']])) expect(run(s, args)).toMatchObject({ code: 0, stderr: `ctx: warning: reading without annotations: ${err.slice(5)}` });
    refused(s, ['annotate', 'main', '--summary', 'again'], err);
    // no annotation is read by these: their output is what it was
    expect(run(s, ['materialize', 'main'])).toMatchObject({ code: 0, stdout: materialized });
    expect(run(s, ['budget', 'main', '--window', '1000']).code).toBe(0);
    expect(run(s, ['branch'])).toMatchObject({ code: 0, stdout: `main\t${id(s, 'main')}\nok\t${id(s, 'ok')}\n` });
  });
});
