// `ctx clone --filter=blob:none` against `git http-backend` on 127.0.0.1: every ref, commit, meta.json
// and annotation comes with the clone, no artifact does; log, show, branch and sessions then work with
// the server stopped; materialize and grep fetch the artifacts they read, in one batch, and print
// what a whole clone prints.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXED_ENV, FIXTURES, ctx, git, newStore, tempDir, type Run } from './helpers.js';
import { gitServerFixture, startGitServer } from './git-http-server.js';

const served = gitServerFixture({ beforeAll, afterAll }, 'clone-partial');
const env = FIXED_ENV;
const CODEX = join(FIXTURES, 'codex', 'rollout-2026-11-22T21-04-49-01a20513-6ef2-75e0-a186-7b61e34882c3.jsonl');

function ok(r: Run): Run {
  if (r.code !== 0) throw new Error(`exit ${r.code}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`);
  return r;
}
const lines = (text: string) => text.split('\n').filter(Boolean);

/** Three sessions (one of three turns, one imported from Codex), an annotation and a save, pushed to a repo that serves partial clones. */
function published() {
  const store = newStore();
  for (const [i, text] of ['alpha needle', 'beta', 'gamma'].entries()) {
    const input = `${JSON.stringify({ type: 'user', message: { role: 'user', content: `${text} ${'words '.repeat(40 * (i + 1))}` } })}\n`;
    ok(ctx(store, ['checkpoint', '-b', 'claude/a', '--format', 'claude-code-v1', '-'], { input, env }));
  }
  ok(ctx(store, ['import', 'codex', CODEX, '-b', 'codex/b'], { env }));
  ok(ctx(store, ['annotate', 'claude/a', '--summary', 'the start'], { env }));
  ok(ctx(store, ['save', 'codex/b', '-m', 'a keeper', '--name', 'keep'], { env }));
  const { url } = served.repo(`p${Math.random().toString(36).slice(2, 8)}.git`, { allowFilter: true });
  ok(ctx(store, ['remote', 'add', 'origin', url]));
  ok(ctx(store, ['push'], { env }));
  return { store, url };
}

/** Each commit's artifact blobs (delta.*, snapshot.*, compaction artifacts) and meta.json blobs, by listing their trees. */
function blobsOf(store: string, revs = ['--branches', '--tags']): { artifacts: Set<string>; metas: Set<string> } {
  const artifacts = new Set<string>();
  const metas = new Set<string>();
  for (const c of lines(git(store, ['rev-list', ...revs]))) {
    for (const l of lines(git(store, ['ls-tree', c]))) {
      const [info, name] = l.split('\t');
      const oid = info.split(' ')[2];
      if (name === 'meta.json') metas.add(oid);
      else if (/^(delta|snapshot)\./.test(name)) artifacts.add(oid);
    }
  }
  return { artifacts, metas };
}
const missing = (store: string) => new Set(lines(git(store, ['rev-list', '--objects', '--all', '--missing=print'])).filter((l) => l.startsWith('?')).map((l) => l.slice(1)));

describe('ctx clone --filter=blob:none', () => {
  it('brings refs, commits, meta.json and annotations but no artifact; reads offline; fetches on demand in one batch; prints what a whole clone prints', async () => {
    const { url } = published();
    const cwd = tempDir();
    const full = join(cwd, 'full.ctx');
    const part = join(cwd, 'part.ctx');
    ok(ctx(full, ['clone', url, full], { cwd }));
    served.server.reset();
    expect(ok(ctx(part, ['clone', '--filter=blob:none', url, part], { cwd })).stdout).toBe(`Cloned ${url} into ${part} (--filter=blob:none): 2 branches, 1 tag, annotations\n`);
    // the listing (GET, POST), the filtered fetch (GET, 2 POSTs), then ONE fetch of every meta.json and annotation (GET, POST)
    expect(served.server.requests()).toBe(7);

    const { artifacts, metas } = blobsOf(full);
    expect(artifacts.size).toBeGreaterThanOrEqual(4);
    // exactly the artifacts are missing: every meta.json and every annotation blob is here
    expect([...missing(part)].sort()).toEqual([...artifacts].sort());
    for (const m of metas) expect(missing(part).has(m)).toBe(false);

    // the server stopped: what lists and shows reads only what the clone brought
    await served.server.close();
    const offline = (store: string, args: string[]) => ok(ctx(store, args, { env, cwd })).stdout;
    for (const args of [['log', '--all'], ['log', 'claude/a'], ['show', 'claude/a'], ['show', 'codex/b', '--json'], ['branch'], ['branch', '-a'], ['sessions']]) expect([args, offline(part, args)]).toEqual([args, offline(full, args)]);
    // an artifact read now says what is wrong and what to do, in one line, exit 1
    const refused = ctx(part, ['materialize', 'claude/a'], { env, cwd });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^ctx: this is a partial clone and 3 objects it needs could not be fetched from origin \(.*\): reach origin and retry, or read what is here \(log, show, branch, sessions\)\n$/);
    expect(refused.stdout).toBe('');

    // the server back (a new port): materialize fetches the chain's 3 artifacts in one fetch, nothing else
    const again = await startGitServer(served.server.root);
    try {
      git(part, ['config', 'remote.origin.url', url.replace(served.server.url, again.url)]);
      const before = missing(part);
      again.reset();
      const m = ok(ctx(part, ['materialize', 'claude/a'], { env, cwd }));
      expect(m.bytes.equals(ok(ctx(full, ['materialize', 'claude/a'], { env, cwd })).bytes)).toBe(true);
      expect(m.stderr).toBe(''); // not a terminal: quiet
      const chain = blobsOf(full, ['claude/a']).artifacts;
      expect([...before].filter((o) => !missing(part).has(o)).sort()).toEqual([...chain].sort());
      expect(again.requests()).toBe(2); // one fetch: the GET of its refs, the POST of its objects

      // grep reads every artifact: the rest, in one more fetch; the same hits as the whole clone
      again.reset();
      expect(ok(ctx(part, ['grep', 'needle', '--all'], { env, cwd })).stdout).toBe(ok(ctx(full, ['grep', 'needle', '--all'], { env, cwd })).stdout);
      expect(missing(part).size).toBe(0);
      expect(again.requests()).toBe(2);
    } finally {
      await again.close();
    }
  }, 300_000);

  it('a crafted --filter is refused before anything is written: one line, exit 2', () => {
    const cwd = tempDir();
    for (const filter of ['blob:none\n\tsshCommand = touch pwned', '--upload-pack=touch pwned', 'blob:limit=1k; rm -rf /', 'sparse:oid=HEAD:x']) {
      const r = ctx(join(cwd, 'x.ctx'), ['clone', `--filter=${filter}`, 'http://127.0.0.1:1/x.git', 'x.ctx'], { cwd });
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(lines(r.stderr)).toHaveLength(1);
      expect(r.stderr).toMatch(/^ctx: unsupported --filter '.*' \(blob:none or blob:limit=N\)\n$/);
    }
    expect(readdirSync(cwd)).toEqual([]);
  });
});
