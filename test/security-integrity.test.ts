// Issue 20: names are never paths, ref files are read only as small regular files of the store,
// every artifact read is checked against its meta.json, and a damaged ref or notes ref is gone
// around with a warning by listings (verify still names it).
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CTX, ENGINES, ctx, git, storeLike, tempDir } from './helpers.js';
import { raw, startServe } from './serve-kit.js';

const ENV = { CTX_PRINCIPAL: 'alice', CTX_MACHINE: 'box', CTX_NOW: '2026-01-02T03:04:05.678Z' };
const line = (text: string) => `{"type":"user","message":{"role":"user","content":"${text}"}}\n`;
const SECRET = 'SECRET-0123456789-do-not-print-me-anywhere';

/** main: two commits; other: one commit whose artifact is as long as main's last (built once, copied per test). */
const store = storeLike((s) => {
  for (const [b, text] of [['main', 'one'], ['main', 'two'], ['other', 'six']]) expect(ctx(s, ['checkpoint', '-b', b, '--format', 'claude-code-v1', '-'], { input: line(text), env: ENV }).code).toBe(0);
});

const oid = (s: string, rev: string) => git(s, ['rev-parse', rev]).trim();
const id = (s: string, rev: string) => `ctx-${oid(s, rev).slice(0, 12)}`;

/** A file outside the store that must never be printed; its absolute path. */
function secretFile(): string {
  const f = join(tempDir(), 'secret.txt');
  writeFileSync(f, `${SECRET}\n`);
  return f;
}

/** `ctx ARGS` killed after `ms`: a read that never ends (a FIFO, /dev/zero) fails the test instead of hanging it. */
function bounded(s: string, args: string[], ms = 15_000) {
  const env: NodeJS.ProcessEnv = { ...process.env, ...ENV, CTX_STORE: s };
  const r = spawnSync(process.execPath, [CTX, ...args], { env, timeout: ms, encoding: 'utf8', maxBuffer: 1 << 20 });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

describe('a name is checked as a ref name before any file is read', () => {
  it.each([['show'], ['log'], ['materialize'], ['budget']])('ctx %s ../../…/secret: exit 2, the file never read', (cmd) => {
    const s = store();
    const name = `${'../'.repeat(30)}${secretFile().slice(1)}`;
    const r = ctx(s, [cmd, name, ...(cmd === 'budget' ? ['--window', '1000'] : [])], { env: ENV });
    expect(r).toMatchObject({ code: 2, stdout: '', stderr: `ctx: not a commit or branch name: '${name}' (contains "..")\n` });
  });

  it('a name reaching /dev/zero is refused at once, not read until memory runs out', () => {
    const s = store();
    const name = `${'../'.repeat(30)}dev/zero`;
    expect(bounded(s, ['show', name])).toMatchObject({ code: 2, stdout: '', stderr: `ctx: not a commit or branch name: '${name}' (contains "..")\n` });
  });

  it('ctx serve: /api/show?id=../…/secret is a 400 naming the bad name, never the file', async () => {
    const s = store();
    const name = `${'../'.repeat(30)}${secretFile().slice(1)}`;
    const served = await startServe(s);
    try {
      const r = await raw(served.url, `/api/show?id=${encodeURIComponent(name)}`);
      expect(r.status).toBe(400);
      expect(JSON.parse(r.body)).toMatchObject({ error: 'UsageError', message: `not a commit or branch name: '${name}' (contains "..")` });
      expect(r.body).not.toContain(SECRET);
      const zero = await raw(served.url, `/api/show?id=${encodeURIComponent(`${'../'.repeat(30)}dev/zero`)}`);
      expect(zero.status).toBe(400);
    } finally {
      await served.stop();
    }
  });
});

describe('ref files are read only as small regular files of the store', () => {
  it('a ref that is a symlink to a file outside is damage of that ref, its target never printed', () => {
    const s = store();
    symlinkSync(secretFile(), join(s, 'refs', 'heads', 'evil'));
    expect(ctx(s, ['show', 'evil'], { env: ENV })).toMatchObject({ code: 5, stdout: '', stderr: 'ctx: refs/heads/evil: is a symbolic link, not a ref file\n' });
  });

  it('a directory of refs that is a symlink to elsewhere is not followed', () => {
    const s = store();
    const outside = tempDir();
    writeFileSync(join(outside, 'f'), `${SECRET}\n`);
    symlinkSync(outside, join(s, 'refs', 'heads', 'd'));
    expect(ctx(s, ['show', 'd/f'], { env: ENV })).toMatchObject({ code: 5, stdout: '', stderr: 'ctx: refs/heads/d/f: refs/heads/d is a symbolic link, not a directory of refs\n' });
    // the listing goes around it, naming it
    expect(ctx(s, ['branch'], { env: ENV })).toMatchObject({
      code: 0,
      stdout: `main\t${id(s, 'main')}\nother\t${id(s, 'other')}\n`,
      stderr: 'ctx: warning: ignoring broken ref refs/heads/d: is a symbolic link, not a ref file\n',
    });
  });

  it('a symbolic ref whose target leaves refs/ is damage, its target never read', () => {
    const s = store();
    writeFileSync(join(s, 'refs', 'heads', 'sym'), `ref: ${'../'.repeat(30)}${secretFile().slice(1)}\n`);
    const r = ctx(s, ['show', 'sym'], { env: ENV });
    expect(r).toMatchObject({ code: 5, stdout: '' });
    expect(r.stderr).toMatch(/^ctx: refs\/heads\/sym: holds "ref: \.\.\/.*", not an object id or "ref: <name>"\n$/);
    expect(r.stderr).not.toContain(SECRET);
  });

  it('a ref at /dev/zero, a FIFO or a file of 10,000 bytes is damage, read in bounded time and memory', () => {
    const s = store();
    symlinkSync('/dev/zero', join(s, 'refs', 'heads', 'zero'));
    expect(spawnSync('mkfifo', [join(s, 'refs', 'heads', 'fifo')]).status).toBe(0);
    writeFileSync(join(s, 'refs', 'heads', 'big'), `${SECRET}${'x'.repeat(10_000 - SECRET.length)}`);
    expect(bounded(s, ['show', 'zero'])).toMatchObject({ code: 5, stdout: '', stderr: 'ctx: refs/heads/zero: is a symbolic link, not a ref file\n' });
    expect(bounded(s, ['show', 'fifo'])).toMatchObject({ code: 5, stdout: '', stderr: 'ctx: refs/heads/fifo: is not a regular file\n' });
    expect(bounded(s, ['show', 'big'])).toMatchObject({ code: 5, stdout: '', stderr: 'ctx: refs/heads/big: is 10000 bytes, not a ref file\n' });
  });

  it('packed-refs that is a symlink is damage of packed-refs, its target never printed', () => {
    const s = store();
    const target = secretFile();
    symlinkSync(target, join(s, 'packed-refs'));
    expect(ctx(s, ['show', 'nope'], { env: ENV })).toMatchObject({ code: 5, stdout: '', stderr: 'ctx: packed-refs: is a symbolic link, not a file of refs\n' });
  });
});

/** Forge a commit on `branch` like its tip but for meta.json, edited by `edit`: git plumbing, as a hostile or broken tool would. */
function forgeMeta(s: string, branch: string, edit: (meta: Record<string, unknown>) => void): string {
  const meta = JSON.parse(git(s, ['cat-file', 'blob', `${branch}:meta.json`]));
  edit(meta);
  const metaFile = join(tempDir(), 'meta.json');
  writeFileSync(metaFile, `${JSON.stringify(meta)}\n`);
  const blob = git(s, ['hash-object', '-w', metaFile]).trim();
  const entries = git(s, ['ls-tree', branch]).split('\n').filter((l) => l && !l.endsWith('\tmeta.json'));
  entries.push(`100644 blob ${blob}\tmeta.json`);
  const tree = spawnSync('git', ['--git-dir', s, 'mktree'], { input: `${entries.join('\n')}\n`, encoding: 'utf8' }).stdout.trim();
  const parents = git(s, ['log', '-1', '--format=%P', branch]).trim().split(' ').filter(Boolean);
  const msg = git(s, ['log', '-1', '--format=%B', branch]);
  const commit = spawnSync('git', ['--git-dir', s, 'commit-tree', tree, ...parents.flatMap((p) => ['-p', p])], { input: msg, encoding: 'utf8', env: { ...process.env, GIT_AUTHOR_DATE: '1767323045 +0000', GIT_COMMITTER_DATE: '1767323045 +0000' } }).stdout.trim();
  git(s, ['update-ref', `refs/heads/${branch}`, commit]);
  return commit;
}

describe.each(ENGINES)('every artifact read is checked against meta.json (engine %s)', (engine) => {
  const run = (s: string, args: string[]) => ctx(s, ['--engine', engine, ...args], { env: ENV });

  it("a loose artifact replaced by another blob's bytes is refused by materialize, markdown, show --delta and budget", () => {
    const s = store();
    const [mine, theirs] = [oid(s, 'main:delta.jsonl'), oid(s, 'other:delta.jsonl')];
    const file = join(s, 'objects', mine.slice(0, 2), mine.slice(2));
    chmodSync(file, 0o644);
    // the same length: only the BLAKE3 tells them apart (git's cat-file does not check the id)
    copyFileSync(join(s, 'objects', theirs.slice(0, 2), theirs.slice(2)), file);
    expect(git(s, ['cat-file', 'blob', mine])).toBe(line('six'));
    // isomorphic-git checks a loose object's id itself; git's cat-file does not, and ctx checks the BLAKE3
    const err = `ctx: ${id(s, 'main')}: ${engine === 'git' ? 'artifact does not match its BLAKE3 in meta.json' : 'artifact is damaged'}\n`;
    for (const args of [['materialize', 'main'], ['materialize', 'main', '--verify'], ['materialize', 'main', '--format', 'markdown'], ['materialize', 'main', '--stop', 'root'], ['show', '--delta', 'main'], ['budget', 'main', '--window', '1000']])
      expect(run(s, args)).toMatchObject({ code: 5, stdout: '', stderr: err });
    // what is intact still reads
    expect(run(s, ['materialize', 'other'])).toMatchObject({ code: 0, stdout: line('six'), stderr: '' });
  });

  it('materialize --verify (and every read) fails when artifact_size or artifact disagrees with the artifact', () => {
    const s = store();
    forgeMeta(s, 'main', (m) => void (m.artifact_size = (m.artifact_size as number) + 1));
    const size = Buffer.byteLength(line('two'));
    for (const args of [['materialize', 'main', '--verify'], ['materialize', 'main'], ['show', '--delta', 'main']])
      expect(run(s, args)).toMatchObject({ code: 5, stdout: '', stderr: `ctx: ${id(s, 'main')}: artifact is ${size} bytes, meta.json says ${size + 1}\n` });
    forgeMeta(s, 'other', (m) => void (m.artifact = `blake3:${'0'.repeat(64)}`));
    for (const args of [['materialize', 'other', '--verify'], ['materialize', 'other'], ['show', '--delta', 'other']])
      expect(run(s, args)).toMatchObject({ code: 5, stdout: '', stderr: `ctx: ${id(s, 'other')}: artifact does not match its BLAKE3 in meta.json\n` });
  });

  it('a commit whose tree lost its artifact is listed (log, show) but its artifact is refused, and verify fails', () => {
    const s = store();
    const tree = spawnSync('git', ['--git-dir', s, 'mktree'], { input: `${git(s, ['ls-tree', 'main']).split('\n').filter((l) => l.endsWith('\tmeta.json')).join('\n')}\n`, encoding: 'utf8' }).stdout.trim();
    const msg = git(s, ['log', '-1', '--format=%B', 'main']);
    const commit = spawnSync('git', ['--git-dir', s, 'commit-tree', tree, '-p', oid(s, 'main~1')], { input: msg, encoding: 'utf8', env: { ...process.env, GIT_AUTHOR_DATE: '1767323045 +0000', GIT_COMMITTER_DATE: '1767323045 +0000' } }).stdout.trim();
    git(s, ['update-ref', 'refs/heads/main', commit]);
    expect(run(s, ['log', 'main'])).toMatchObject({ code: 0, stderr: '' });
    expect(run(s, ['show', 'main'])).toMatchObject({ code: 0, stderr: '' });
    const err = `ctx: ${id(s, 'main')}: artifact is missing\n`;
    for (const args of [['show', '--delta', 'main'], ['materialize', 'main'], ['budget', 'main', '--window', '1000']]) expect(run(s, args)).toMatchObject({ code: 5, stdout: '', stderr: err });
    expect(run(s, ['verify', 'main'])).toMatchObject({ code: 5, stdout: '', stderr: `ctx: ${id(s, 'main')}: no artifact in the tree\n` });
  });
});

describe.each(ENGINES)('a broken ref is left out of listings with a warning (engine %s)', (engine) => {
  const run = (s: string, args: string[]) => ctx(s, ['--engine', engine, ...args], { env: ENV });
  const listing = (s: string) => `main\t${id(s, 'main')}\nother\t${id(s, 'other')}\n`;

  it.each([
    ['a missing object', (s: string) => writeFileSync(join(s, 'refs/heads/x'), '0123456789abcdef0123456789abcdef01234567\n'), () => 'refs/heads/x: points at 0123456789ab, which is missing'],
    ['a blob', (s: string) => writeFileSync(join(s, 'refs/heads/x'), `${oid(s, 'main:meta.json')}\n`), (s: string) => `refs/heads/x: points at ${oid(s, 'main:meta.json').slice(0, 12)}, which is a blob, not a commit`],
    ['a tree', (s: string) => writeFileSync(join(s, 'refs/heads/x'), `${oid(s, 'main^{tree}')}\n`), (s: string) => `refs/heads/x: points at ${oid(s, 'main^{tree}').slice(0, 12)}, which is a tree, not a commit`],
    ['a file of garbage', (s: string) => writeFileSync(join(s, 'refs/heads/x'), 'garbage\n'), () => 'refs/heads/x: holds "garbage", not an object id or "ref: <name>"'],
  ])('a branch at %s: branch and log --all list the rest (exit 0), verify names it (exit 5)', (_, damage, problem) => {
    const s = store();
    damage(s);
    const warning = `ctx: warning: ignoring broken ref ${problem(s)}\n`;
    expect(run(s, ['branch'])).toMatchObject({ code: 0, stdout: listing(s), stderr: warning });
    const all = run(s, ['log', '--all']);
    expect(all).toMatchObject({ code: 0, stderr: warning });
    expect(all.stdout.split('\n').length - 1).toBe(3);
    expect(run(s, ['verify'])).toMatchObject({ code: 5, stdout: '', stderr: `ctx: ${problem(s)}\n` });
  });

  it('garbage lines in packed-refs: the refs it holds are listed, the damage named once', () => {
    const s = store();
    const intact = listing(s);
    git(s, ['pack-refs', '--all']);
    const file = join(s, 'packed-refs');
    writeFileSync(file, `${readFileSync(file, 'utf8')}garbage\nmore garbage\n`);
    const n = readFileSync(file, 'utf8').split('\n').length - 2;
    const damage = `packed-refs: line ${n} is not "<object id> <ref>" ("garbage")`;
    expect(run(s, ['branch'])).toMatchObject({ code: 0, stdout: intact, stderr: `ctx: warning: ignoring damaged ${damage}\n` });
    expect(run(s, ['log', '--all'])).toMatchObject({ code: 0, stderr: `ctx: warning: ignoring damaged ${damage}\n` });
    expect(run(s, ['verify'])).toMatchObject({ code: 5, stdout: '', stderr: `ctx: ${damage}\n` });
  });

  it('refs/notes/ctx at a missing object: log and show read without annotations, warning once; verify and annotate fail', () => {
    const s = store();
    // the log as the commits say it, without the annotation that is lost with the notes ref
    const plainLog = run(s, ['log', 'main']).stdout;
    expect(run(s, ['annotate', 'main', '--summary', 'hello']).code).toBe(0);
    expect(run(s, ['log', 'main']).stdout).not.toBe(plainLog);
    mkdirSync(join(s, 'refs', 'notes'), { recursive: true });
    writeFileSync(join(s, 'refs', 'notes', 'ctx'), '0123456789abcdef0123456789abcdef01234567\n');
    const damage = 'refs/notes/ctx: points at 0123456789ab, which is missing';
    const warning = `ctx: warning: reading without annotations: ${damage}\n`;
    expect(run(s, ['log', 'main'])).toMatchObject({ code: 0, stdout: plainLog, stderr: warning });
    expect(run(s, ['log', '--all'])).toMatchObject({ code: 0, stderr: warning });
    expect(run(s, ['show', 'main'])).toMatchObject({ code: 0, stderr: warning });
    expect(run(s, ['verify', 'main'])).toMatchObject({ code: 5, stdout: '', stderr: `ctx: ${damage}\n` });
    expect(run(s, ['annotate', 'main', '--summary', 'again'])).toMatchObject({ code: 5, stdout: '', stderr: `ctx: ${damage}\n` });
    rmSync(join(s, 'refs', 'notes', 'ctx'));
  });
});
