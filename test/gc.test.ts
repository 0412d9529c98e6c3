// ctx gc: packing, retention (--prune-expired) with what it must keep, auto-pack after writes,
// and a gc racing concurrent writers. Checked with native git.
import { existsSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXED_ENV, checkpointLoop, ctx, fsck, git, newStore, objectCount, refSnapshot, shellCtx, tempDir } from './helpers.js';

const env = FIXED_ENV;
const line = (text: string) => `{"type":"user","message":{"role":"user","content":${JSON.stringify(text)}}}\n`;
const KIB = '\\d+ KiB';

function checkpoint(store: string, branch: string, text: string, at: string, extra: string[] = []): string {
  const r = ctx(store, ['checkpoint', '-b', branch, '--format', 'claude-code-v1', ...extra, '-'], { env: { ...env, CTX_NOW: at }, input: line(text) });
  expect(r).toMatchObject({ code: 0, stderr: '' });
  return r.stdout.trim();
}

const exists = (store: string, id: string) => {
  try {
    git(store, ['cat-file', '-e', `${id.replace(/^ctx-/, '')}^{commit}`]);
    return true;
  } catch {
    return false;
  }
};

/** A transcript of `turns` user/assistant pairs: import splits it into one commit per turn. */
function transcript(dir: string, turns: number): string {
  let s = '';
  for (let i = 0; i < turns; i++) {
    s += JSON.stringify({ type: 'user', message: { role: 'user', content: `question ${i}` }, uuid: `u${i}`, sessionId: 's1' }) + '\n';
    s += JSON.stringify({ type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: `answer ${i}` }] }, uuid: `a${i}`, parentUuid: `u${i}`, sessionId: 's1' }) + '\n';
  }
  const file = join(dir, 'session.jsonl');
  writeFileSync(file, s);
  return file;
}

describe('ctx gc', () => {
  it('packs loose objects; refs, fsck and verify unchanged', () => {
    const store = newStore();
    for (let i = 0; i < 3; i++) checkpoint(store, 'main', `turn ${i}`, `2026-01-0${i + 1}T00:00:00.000Z`);
    const refs = refSnapshot(store);
    expect(objectCount(store)).toBe('count: 12 in-pack: 0');
    const r = ctx(store, ['gc'], { env });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^objects: 12 loose, 0 packs, ${KIB} -> 0 loose, 1 pack, ${KIB}\n$`));
    expect(objectCount(store)).toBe('count: 0 in-pack: 12');
    expect(refSnapshot(store)).toBe(refs);
    expect(fsck(store)).toEqual({ code: 0, output: '' });
    expect(ctx(store, ['verify', '--all'], { env })).toMatchObject({ code: 0, stdout: 'ok 3 commits\n' });
  });

  it('--prune-expired deletes expired branches, keeps pinned ones, and removes no object a kept ref reaches', () => {
    const store = newStore();
    const old = '2026-01-01T00:00:00.000Z';
    const base = checkpoint(store, 'main', 'base', old);
    const fork = checkpoint(store, 'ephemeral/fork', 'on main', old, ['--parent', 'main']); // main's root is its fork point
    const lone = checkpoint(store, 'ephemeral/lone', 'alone', old);
    const pinned = checkpoint(store, 'ephemeral/pinned', 'pin me', old);
    const tagged = checkpoint(store, 'ephemeral/tagged', 'tag me', old);
    git(store, ['tag', 'saved', tagged.slice(4)]);
    const fresh = checkpoint(store, 'ephemeral/fresh', 'fresh', '2026-01-01T23:00:00.000Z');
    checkpoint(store, 'ephemeral/keep-me', 'kept by never', old);
    checkpoint(store, 'other', 'no rule', old);
    expect(ctx(store, ['annotate', pinned, '--pin'], { env }).code).toBe(0);
    git(store, ['config', 'ctx.ephemeral/keep-*.retention', 'never']);
    git(store, ['config', 'ctx.ephemeral/*.retention', '1d']);
    const now = { ...env, CTX_NOW: '2026-01-02T12:00:00.000Z' };
    const id = (c: string) => c.slice(0, 16);
    const expected = (action: string) =>
      [
        `${action}\tephemeral/fork\t${id(fork)}\t${old}\tephemeral/*=1d`,
        `${action}\tephemeral/lone\t${id(lone)}\t${old}\tephemeral/*=1d`,
        `kept-pinned\tephemeral/pinned\t${id(pinned)}\t${old}\tephemeral/*=1d`,
        `${action}\tephemeral/tagged\t${id(tagged)}\t${old}\tephemeral/*=1d`,
      ].join('\n') + '\n';

    const refs = refSnapshot(store);
    const dry = ctx(store, ['gc', '--prune-expired', '--dry-run'], { env: now });
    expect(dry.stdout).toBe(expected('would-delete'));
    expect(dry.stderr).toMatch(new RegExp(`^ctx: dry run: nothing changed \\(objects: \\d+ loose, 0 packs, ${KIB}\\)\n$`));
    expect(dry.code).toBe(0);
    expect(refSnapshot(store)).toBe(refs);

    const r = ctx(store, ['gc', '--prune-expired', '--prune', 'now'], { env: now });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^${expected('deleted').replace(/[*.()]/g, '\\$&')}objects: \\d+ loose, 0 packs, ${KIB} -> 0 loose, 1 pack, ${KIB}\n$`));
    expect(git(store, ['for-each-ref', '--format=%(refname)']).trim().split('\n')).toEqual([
      'refs/heads/ephemeral/fresh',
      'refs/heads/ephemeral/keep-me',
      'refs/heads/ephemeral/pinned',
      'refs/heads/main',
      'refs/heads/other',
      'refs/notes/ctx',
      'refs/tags/saved',
    ]);
    // only what no kept ref reaches is gone: the fork point and the tagged commit stay
    expect([base, fork, lone, pinned, tagged, fresh].map((c) => exists(store, c))).toEqual([true, false, false, true, true, true]);
    expect(fsck(store)).toEqual({ code: 0, output: '' });
    // verify walks branches: the tagged commit is on no branch now
    expect(ctx(store, ['verify', '--all'], { env })).toMatchObject({ code: 0, stdout: 'ok 5 commits\n' });
  });

  it('--prune-expired keeps a branch whose commit carries an agent\'s cursor (ctx cursor set), and what that commit needs', () => {
    const store = newStore();
    const old = '2026-01-01T00:00:00.000Z';
    const seen = checkpoint(store, 'ephemeral/seen', 'seen', old);
    const after = checkpoint(store, 'ephemeral/seen', 'after it', old);
    const lone = checkpoint(store, 'ephemeral/lone', 'alone', old);
    expect(ctx(store, ['cursor', 'set', 'ephemeral/seen', 'coder', seen], { env })).toMatchObject({ code: 0, stderr: '' });
    git(store, ['config', 'ctx.ephemeral/*.retention', '1d']);
    const now = { ...env, CTX_NOW: '2026-01-02T12:00:00.000Z' };
    const r = ctx(store, ['gc', '--prune-expired', '--prune', 'now'], { env: now });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n').slice(0, 2)).toEqual([`deleted\tephemeral/lone\t${lone}\t${old}\tephemeral/*=1d`, `kept-pinned\tephemeral/seen\t${after}\t${old}\tephemeral/*=1d`]);
    expect(git(store, ['for-each-ref', '--format=%(refname)']).trim().split('\n')).toEqual(['refs/heads/ephemeral/seen', 'refs/notes/ctx']);
    expect([seen, after, lone].map((c) => exists(store, c))).toEqual([true, true, false]);
    expect(git(store, ['log', '--format=ctx-%H', 'ephemeral/seen']).trim().split('\n').map((h) => h.slice(0, 16))).toEqual([after, seen]);
    expect(fsck(store)).toEqual({ code: 0, output: '' });
    expect(ctx(store, ['cursor', 'show', 'ephemeral/seen', 'coder'], { env })).toMatchObject({ code: 0, stdout: `${seen}\n` });
  });

  it('--json: one record per expired branch, then the summary', () => {
    const store = newStore();
    const tip = checkpoint(store, 'ephemeral/a', 'a', '2026-01-01T00:00:00.000Z');
    git(store, ['config', 'ctx.ephemeral/*.retention', '12h']);
    const r = ctx(store, ['gc', '--prune-expired', '--json'], { env });
    expect(r).toMatchObject({ code: 0, stderr: '' });
    const [branch, summary] = r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
    expect(branch).toEqual({ v: 1, branch: 'ephemeral/a', id: expect.stringMatching(new RegExp(`^${tip}[0-9a-f]{28}$`)), created_at: '2026-01-01T00:00:00.000Z', pattern: 'ephemeral/*', retention: '12h', action: 'deleted' });
    expect(Object.keys(summary)).toEqual(['v', 'dry_run', 'deleted', 'before', 'after', 'derived_removed']);
    expect(Object.keys(summary.before)).toEqual(['loose_objects', 'packs', 'disk_bytes']);
    expect(summary).toMatchObject({ v: 1, dry_run: false, deleted: 1, before: { loose_objects: 4, packs: 0 }, after: { loose_objects: 4, packs: 0 }, derived_removed: 0 });
    // no ref reaches them, but they are younger than git's grace period: a writer may be about to use them
  });

  it('removes derived data of commits that are gone', () => {
    const store = newStore();
    checkpoint(store, 'ephemeral/a', 'a', '2026-01-01T00:00:00.000Z');
    expect(ctx(store, ['materialize', 'ephemeral/a'], { env }).code).toBe(0);
    git(store, ['config', 'ctx.ephemeral/*.retention', '1d']);
    const r = ctx(store, ['gc', '--prune-expired', '--prune', 'now'], { env });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/; [1-9]\d* derived files? removed\n$/);
    expect(git(store, ['count-objects', '-v'])).toMatch(/^count: 0$/m);
    const again = ctx(store, ['gc'], { env });
    expect(again.stdout).toMatch(new RegExp(`^objects: 0 loose, 0 packs, 0 KiB -> 0 loose, 0 packs, 0 KiB\n$`));
  });

  it('refuses a retention or ctx.autoPack value it cannot read, before writing anything', () => {
    const store = newStore();
    checkpoint(store, 'ephemeral/a', 'a', '2026-01-01T00:00:00.000Z');
    git(store, ['config', 'ctx.ephemeral/*.retention', '7x']);
    const refs = refSnapshot(store);
    const objects = objectCount(store);
    expect(ctx(store, ['gc', '--prune-expired'], { env })).toMatchObject({ code: 2, stdout: '', stderr: 'ctx: config ctx.ephemeral/*.retention: not a duration: 7x (e.g. 7d, 12h, 2w, never)\n' });
    git(store, ['config', '--unset', 'ctx.ephemeral/*.retention']);
    git(store, ['config', 'ctx.autoPack', 'lots']);
    const cp = ctx(store, ['checkpoint', '-b', 'main', '--format', 'claude-code-v1', '-'], { env, input: line('x') });
    expect(cp).toMatchObject({ code: 2, stdout: '', stderr: 'ctx: config ctx.autoPack: not a size: lots\n' });
    expect(refSnapshot(store)).toBe(refs);
    expect(objectCount(store)).toBe(objects);
  });

  it('a lock another git process holds (a gc starting: gc.pid.lock) is a conflict (exit 3) naming the lock, with nothing changed', () => {
    const store = newStore();
    checkpoint(store, 'main', 'a', '2026-01-01T00:00:00.000Z');
    const lock = join(store, 'gc.pid.lock');
    writeFileSync(lock, '');
    const refs = refSnapshot(store);
    const objects = objectCount(store);
    expect(ctx(store, ['gc'], { env })).toMatchObject({
      code: 3,
      stdout: '',
      stderr: `ctx: another git process holds ${lock}: a gc or a writer is working on the store; try again, or remove the lock if no git process is running\n`,
    });
    expect(refSnapshot(store)).toBe(refs);
    expect(objectCount(store)).toBe(objects);
    unlinkSync(lock);
    expect(ctx(store, ['gc'], { env }).code).toBe(0);
  });

  it('without git on PATH: ctx packs the loose objects itself; --prune is refused, nothing changed', () => {
    const store = newStore();
    checkpoint(store, 'main', 'a', '2026-01-01T00:00:00.000Z');
    checkpoint(store, 'main', 'b', '2026-01-01T00:00:01.000Z');
    const refs = refSnapshot(store);
    const before = ctx(store, ['materialize', 'main'], { env }).stdout;
    const noGit = { ...env, PATH: join(tempDir(), 'empty') };
    const refused = ctx(store, ['gc', '--prune', 'now'], { env: noGit });
    expect(refused).toMatchObject({ code: 1, stdout: '', stderr: 'ctx: --prune needs git on PATH: ctx packs loose objects itself but cannot prune; nothing was changed\n' });
    expect(objectCount(store)).toBe('count: 8 in-pack: 0');
    const r = ctx(store, ['gc'], { env: noGit });
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(r.stdout).toMatch(new RegExp(`^objects: 8 loose, 0 packs, ${KIB} -> 0 loose, 1 pack, ${KIB}\n$`));
    expect(refSnapshot(store)).toBe(refs);
    expect(objectCount(store)).toBe('count: 0 in-pack: 8');
    expect(fsck(store)).toEqual({ code: 0, output: '' });
    for (const engine of ['git', 'isogit']) expect(ctx(store, ['--engine', engine, 'materialize', 'main'], { env }).stdout).toBe(before);
    expect(ctx(store, ['verify', '--all'], { env }).stdout).toBe('ok 2 commits\n');
    // a second gc folds the first pack and the new loose objects into one pack
    checkpoint(store, 'main', 'c', '2026-01-01T00:00:02.000Z');
    expect(ctx(store, ['gc'], { env: noGit }).stdout).toMatch(new RegExp(`^objects: 4 loose, 1 pack, ${KIB} -> 0 loose, 1 pack, ${KIB}\n$`));
    expect(objectCount(store)).toBe('count: 0 in-pack: 12');
    expect(fsck(store)).toEqual({ code: 0, output: '' });
  });
});

/** ctx.autoPack below the default, as only the user's own (global) config may set it. */
function autoPackGlobally(value: string): Record<string, string> {
  const file = join(tempDir(), 'gitconfig');
  writeFileSync(file, `[ctx]\n\tautoPack = ${value}\n`);
  return { GIT_CONFIG_GLOBAL: file, GIT_CONFIG_NOSYSTEM: '1' };
}

describe('auto-pack', () => {
  // 400 turns, not 500: git (and ctx without git) estimate the loose objects from objects/17 alone,
  // which must hold 2 or more; these 1,600 objects put 4 there (300 turns put 1, and nothing packs)
  it('a write that leaves more than ctx.autoPack loose objects packs them (git gc --auto)', () => {
    const dir = tempDir();
    const file = transcript(dir, 400);
    const counts: string[] = [];
    for (const autoPack of ['0', '256']) {
      const store = newStore();
      git(store, ['config', 'gc.autoDetach', 'false']); // git packs in the foreground: the test sees the result
      const r = ctx(store, ['--engine', 'isogit', 'import', 'claude-code', file, '-b', 'imported'], { env: { ...env, ...autoPackGlobally(autoPack) } });
      expect(r).toMatchObject({ code: 0, stderr: '' });
      counts.push(objectCount(store));
      expect(fsck(store)).toEqual({ code: 0, output: '' });
      expect(ctx(store, ['verify', '--all'], { env }).stdout).toBe('ok 400 commits\n');
    }
    expect(counts).toEqual(['count: 1600 in-pack: 0', 'count: 0 in-pack: 1600']);
  }, 60_000);

  it('a write does not start git gc --auto while a live gc holds gc.pid, and does once its holder is gone', () => {
    const file = transcript(tempDir(), 400);
    const gone = spawnSync('true').pid!; // exited: a gc.pid naming it was left by a killed gc
    const runs: { count: string; gcs: number }[] = [];
    for (const holder of [process.pid, gone]) {
      const store = newStore();
      git(store, ['config', 'gc.autoDetach', 'false']);
      writeFileSync(join(store, 'gc.pid'), `${holder} ${hostname()}`);
      const trace = join(tempDir(), 'trace');
      const r = ctx(store, ['--engine', 'isogit', 'import', 'claude-code', file, '-b', 'imported'], { env: { ...env, ...autoPackGlobally('256'), GIT_TRACE: trace } });
      expect(r).toMatchObject({ code: 0, stderr: '' });
      const traced = existsSync(trace) ? readFileSync(trace, 'utf8') : '';
      runs.push({ count: objectCount(store), gcs: traced.split('\n').filter((l) => /trace: built-in: git gc --auto/.test(l)).length });
    }
    expect(runs).toEqual([
      { count: 'count: 1600 in-pack: 0', gcs: 0 },
      { count: 'count: 0 in-pack: 1600', gcs: 1 },
    ]);
  }, 60_000);

  it('without git on PATH, ctx packs them itself after the write', () => {
    const file = transcript(tempDir(), 400);
    const store = newStore();
    const r = ctx(store, ['import', 'claude-code', file, '-b', 'imported'], { env: { ...env, ...autoPackGlobally('256'), PATH: join(tempDir(), 'empty') } });
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(objectCount(store)).toBe('count: 0 in-pack: 1600');
    expect(fsck(store)).toEqual({ code: 0, output: '' });
    expect(ctx(store, ['verify', '--all'], { env }).stdout).toBe('ok 400 commits\n');
    expect(ctx(store, ['materialize', 'imported'], { env }).stdout).toBe(readFileSync(file, 'utf8'));
  }, 60_000);
});

// CTX_GC_WRITERS / CTX_GC_COMMITS make a longer run: CTX_GC_WRITERS=8 CTX_GC_COMMITS=200 npx vitest run test/gc.test.ts
const WRITERS = Number(process.env.CTX_GC_WRITERS ?? 6);
const COMMITS = Number(process.env.CTX_GC_COMMITS ?? 12);

describe('gc while agents write', () => {
  it(`${WRITERS} writers × ${COMMITS} checkpoints with --retry and ctx gc in a loop: every commit once, reachable, fsck and verify clean`, async () => {
    const store = newStore();
    // auto-pack fires often too, in the foreground: writers' git gc --auto races the explicit ones
    const env = { ...FIXED_ENV, ...autoPackGlobally('64') };
    git(store, ['config', 'gc.autoDetach', 'false']);
    const done = join(dirname(store), 'writers-done');
    // a gc that finds another running (git's gc.pid) exits 3; any other failure ends the loop, its stderr kept for the assertion
    const gcLoop = shellCtx(
      store,
      `n=0; while [ ! -e "${done}" ] || [ $n -eq 0 ]; do err=$("$NODE" "$CTX_BIN" gc 2>&1 >/dev/null); rc=$?; [ $rc -eq 0 ] && n=$((n+1)); [ $rc -eq 0 ] || [ $rc -eq 3 ] || { printf '%s\n' "gc exited $rc: $err" >&2; exit $rc; }; done; echo $n`,
      env,
    );
    const writers = await Promise.all(Array.from({ length: WRITERS }, (_, k) => checkpointLoop(store, 'race', `w${k}`, COMMITS, env)));
    mkdirSync(done);
    const gcs = await gcLoop;
    for (const w of writers) expect(w).toMatchObject({ code: 0, stderr: '' });
    expect(gcs).toMatchObject({ code: 0, stderr: '' });
    expect(Number(gcs.stdout)).toBeGreaterThan(0);

    const total = WRITERS * COMMITS;
    expect(git(store, ['rev-list', '--first-parent', '--count', 'race'])).toBe(`${total}\n`);
    const summaries = git(store, ['log', '--format=%s', 'race']).trim().split('\n');
    expect(new Set(summaries).size).toBe(total);
    for (let k = 0; k < WRITERS; k++) for (let i = 0; i < COMMITS; i++) expect(summaries).toContain(`w${k}-${i}`);
    const chain = new Set(git(store, ['rev-list', 'race']).trim().split('\n').map((o) => `ctx-${o.slice(0, 12)}`));
    const printed = writers.flatMap((w) => w.stdout.trim().split('\n'));
    expect(printed).toHaveLength(total);
    for (const id of printed) expect(chain.has(id)).toBe(true);

    expect(ctx(store, ['gc'], { env }).code).toBe(0);
    expect(fsck(store)).toMatchObject({ code: 0 });
    expect(fsck(store).output).not.toMatch(/error|missing|broken/);
    expect(ctx(store, ['verify', '--all'], { env })).toMatchObject({ code: 0, stdout: `ok ${total} commits\n` });
    expect(existsSync(join(store, 'gc.pid'))).toBe(false);
  }, 600_000);
});
