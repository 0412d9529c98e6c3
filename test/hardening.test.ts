// The paths every user hits, attacked: branch names git cannot store, config values that loop or
// that git cannot read, hook input that is not an object, a FIFO as the transcript, locks whose
// holder died or was told to stop. Each refused input leaves the store as it was.
import { describe, expect, it } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CTX, FIXTURES, ctx, git, newStore, objectCount, refSnapshot, tempDir } from './helpers.js';

const ENV = { CTX_PRINCIPAL: 'alice', CTX_MACHINE: 'box', CTX_NOW: '2026-01-02T03:04:05.678Z' };
const LINE = '{"type":"user","message":{"role":"user","content":"hi"}}\n';
const checkpoint = (store: string, branch: string) => ctx(store, ['checkpoint', '-b', branch, '--format', 'claude-code-v1', '-'], { input: LINE, env: ENV });

/** The store's refs, objects and config, to show a refused command wrote nothing. */
const snapshot = (store: string) => [refSnapshot(store), objectCount(store), readFileSync(join(store, 'config'), 'utf8')];

const BOOT = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
const startOf = (pid: number) => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
};
/** A lock record of a process that has exited. */
const deadRecord = () => `ctx-lock pid=${spawnSync('true').pid} boot=${BOOT} start=-\n`;
const liveRecord = () => `ctx-lock pid=${process.pid} boot=${BOOT} start=${startOf(process.pid)}\n`;

describe('branch names git cannot store are refused before anything is written', () => {
  const long = 'a'.repeat(251);
  it.each([
    ['HEAD', 2, "ctx: bad branch name 'HEAD': HEAD names the current branch\n"],
    [long, 2, `ctx: bad branch name '${long}': its last component is longer than 250 bytes (255 with .lock)\n`],
    [`${'d'.repeat(256)}/x`, 2, `ctx: bad branch name '${'d'.repeat(256)}/x': a component is longer than 255 bytes\n`],
    ['claude', 1, 'ctx: cannot create claude: claude/x exists\n'],
    ['claude/x/y', 1, 'ctx: cannot create claude/x/y: claude/x exists\n'],
  ])('%#: checkpoint -b %s', (branch, code, stderr) => {
    const store = newStore();
    expect(checkpoint(store, 'claude/x').code).toBe(0);
    const before = snapshot(store);
    expect(checkpoint(store, branch)).toMatchObject({ code, stderr, stdout: '' });
    expect(ctx(store, ['fork', 'claude/x', branch], { env: ENV })).toMatchObject({ code, stderr, stdout: '' });
    expect(snapshot(store)).toEqual(before);
  });
});

describe('config values', () => {
  it.each([
    ['0', 'ctx: config ctx.maxBlobSize: 0 is out of range (1k to 1g)\n'],
    ['1023', 'ctx: config ctx.maxBlobSize: 1023 is out of range (1k to 1g)\n'],
    ['2g', 'ctx: config ctx.maxBlobSize: 2g is out of range (1k to 1g)\n'],
    ['lots', 'ctx: config ctx.maxBlobSize: not a size: lots\n'],
  ])('ctx.maxBlobSize %s: one line, exit 2, nothing written', (value, stderr) => {
    const store = newStore();
    git(store, ['config', 'ctx.maxBlobSize', value]);
    const before = snapshot(store);
    expect(checkpoint(store, 'b')).toMatchObject({ code: 2, stderr, stdout: '' });
    expect(snapshot(store)).toEqual(before);
  });

  it('a store config git cannot read is not written to: exit 5, the file as it was', () => {
    const store = newStore();
    const config = `${readFileSync(join(store, 'config'), 'utf8')}garbage line\n`;
    writeFileSync(join(store, 'config'), config);
    const r = ctx(store, ['remote', 'add', 'origin', join(tempDir(), 'remote.git')], { env: ENV });
    expect(r).toMatchObject({ code: 5, stdout: '', stderr: `ctx: ${join(store, 'config')}: line 5 is not git config syntax (garbage line); nothing written\n` });
    // native git cannot read the store either: the file is compared byte for byte
    expect(readFileSync(join(store, 'config'), 'utf8')).toBe(config);
  });
});

describe('the hook always exits 0, in bounded time', () => {
  const transcript = () => {
    const file = join(tempDir(), 's-1.jsonl');
    writeFileSync(file, readFileSync(join(FIXTURES, 'claude-code', 'compacted-session.jsonl')));
    return file;
  };
  const input = (file: string, session = 's-1') => JSON.stringify({ session_id: session, transcript_path: file, hook_event_name: 'Stop', cwd: join(file, '..') });
  const hook = (store: string, stdin: string) => spawnSync(process.execPath, [CTX, '--store', store, 'hook', 'claude-code'], { input: stdin, env: { ...process.env, ...ENV }, timeout: 30_000 });
  const hookLog = (store: string) => (existsSync(join(store, 'ctx', 'hook.log')) ? readFileSync(join(store, 'ctx', 'hook.log'), 'utf8') : '');

  it.each(['null', '[]', '"text"', '42', '{}'])('hook input %s: exit 0, one line on stderr, no stack', (stdin) => {
    const store = join(tempDir(), '.ctx');
    const r = hook(store, stdin);
    expect(r.status).toBe(0);
    expect(r.stdout.toString()).toBe('');
    expect(r.stderr.toString()).toMatch(/^ctx hook: \S+\t-\t-\thook input has no session_id\n$/);
  });

  it('hook input that arrives late on stdin is waited for and captured; so is a checkpoint artifact', async () => {
    const store = newStore();
    const file = transcript();
    const late = (args: string[], text: string) =>
      new Promise<number | null>((done) => {
        const child = spawn(process.execPath, [CTX, '--store', store, ...args], { env: { ...process.env, ...ENV } });
        child.on('exit', (code) => done(code));
        setTimeout(() => child.stdin.write(text.slice(0, 10)), 300);
        setTimeout(() => child.stdin.end(text.slice(10)), 600);
      });
    expect(await late(['hook', 'claude-code'], input(file))).toBe(0);
    expect(hookLog(store)).toBe('');
    expect(git(store, ['rev-list', '--count', 'claude/s-1']).trim()).toBe('5');
    expect(await late(['checkpoint', '-b', 'late', '--format', 'claude-code-v1', '-'], LINE)).toBe(0);
    expect(git(store, ['show', 'late:delta.jsonl'])).toBe(LINE);
  });

  it('a FIFO as transcript_path: logged, exit 0, nothing captured', () => {
    const store = newStore();
    const fifo = join(tempDir(), 'fifo.jsonl');
    spawnSync('mkfifo', [fifo]);
    const r = hook(store, input(fifo));
    expect([r.status, r.signal]).toEqual([0, null]);
    expect(hookLog(store)).toContain(`\tStop\ts-1\ttranscript is not a regular file: ${fifo}\n`);
    expect(refSnapshot(store)).toBe('');
  });

  it('a session lock whose holder died is taken over at once; a live holder’s is respected', () => {
    const store = newStore();
    const file = transcript();
    mkdirSync(join(store, 'ctx', 'hooks'), { recursive: true });
    const lock = join(store, 'ctx', 'hooks', 's-1.lock');
    writeFileSync(lock, liveRecord());
    expect(hook(store, input(file)).status).toBe(0);
    expect(hookLog(store)).toContain('another ctx hook is capturing this session');
    expect(refSnapshot(store)).toBe('');
    writeFileSync(lock, deadRecord());
    expect(hook(store, input(file)).status).toBe(0);
    expect(git(store, ['rev-list', '--count', 'claude/s-1']).trim()).toBe('5');
    expect(existsSync(lock)).toBe(false);
  });

  it('a lock with no record (its holder killed while making it) is taken over once 2 s old, not before', () => {
    const store = newStore();
    const file = transcript();
    mkdirSync(join(store, 'ctx', 'hooks'), { recursive: true });
    const lock = join(store, 'ctx', 'hooks', 's-1.lock');
    writeFileSync(lock, '');
    // fresh however long the hook takes to start: its writer may still be writing its record
    const fresh = new Date(Date.now() + 60_000);
    utimesSync(lock, fresh, fresh);
    expect(hook(store, input(file)).status).toBe(0);
    expect(refSnapshot(store)).toBe('');
    const old = new Date(Date.now() - 3_000);
    utimesSync(lock, old, old);
    expect(hook(store, input(file)).status).toBe(0);
    expect(git(store, ['rev-list', '--count', 'claude/s-1']).trim()).toBe('5');
  });

  it('a hook told to stop (SIGTERM) while capturing removes its session lock', async () => {
    const store = newStore();
    // a transcript big enough that the capture is still running when the signal comes
    const one = readFileSync(join(FIXTURES, 'claude-code', 'compacted-session.jsonl'), 'utf8');
    const file = join(tempDir(), 's-1.jsonl');
    writeFileSync(file, Array.from({ length: 400 }, () => one).join(''));
    const child = spawn(process.execPath, [CTX, '--store', store, 'hook', 'claude-code'], { env: { ...process.env, ...ENV, CTX_TOKEN_COUNT: undefined } });
    child.stdin.end(input(file));
    const lock = join(store, 'ctx', 'hooks', 's-1.lock');
    const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
    let seen = false;
    for (let i = 0; i < 2000 && !seen && child.exitCode === null; i++) {
      seen = existsSync(lock);
      if (!seen) await new Promise((r) => setTimeout(r, 5));
    }
    expect(seen).toBe(true);
    child.kill('SIGTERM');
    expect(await exited).toBe(143);
    expect(existsSync(lock)).toBe(false);
  });
});

describe('derived data is never written through a link planted under <store>/ctx/', () => {
  const outside = () => {
    const dir = join(tempDir(), 'elsewhere');
    mkdirSync(dir);
    return dir;
  };
  const listing = (dir: string) => spawnSync('find', [dir, '-mindepth', '1'], { encoding: 'utf8' }).stdout;

  it('ctx/cache as a link: materialize works, nothing lands behind the link', () => {
    const store = newStore();
    expect(checkpoint(store, 'a').code).toBe(0);
    const target = outside();
    symlinkSync(target, join(store, 'ctx', 'cache'));
    for (let i = 0; i < 2; i++) expect(ctx(store, ['materialize', 'a'], { env: ENV })).toMatchObject({ code: 0, stdout: LINE });
    expect(listing(target)).toBe('');
  });

  it('ctx/hooks as a link: the hook logs it and exits 0, nothing lands behind the link', () => {
    const store = newStore();
    const target = outside();
    symlinkSync(target, join(store, 'ctx', 'hooks'));
    const file = join(tempDir(), 's-1.jsonl');
    writeFileSync(file, LINE);
    const r = spawnSync(process.execPath, [CTX, '--store', store, 'hook', 'claude-code'], { input: JSON.stringify({ session_id: 's-1', transcript_path: file, hook_event_name: 'Stop' }), env: { ...process.env, ...ENV } });
    expect(r.status).toBe(0);
    expect(readFileSync(join(store, 'ctx', 'hook.log'), 'utf8')).toMatch(/\tStop\ts-1\t\S+\/ctx\/hooks is a symbolic link: ctx writes no derived data through it\n$/);
    expect(listing(target)).toBe('');
  });

  it('ctx/hook.log as a link: the line goes to stderr, the file behind it is untouched', () => {
    const store = newStore();
    const target = join(outside(), 'victim');
    writeFileSync(target, 'keep\n');
    symlinkSync(target, join(store, 'ctx', 'hook.log'));
    const r = spawnSync(process.execPath, [CTX, '--store', store, 'hook', 'claude-code'], { input: JSON.stringify({ session_id: 's-1', transcript_path: '/nonexistent.jsonl', hook_event_name: 'Stop' }), env: { ...process.env, ...ENV } });
    expect(r.status).toBe(0);
    expect(r.stderr.toString()).toMatch(/^ctx hook: \S+\tStop\ts-1\ttranscript not found: \/nonexistent.jsonl\n$/);
    expect(readFileSync(target, 'utf8')).toBe('keep\n');
  });
});

describe('ref locks', () => {
  it('a branch lock whose holder died does not hold up the next checkpoint', () => {
    const store = newStore();
    expect(checkpoint(store, 'b').code).toBe(0);
    writeFileSync(join(store, 'refs', 'heads', 'b.lock'), deadRecord());
    // bounded well under the 10 s a lock without a record is waited for
    const r = spawnSync(process.execPath, [CTX, '--store', store, 'checkpoint', '-b', 'b', '--format', 'claude-code-v1', '-'], { input: LINE, env: { ...process.env, ...ENV }, timeout: 5_000 });
    expect([r.status, r.stderr.toString()]).toEqual([0, '']);
    expect(git(store, ['rev-list', '--count', 'b']).trim()).toBe('2');
    expect(existsSync(join(store, 'refs', 'heads', 'b.lock'))).toBe(false);
  });
});

describe('a chain whose meta.json cannot be read is refused, not served', () => {
  /** The tip rewritten with native git plumbing: its meta.json replaced (null: left out). */
  function forged(meta: ((text: string) => string) | null): string {
    const store = newStore();
    expect(checkpoint(store, 'a').code).toBe(0);
    expect(checkpoint(store, 'a').code).toBe(0);
    const run = (args: string[], input?: string) => spawnSync('git', ['--git-dir', store, ...args], { input }).stdout.toString().trim();
    const entries = [`100644 blob ${run(['rev-parse', 'a:delta.jsonl'])}\tdelta.jsonl`];
    if (meta) entries.push(`100644 blob ${run(['hash-object', '-w', '--stdin'], meta(run(['show', 'a:meta.json'])))}\tmeta.json`);
    const tree = run(['mktree'], `${entries.join('\n')}\n`);
    const commit = run(['commit-tree', tree, '-p', run(['rev-parse', 'a~1'])], run(['log', '-1', '--format=%B', 'a']));
    run(['update-ref', 'refs/heads/a', commit]);
    return store;
  }
  it.each([
    ['of version 99', (t: string) => t.replace('"v":1', '"v":99'), 'unknown meta.json version 99'],
    ['that is not JSON', () => 'not json\n', 'meta.json is not JSON'],
    ['that is missing', null, 'meta.json is missing'],
  ])('meta.json %s: materialize and budget exit 5 naming the commit', (_, meta, why) => {
    const store = forged(meta);
    const tip = git(store, ['rev-parse', 'a']).trim().slice(0, 12);
    for (const args of [['materialize', 'a'], ['materialize', 'a', '--format', 'markdown'], ['budget', 'a', '--window', '1000']])
      expect(ctx(store, args, { env: ENV }), args.join(' ')).toMatchObject({ code: 5, stdout: '', stderr: `ctx: ctx-${tip}: ${why}\n` });
  });
});
