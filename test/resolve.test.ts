// `ctx resolve` (the commit a principal had at a time) and `ctx current` (the tip of a session):
// the timeline under <store>/ctx/timeline/ gives the answers a linear scan gives, is appended to by
// writes, and is brought up to date (or rebuilt) whenever the refs moved some other way.
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// a plain .mjs module, shared with bench/resolve.mjs
import { generateTimeline, linearResolve, prng, SPAN, T0, type TimelineCommit as Gen } from '../bench/timeline-gen.mjs';
import { openStore } from '../src/api/library/context-store.js';
import { parseAt } from '../src/api/capture/resolve.js';
import { NotFoundError, UsageError } from '../src/errors/index.js';
import { ctx, FIXED_ENV, FIXTURES, git, tempDir } from './helpers.js';

// npm test: 10,000 commits (a few seconds); `npm run bench resolve` runs the same check at 100,000
const COMMITS = Number(process.env.RESOLVE_TEST_COMMITS ?? 10_000);
const LINE = '{"type":"user","message":{"role":"user","content":"hi"}}\n';

/** 1,000 random (principal, time) questions, some before anything and some after everything. */
function questions(n: number, principals: number): { principal: string; t: number }[] {
  const rand = prng(99);
  return Array.from({ length: n }, () => ({
    principal: `principal-${String(Math.floor(rand() * principals)).padStart(2, '0')}`,
    t: T0 - 3600_000 + Math.floor(rand() * (SPAN + 2 * 24 * 3600_000)),
  }));
}

async function answers(store: string, qs: { principal: string; t: number }[]): Promise<(string | null)[]> {
  const s = await openStore(store);
  try {
    const out: (string | null)[] = [];
    for (const q of qs) {
      try {
        out.push((await s.resolve({ principal: q.principal, at: new Date(q.t) })).id);
      } catch (e) {
        if (!(e instanceof NotFoundError)) throw e;
        out.push(null);
      }
    }
    return out;
  } finally {
    await s.close();
  }
}

describe('ctx resolve over a generated timeline', () => {
  it(`gives a linear scan's answers for 1,000 random times over ${COMMITS.toLocaleString('en-US')} commits by 50 principals, and again after the index is deleted`, async () => {
    const store = join(tempDir(), 's.git');
    const all: Gen[] = generateTimeline(store, { commits: COMMITS, principals: 50 });
    const qs = questions(1000, 50);
    const expected = qs.map((q) => linearResolve(all, q.principal, q.t)?.oid ?? null).map((o) => (o ? `ctx-${o}` : null));
    // the data holds what the rules are about: ties, clock skew, and questions before the first commit
    expect(all.filter((c, i) => i > 0 && all[i - 1].branch === c.branch && c.t === all[i - 1].t).length).toBeGreaterThan(COMMITS / 50);
    expect(all.filter((c, i) => i > 0 && all[i - 1].branch === c.branch && c.t < all[i - 1].t).length).toBeGreaterThan(COMMITS / 100);
    expect(expected.filter((e) => e === null).length).toBeGreaterThan(5);

    expect(await answers(store, qs)).toEqual(expected);
    const refsFile = join(store, 'ctx', 'timeline', 'refs');
    expect(readFileSync(refsFile, 'utf8').split('\n')[0]).toBe('ctx-timeline 1');

    rmSync(join(store, 'ctx'), { recursive: true });
    expect(await answers(store, qs)).toEqual(expected);
    expect(existsSync(refsFile)).toBe(true);
  }, 60_000);
});

describe('ctx resolve', () => {
  const env = { ...FIXED_ENV, CTX_PRINCIPAL: 'reviewer-7' };
  const at = (store: string, time: string, extra: Record<string, string> = {}) =>
    ctx(store, ['checkpoint', '-b', extra.branch ?? 'review/t-12', '--format', 'claude-code-v1', ...(extra.parent ? ['--parent', extra.parent] : []), '-'], {
      input: LINE,
      env: { ...env, CTX_NOW: time, ...(extra.principal ? { CTX_PRINCIPAL: extra.principal } : {}) },
    });
  const resolve = (store: string, time: string, more: string[] = []) => ctx(store, ['resolve', '--principal', 'reviewer-7', '--at', time, ...more], { env });
  const full = (store: string, name: string) => `ctx-${git(store, ['rev-parse', name]).trim()}`;

  it('prints the nearest commit at or before the time, exits 4 before the first, and 2 on a bad time', () => {
    const store = join(tempDir(), 's');
    expect(at(store, '2026-11-20T14:00:00.000Z').code).toBe(0);
    expect(at(store, '2026-11-20T14:05:00.000Z').code).toBe(0);
    const first = full(store, 'review/t-12~1');
    const second = full(store, 'review/t-12');

    expect(resolve(store, '2026-11-20T14:03:00Z')).toEqual({ stdout: `${first}\n`, stderr: '', code: 0, bytes: expect.anything() });
    expect(resolve(store, '2026-11-20T14:05:00Z').stdout).toBe(`${second}\n`);
    expect(resolve(store, '2026-11-20T16:04:59+02:00').stdout).toBe(`${first}\n`);
    expect(JSON.parse(resolve(store, '2026-11-21', ['--json']).stdout)).toEqual({ v: 1, id: second, principal: 'reviewer-7', at: '2026-11-21T00:00:00.000Z', created_at: '2026-11-20T14:05:00.000Z' });

    const before = resolve(store, '2026-11-20T13:59:59.999Z');
    expect([before.code, before.stdout, before.stderr]).toEqual([4, '', "ctx: no commit by principal 'reviewer-7' at or before 2026-11-20T13:59:59.999Z\n"]);
    const nobody = ctx(store, ['resolve', '--principal', 'nobody', '--at', '2026-11-21T00:00:00Z'], { env });
    expect([nobody.code, nobody.stderr]).toEqual([4, "ctx: no commit by principal 'nobody'\n"]);
    for (const bad of ['yesterday', '2026-02-30']) {
      const r = resolve(store, bad);
      expect([r.code, r.stdout, r.stderr]).toEqual([2, '', `ctx: not a time: '${bad}' (ISO 8601 with a zone, e.g. 2026-11-20T14:03:00Z, or a date)\n`]);
    }
    for (const bad of ['2026-11-20T14:03:00', '2026-13-45T99:00:00Z', '2026-11-20T24:00:00Z', '2026-11-20T14:03:00+25:00', '', new Date(NaN)]) expect(() => parseAt(bad)).toThrow(UsageError);
    expect(['2026-11-20T14:03Z', '2026-11-20T16:03:00+0200', '2024-02-29', '2026-11-20T14:03:00.123456Z'].map(parseAt)).toEqual([1795183380000, 1795183380000, 1709164800000, 1795183380123]);
    const missing = ctx(store, ['resolve', '--at', '2026-11-21T00:00:00Z'], { env });
    expect([missing.code, missing.stderr]).toEqual([2, "ctx: required option '--principal <name>' not specified\n"]);
  });

  it('breaks ties by depth in the chain and follows created_at, not the chain, when clocks disagree', () => {
    const store = join(tempDir(), 's');
    for (const t of ['2026-11-20T14:00:00.000Z', '2026-11-20T14:00:00.000Z', '2026-11-20T14:00:00.000Z']) at(store, t);
    // clock skew: this commit is older than its parent
    at(store, '2026-11-20T13:00:00.000Z');
    expect(resolve(store, '2026-11-20T14:00:00Z').stdout).toBe(`${full(store, 'review/t-12~1')}\n`);
    expect(resolve(store, '2026-11-20T13:30:00Z').stdout).toBe(`${full(store, 'review/t-12')}\n`);
    expect(resolve(store, '2026-11-20T15:00:00Z').stdout).toBe(`${full(store, 'review/t-12~1')}\n`);
  });

  it('appends each write to the index instead of rebuilding it, and --branch keeps to one chain', () => {
    const store = join(tempDir(), 's');
    at(store, '2026-11-20T14:00:00.000Z');
    expect(resolve(store, '2026-11-20T14:00:00Z').code).toBe(0);
    const refsFile = join(store, 'ctx', 'timeline', 'refs');
    const built = readFileSync(refsFile, 'utf8');
    const files = () => readFileSync(refsFile, 'utf8');
    const first = full(store, 'review/t-12');
    expect(built).toBe(`ctx-timeline 1\n${first.slice(4)} 0 refs/heads/review/t-12\n`);
    const principals = join(store, 'ctx', 'timeline', 'principals');
    const [file] = readdirSync(principals) as string[];
    const inode = statSync(join(principals, file)).ino;

    at(store, '2026-11-20T14:10:00.000Z');
    // a new branch from a tip the index covers, by another principal
    at(store, '2026-11-20T14:20:00.000Z', { branch: 'side', parent: 'review/t-12', principal: 'bob' });
    at(store, '2026-11-20T14:30:00.000Z', { branch: 'side' });
    const second = full(store, 'review/t-12');
    expect(files()).toBe(`ctx-timeline 1\n${second.slice(4)} 1 refs/heads/review/t-12\n${full(store, 'side').slice(4)} 3 refs/heads/side\n`);
    expect(statSync(join(principals, file))).toMatchObject({ ino: inode, size: 3 * 32 });

    // an import (a chain in one batch) appends too
    const imported = ctx(store, ['import', 'claude-code', join(FIXTURES, 'claude-code', 'compacted-session.jsonl'), '-b', 'imported', '--json'], { env });
    const n = JSON.parse(imported.stdout).commits;
    expect(files()).toContain(`${full(store, 'imported').slice(4)} ${n - 1} refs/heads/imported\n`);
    expect(statSync(join(principals, file))).toMatchObject({ ino: inode, size: (3 + n) * 32 });
    // a fork moves no commit into the timeline: the next resolve adds its ref without a rebuild
    expect(ctx(store, ['fork', 'review/t-12~1', 'forked'], { env }).code).toBe(0);
    expect(resolve(store, '2026-11-20T15:00:00Z').stdout).toBe(`${full(store, 'side')}\n`);
    expect(files()).toContain(`${first.slice(4)} 0 refs/heads/forked\n`);
    expect(statSync(join(principals, file))).toMatchObject({ ino: inode, size: (3 + n) * 32 });
    expect(resolve(store, '2026-11-20T15:00:00Z', ['--branch', 'review/t-12']).stdout).toBe(`${second}\n`);
    const none = resolve(store, '2026-11-20T13:00:00Z', ['--branch', 'side']);
    expect([none.code, none.stderr]).toEqual([4, "ctx: no commit by principal 'reviewer-7' on side at or before 2026-11-20T13:00:00.000Z\n"]);
  });

  it('never answers from a stale index: native git moving, deleting and fetching refs, a damaged index file', () => {
    const dir = tempDir();
    const store = join(dir, 's');
    for (const t of ['2026-11-20T14:00:00.000Z', '2026-11-20T14:10:00.000Z', '2026-11-20T14:20:00.000Z']) at(store, t);
    const [c1, c2, c3] = ['review/t-12~2', 'review/t-12~1', 'review/t-12'].map((n) => full(store, n));
    expect(resolve(store, '2026-11-20T15:00:00Z').stdout).toBe(`${c3}\n`);

    // moved back by another tool: c3 is no longer reachable
    git(store, ['update-ref', 'refs/heads/review/t-12', c2.slice(4)]);
    expect(resolve(store, '2026-11-20T15:00:00Z').stdout).toBe(`${c2}\n`);
    // a tag keeps c3 reachable; deleting it drops c3 again
    git(store, ['tag', 'kept', c3.slice(4)]);
    expect(resolve(store, '2026-11-20T15:00:00Z').stdout).toBe(`${c3}\n`);
    git(store, ['update-ref', '-d', 'refs/tags/kept']);
    expect(resolve(store, '2026-11-20T15:00:00Z').stdout).toBe(`${c2}\n`);

    // a fetch by native git brings another store's commits in as remote-tracking refs
    const other = join(dir, 'o');
    at(other, '2026-11-20T14:15:00.000Z', { branch: 'elsewhere' });
    git(store, ['fetch', '-q', other, '+refs/heads/*:refs/remotes/o/*']);
    expect(resolve(store, '2026-11-20T14:16:00Z').stdout).toBe(`${full(other, 'elsewhere')}\n`);

    // damaged derived files: rebuilt, never believed
    const principals = join(store, 'ctx', 'timeline', 'principals');
    const [file] = readdirSync(principals) as string[];
    const bytes = readFileSync(join(principals, file));
    bytes.fill(0x41, 12, 32); // the first record names another commit
    writeFileSync(join(principals, file), bytes);
    expect(resolve(store, '2026-11-20T14:05:00Z').stdout).toBe(`${c1}\n`);
    writeFileSync(join(store, 'ctx', 'timeline', 'refs'), 'garbage');
    expect(resolve(store, '2026-11-20T14:12:00Z').stdout).toBe(`${c2}\n`);
    // the in-process engine builds the same timeline
    rmSync(join(store, 'ctx', 'timeline'), { recursive: true });
    expect(ctx(store, ['resolve', '--principal', 'reviewer-7', '--at', '2026-11-20T14:16:00Z'], { env: { ...env, CTX_ENGINE: 'isogit' } }).stdout).toBe(`${full(other, 'elsewhere')}\n`);
  });
});

describe('ctx current', () => {
  it("prints the newest tip among the branches of a session, lists them in --json, and exits 4 for an unknown session", () => {
    const store = join(tempDir(), 's');
    const write = (branch: string, session: string, time: string) =>
      ctx(store, ['checkpoint', '-b', branch, '--format', 'claude-code-v1', '--session', session, '-'], { input: LINE, env: { ...FIXED_ENV, CTX_NOW: time } });
    write('work/a', 'sess-1', '2026-11-20T14:00:00.000Z');
    write('work/b', 'sess-1', '2026-11-20T14:30:00.000Z');
    write('work/c', 'sess-2', '2026-11-20T15:00:00.000Z');
    write('work/a', 'sess-1', '2026-11-20T14:10:00.000Z');
    const tip = `ctx-${git(store, ['rev-parse', 'work/b']).trim()}`;

    expect(ctx(store, ['current', '--session', 'sess-1'])).toMatchObject({ stdout: `${tip}\n`, stderr: '', code: 0 });
    expect(JSON.parse(ctx(store, ['current', '--session', 'sess-1', '--json']).stdout)).toEqual({ v: 1, id: tip, branch: 'work/b', created_at: '2026-11-20T14:30:00.000Z', branches: ['work/b', 'work/a'] });
    expect(ctx(store, ['current'], { env: { CTX_SESSION: 'sess-2' } }).stdout).toBe(`ctx-${git(store, ['rev-parse', 'work/c']).trim()}\n`);
    const none = ctx(store, ['current', '--session', 'sess-9']);
    expect([none.code, none.stdout, none.stderr]).toEqual([4, '', 'ctx: no branch holds session sess-9\n']);
    // a runtime's session: its live branch (the session branch, or its newest fork), not a subagent's newer tip
    write('claude/sess-3', 'sess-3', '2026-11-20T16:00:00.000Z');
    write('claude/sess-3.agent-a1', 'sess-3', '2026-11-20T16:00:00.001Z');
    const live = () => JSON.parse(ctx(store, ['current', '--session', 'sess-3', '--json']).stdout);
    expect(live()).toMatchObject({ branch: 'claude/sess-3', branches: ['claude/sess-3', 'claude/sess-3.agent-a1'] });
    write('claude/sess-3.fork-1', 'sess-3', '2026-11-20T15:00:00.000Z');
    expect(live()).toMatchObject({ id: `ctx-${git(store, ['rev-parse', 'claude/sess-3.fork-1']).trim()}`, branch: 'claude/sess-3.fork-1', branches: ['claude/sess-3.fork-1', 'claude/sess-3.agent-a1', 'claude/sess-3'] });
    const empty = ctx(store, ['current'], { env: { CTX_SESSION: '' } });
    expect([empty.code, empty.stderr]).toEqual([2, 'ctx: give a session: --session ID (or CTX_SESSION)\n']);
  });
});
