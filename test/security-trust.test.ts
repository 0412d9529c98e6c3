// A store ctx did not make for this user cannot run code through ctx: git never runs a store's hooks,
// a store's config cannot make ctx run maintenance more often, a `.ctx/` that came with a clone or
// belongs to another user is refused until trusted, and the config is read the way git reads it.
import { createHash } from 'node:crypto';
import { chmodSync, chownSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ctx, git, newStore, objectCount, tempDir } from './helpers.js';
import { parseConfig } from '../src/store/repo.js';

const ENV = { CTX_PRINCIPAL: 'alice', CTX_MACHINE: 'box', CTX_NOW: '2026-01-02T03:04:05.678Z' };
const LINE = '{"type":"user","message":{"role":"user","content":"hi"}}\n';
const NO_GLOBAL = { GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' };

/** A global git config of its own (GIT_CONFIG_GLOBAL), so the user's real one is never read. */
function globalConfig(text: string): Record<string, string> {
  const file = join(tempDir(), 'gitconfig');
  writeFileSync(file, text);
  return { GIT_CONFIG_GLOBAL: file, GIT_CONFIG_NOSYSTEM: '1' };
}

const checkpoint = (store: string, env: Record<string, string | undefined> = {}, args: string[] = []) =>
  ctx(store, [...args, 'checkpoint', '-b', 'b', '--format', 'claude-code-v1', '-'], { input: LINE, env: { ...ENV, ...NO_GLOBAL, ...env } });

/** Three real loose blobs under objects/17: `git gc --auto`'s estimate then says 768 loose objects. */
function looseUnder17(store: string): void {
  let made = 0;
  for (let i = 0; made < 3; i++) {
    const body = `filler ${i}\n`;
    if (!createHash('sha1').update(`blob ${body.length}\0${body}`).digest('hex').startsWith('17')) continue;
    execFileSync('git', ['--git-dir', store, 'hash-object', '-w', '--stdin'], { input: body });
    made++;
  }
}

/** A `pre-auto-gc` and a `reference-transaction` hook that leave a marker when git runs them. */
function plantHooks(store: string): string {
  const marker = join(tempDir(), 'ran');
  mkdirSync(join(store, 'hooks'), { recursive: true });
  for (const name of ['pre-auto-gc', 'reference-transaction']) {
    writeFileSync(join(store, 'hooks', name), `#!/bin/sh\necho ${name} >> '${marker}'\n`);
    chmodSync(join(store, 'hooks', name), 0o755);
  }
  return marker;
}

/** A repository that ships a `.ctx/` store with a hook, `ctx.autoPack 1` and loose objects under 17/, and a clone of it. */
function hostileClone(): { clone: string; store: string; marker: string } {
  const dir = tempDir();
  const origin = join(dir, 'origin');
  mkdirSync(origin);
  execFileSync('git', ['init', '-q', origin]);
  const shipped = join(origin, '.ctx');
  expect(ctx(shipped, ['init', shipped], { env: ENV }).code).toBe(0);
  git(shipped, ['config', 'ctx.autoPack', '1']);
  git(shipped, ['config', 'gc.autoDetach', 'false']);
  looseUnder17(shipped);
  const marker = join(dir, 'ran');
  mkdirSync(join(shipped, 'hooks'), { recursive: true });
  writeFileSync(join(shipped, 'hooks', 'pre-auto-gc'), `#!/bin/sh\necho ran >> '${marker}'\n`);
  chmodSync(join(shipped, 'hooks', 'pre-auto-gc'), 0o755);
  // git keeps empty directories out: a placeholder keeps refs/ in the commit
  writeFileSync(join(shipped, 'refs', 'heads', '.keep'), '');
  writeFileSync(join(shipped, 'refs', 'tags', '.keep'), '');
  execFileSync('git', ['-C', origin, 'add', '-f', '.ctx']);
  execFileSync('git', ['-C', origin, '-c', 'user.name=x', '-c', 'user.email=x@x', 'commit', '-qm', 'ship a store']);
  const clone = join(dir, 'clone');
  execFileSync('git', ['clone', '-q', origin, clone]);
  chmodSync(join(clone, '.ctx', 'hooks', 'pre-auto-gc'), 0o755);
  return { clone, store: join(clone, '.ctx'), marker };
}

const listing = (dir: string): string[] => readdirSync(dir, { recursive: true }).map(String).sort();

describe('a store that came with a clone', () => {
  it('is refused by every command run inside the clone, with how to trust it; its hook never runs', () => {
    const { clone, store, marker } = hostileClone();
    const before = listing(store);
    const refused = `ctx: refusing the store ${store}: it is tracked by the git repository ${clone} (a store that came with a clone can run code); trust it with: git config --global --add ctx.safeStore ${store}\n`;
    for (const args of [['checkpoint', '-b', 'b', '--format', 'claude-code-v1', '-'], ['log']]) {
      const r = ctx(store, args, { input: LINE, cwd: clone, env: { ...ENV, ...NO_GLOBAL, CTX_STORE: undefined } });
      expect(r).toMatchObject({ code: 1, stdout: '', stderr: refused });
    }
    // an explicit path is checked too
    expect(checkpoint(store, {}, ['--store', store])).toMatchObject({ code: 1, stdout: '', stderr: refused });
    expect(existsSync(marker)).toBe(false);
    expect(listing(store)).toEqual(before);
  });

  it('ctx hook with a Stop event whose cwd is the clone: exit 0, prints nothing, writes nothing, runs nothing', () => {
    const { clone, store, marker } = hostileClone();
    const transcript = join(clone, 't.jsonl');
    writeFileSync(transcript, LINE);
    const before = listing(store);
    const input = JSON.stringify({ session_id: 's1', transcript_path: transcript, hook_event_name: 'Stop', cwd: clone });
    const r = ctx(store, ['hook', 'claude-code'], { input, cwd: tempDir(), env: { ...ENV, ...NO_GLOBAL, CTX_STORE: undefined } });
    expect(r).toEqual({ code: 0, stdout: '', stderr: '', bytes: Buffer.alloc(0) });
    expect(existsSync(marker)).toBe(false);
    expect(listing(store)).toEqual(before);
  });

  it('trusted with ctx.safeStore in the global config (the path, or *), it works; its hooks still never run', () => {
    for (const value of ['STORE', '*']) {
      const { clone, store, marker } = hostileClone();
      const env = { ...ENV, ...globalConfig(`[ctx]\n\tsafeStore = ${value === 'STORE' ? store : '*'}\n`), CTX_STORE: undefined };
      const r = ctx(store, ['checkpoint', '-b', 'b', '--format', 'claude-code-v1', '-'], { input: LINE, cwd: clone, env });
      expect(r).toMatchObject({ code: 0, stderr: '' });
      expect(existsSync(marker)).toBe(false);
    }
  });

  it('the store config cannot trust itself: ctx.safeStore there is ignored', () => {
    const { clone, store } = hostileClone();
    git(store, ['config', 'ctx.safeStore', '*']);
    const r = ctx(store, ['log'], { cwd: clone, env: { ...ENV, ...NO_GLOBAL, CTX_STORE: undefined } });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^ctx: refusing the store /);
  });

  it('a store ctx creates in a work tree is not tracked, and works as before', () => {
    const dir = tempDir();
    execFileSync('git', ['init', '-q', dir]);
    const store = join(dir, '.ctx');
    expect(ctx(store, ['checkpoint', '-b', 'b', '--format', 'claude-code-v1', '-'], { input: LINE, cwd: dir, env: { ...ENV, ...NO_GLOBAL, CTX_STORE: undefined } })).toMatchObject({ code: 0, stderr: `created context store at ${store}\n` });
    execFileSync('git', ['-C', dir, 'add', '-A']);
    expect(execFileSync('git', ['-C', dir, 'ls-files'], { encoding: 'utf8' })).toBe('');
    expect(ctx(store, ['log', '--json'], { cwd: dir, env: { ...ENV, ...NO_GLOBAL, CTX_STORE: undefined } }).code).toBe(0);
  });
});

describe('the trust check reads the work tree\'s index', () => {
  it('paths holding "link" (src/links/, linker.md): a store ctx made in the work tree is checked from the index alone, no git started', () => {
    const dir = tempDir();
    execFileSync('git', ['init', '-q', dir]);
    mkdirSync(join(dir, 'src', 'links'), { recursive: true });
    writeFileSync(join(dir, 'src', 'links', 'a.ts'), 'a\n');
    writeFileSync(join(dir, 'linker.md'), 'b\n');
    execFileSync('git', ['-C', dir, 'add', '-A']);
    execFileSync('git', ['-C', dir, '-c', 'user.name=x', '-c', 'user.email=x@x', 'commit', '-qm', 'links']);
    const store = join(dir, '.ctx');
    expect(ctx(store, ['init', store], { env: ENV }).code).toBe(0);
    // git's own trace names every git process started with the environment ctx passes on
    const trace = join(tempDir(), 'trace');
    const r = ctx(store, ['checkpoint', '-b', 'b', '--format', 'claude-code-v1', '-'], { input: LINE, cwd: dir, env: { ...ENV, ...NO_GLOBAL, CTX_STORE: undefined, GIT_TRACE: trace } });
    expect(r).toMatchObject({ code: 0, stdout: expect.stringMatching(/^ctx-[0-9a-f]{12}\n$/), stderr: '' });
    expect(existsSync(trace)).toBe(false);
  });

  it('a split index (its paths in a shared index): the store it tracks is still refused', () => {
    const { clone, store, marker } = hostileClone();
    execFileSync('git', ['-C', clone, 'update-index', '--split-index']);
    expect(readdirSync(join(clone, '.git')).some((f) => f.startsWith('sharedindex.'))).toBe(true);
    const r = ctx(store, ['log'], { cwd: clone, env: { ...ENV, ...NO_GLOBAL, CTX_STORE: undefined } });
    expect(r).toMatchObject({ code: 1, stdout: '', stderr: `ctx: refusing the store ${store}: it is tracked by the git repository ${clone} (a store that came with a clone can run code); trust it with: git config --global --add ctx.safeStore ${store}\n` });
    expect(existsSync(marker)).toBe(false);
  });
});

describe('a store owned by another user', () => {
  const root = process.getuid?.() === 0;
  it.skipIf(!root)('is refused, explicit path or not, until trusted in the global config', () => {
    const store = newStore();
    checkpoint(store);
    chownSync(store, 65534, 65534);
    const refused = `ctx: refusing the store ${store}: it is owned by uid 65534, not by you (uid 0); trust it with: git config --global --add ctx.safeStore ${store}\n`;
    expect(ctx(store, ['log'], { env: { ...ENV, ...NO_GLOBAL } })).toMatchObject({ code: 1, stdout: '', stderr: refused });
    expect(ctx(store, ['log'], { env: { ...ENV, ...NO_GLOBAL, CTX_STORE: undefined } })).toMatchObject({ code: 1, stdout: '', stderr: refused });
    const trusted = ctx(store, ['log'], { env: { ...ENV, ...globalConfig(`[ctx]\n\tsafeStore = ${store}\n`) } });
    expect(trusted).toMatchObject({ code: 0, stderr: '' });
    // an empty value resets the list above it, as git's safe.directory does
    expect(ctx(store, ['log'], { env: { ...ENV, ...globalConfig(`[ctx]\n\tsafeStore = ${store}\n\tsafeStore =\n`) } }).code).toBe(1);
    // trust can also come from the environment (git's GIT_CONFIG_COUNT), never from the store
    const viaEnv = { ...ENV, ...NO_GLOBAL, GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'ctx.safeStore', GIT_CONFIG_VALUE_0: store };
    expect(ctx(store, ['log'], { env: viaEnv })).toMatchObject({ code: 0, stderr: '' });
  });
  it.skipIf(root)('is refused (skipped: chown to another uid needs root)', () => {});
});

describe('git never runs a store’s hooks', () => {
  it('git gc --auto and ref updates run with core.hooksPath=/dev/null (ctx.autoPack 1 from the global config)', () => {
    const store = newStore();
    const marker = plantHooks(store);
    git(store, ['config', 'ctx.autoPack', '1']);
    git(store, ['config', 'gc.autoDetach', 'false']);
    looseUnder17(store);
    const r = checkpoint(store, globalConfig('[ctx]\n\tautoPack = 1\n'), ['--engine', 'git']);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(existsSync(marker) ? readFileSync(marker, 'utf8') : '').toBe('');
    // gc did run: the checkpoint's objects are packed
    expect(objectCount(store)).toMatch(/^count: \d+ in-pack: [1-9]/);
  });
});

describe('a store’s config cannot make ctx run maintenance more often', () => {
  it('ctx.autoPack below the default is honoured from the global config only', () => {
    const fromStore = newStore();
    git(fromStore, ['config', 'ctx.autoPack', '1']);
    git(fromStore, ['config', 'gc.autoDetach', 'false']);
    looseUnder17(fromStore);
    expect(checkpoint(fromStore)).toMatchObject({ code: 0, stderr: '' });
    expect(objectCount(fromStore)).toBe('count: 7 in-pack: 0');

    const fromGlobal = newStore();
    git(fromGlobal, ['config', 'gc.autoDetach', 'false']);
    looseUnder17(fromGlobal);
    expect(checkpoint(fromGlobal, globalConfig('[ctx]\n\tautoPack = 1\n'))).toMatchObject({ code: 0, stderr: '' });
    expect(objectCount(fromGlobal)).toMatch(/^count: \d+ in-pack: [1-9]/);
  });
});

describe('the store config is read the way git reads it', () => {
  const cases: [string, string, number][] = [
    ['garbage line\n', 'garbage line', 5],
    ['[remote "x]\n', '[remote "x]', 5],
    ['[ctx]\n\tengine = "git\n', 'engine = "git', 6],
  ];
  for (const [tail, shown, line] of cases)
    for (const noGit of [false, true])
      it(`${JSON.stringify(tail)}${noGit ? ' (no git on PATH)' : ''}: every command refuses it, exit 5, nothing written`, () => {
        const store = newStore();
        expect(checkpoint(store).code).toBe(0);
        const config = `${readFileSync(join(store, 'config'), 'utf8')}${tail}`;
        writeFileSync(join(store, 'config'), config);
        const files = listing(store);
        const env = noGit ? { PATH: join(tempDir(), 'empty') } : {};
        const stderr = `ctx: ${join(store, 'config')}: line ${line} is not git config syntax (${shown}); nothing written\n`;
        expect(checkpoint(store, env)).toMatchObject({ code: 5, stdout: '', stderr });
        expect(ctx(store, ['log'], { env: { ...ENV, ...NO_GLOBAL, ...env } })).toMatchObject({ code: 5, stdout: '', stderr });
        expect(listing(store)).toEqual(files);
        expect(readFileSync(join(store, 'config'), 'utf8')).toBe(config);
      });

  for (const noGit of [false, true])
    it(`[include] path is followed, relative to the config file${noGit ? ' (no git on PATH)' : ''}`, () => {
      const store = newStore();
      writeFileSync(join(store, 'extra.cfg'), '[ctx]\n\tmaxBlobSize = 0\n');
      writeFileSync(join(store, 'config'), `${readFileSync(join(store, 'config'), 'utf8')}[include]\n\tpath = extra.cfg\n`);
      const env = noGit ? { PATH: join(tempDir(), 'empty') } : {};
      expect(checkpoint(store, env)).toMatchObject({ code: 2, stdout: '', stderr: 'ctx: config ctx.maxBlobSize: 0 is out of range (1k to 1g)\n' });
    });

  it('values git reads (a quoted ; and #, a continued line) are read the same', () => {
    const store = newStore();
    writeFileSync(join(store, 'config'), `${readFileSync(join(store, 'config'), 'utf8')}[alias]\n\tfoo = "a ;#b" ; comment\n[ctx]\n\tmaxBlobSize = 2\\\nk\n`);
    expect(git(store, ['config', 'ctx.maxBlobSize'])).toBe('2k\n');
    expect(git(store, ['config', 'alias.foo'])).toBe('a ;#b\n');
    expect(checkpoint(store)).toMatchObject({ code: 0, stderr: '' });
  });
});

describe('ctx’s config parser agrees with git', () => {
  it('on 400 seeded random files: refused by both or read to the same values', () => {
    const parts = ['[', ']', '"', '\\', ' ', '\t', '\n', '=', '#', ';', 'a', 'b', '.', '-', '1', 'x', 'n', '[s]\n', '[s "q"]\n', 'k = ', 'k', '\r', '[S.X]', '[a "b\\"c"]', '\\\n', 'K', '\v', '\f'];
    let seed = 20;
    const rnd = (n: number) => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
    const file = join(tempDir(), 'c.cfg');
    const differ: string[] = [];
    for (let t = 0; t < 400; t++) {
      let text = '[s]\n';
      for (let i = 1 + rnd(20); i > 0; i--) text += parts[rnd(parts.length)];
      writeFileSync(file, text);
      let theirs: string | null;
      try {
        const out = execFileSync('git', ['config', '-f', file, '--list', '-z'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
        const values = new Map(out.split('\0').filter(Boolean).map((r) => (r.includes('\n') ? [r.slice(0, r.indexOf('\n')), r.slice(r.indexOf('\n') + 1)] : [r, 'true'])));
        theirs = JSON.stringify([...values]);
      } catch {
        theirs = null;
      }
      const parsed = parseConfig(text);
      const ours = parsed.bad ? null : JSON.stringify([...parsed.values]);
      if (ours !== theirs) differ.push(`${JSON.stringify(text)}: git ${theirs}, ctx ${ours}`);
    }
    expect(differ).toEqual([]);
  }, 120_000);
});

describe('ctx hook --store', () => {
  it('a relative --store resolves against the process working directory, not the hook JSON cwd', () => {
    const here = tempDir();
    const there = tempDir();
    const transcript = join(there, 't.jsonl');
    writeFileSync(transcript, LINE);
    const input = JSON.stringify({ session_id: 's1', transcript_path: transcript, hook_event_name: 'Stop', cwd: there });
    const r = ctx(join(here, 'x'), ['hook', 'claude-code', '--store', 'mine/.ctx'], { input, cwd: here, env: { ...ENV, ...NO_GLOBAL, CTX_STORE: undefined } });
    expect(r).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(existsSync(join(here, 'mine', '.ctx', 'HEAD'))).toBe(true);
    expect(existsSync(join(there, 'mine'))).toBe(false);
  });
});
