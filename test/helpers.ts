// Tests run the built CLI (dist/) against real repositories in temp dirs, checked with native git.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, afterEach, describe, it } from 'vitest';

export const ROOT = resolve(import.meta.dirname, '..');
export const CTX = join(ROOT, 'bin', 'ctx');
export const CORPUS = resolve(ROOT, '..', 'shared', 'corpus');
export const FIXTURES = join(ROOT, 'fixtures');

// The shared corpus sits beside the clone (../shared/corpus). Without it, the tests that read it are
// reported skipped with the reason; with CI set they fail instead, so CI never skips them silently.
export const HAS_CORPUS = existsSync(CORPUS);
const CORPUS_SKIPPED = ' (skipped: ../shared/corpus not found)';
const corpusMissing = () => {
  throw new Error(`${CORPUS} not found: with CI set, the corpus tests run instead of skipping`);
};

/** `describe` for a suite that reads the corpus; `describeCorpus.each(cases)` as `describe.each` with `%s`. */
export function describeCorpus(name: string, fn: () => void): void {
  if (HAS_CORPUS) describe(name, fn);
  else if (process.env.CI) describe(name, () => it('reads ../shared/corpus', corpusMissing));
  else describe.skip(name + CORPUS_SKIPPED, fn);
}
describeCorpus.each = <T>(cases: readonly T[]) => (name: string, fn: (c: T) => void) => {
  for (const c of cases) describeCorpus(name.replace('%s', String(c)), () => fn(c));
};

/** `it` for one test that reads the corpus, in a suite that otherwise does not. */
export function itCorpus(name: string, fn: () => unknown, timeout?: number): void {
  if (HAS_CORPUS) it(name, fn, timeout);
  else if (process.env.CI) it(name, corpusMissing);
  else it.skip(name + CORPUS_SKIPPED, fn);
}

/** A corpus file's bytes; empty when the corpus is missing (the suites reading it are skipped then). */
export function corpusBytes(...path: string[]): Buffer {
  return HAS_CORPUS ? readFileSync(join(CORPUS, ...path)) : Buffer.alloc(0);
}
export const ENGINES = ['git', 'isogit'] as const;
export type EngineName = (typeof ENGINES)[number];

/** A fixed identity and clock, so commit ids are exact. */
export const FIXED_ENV = {
  CTX_NOW: '2026-01-02T03:04:05.678Z',
  CTX_PRINCIPAL: 'alice',
  CTX_MACHINE: 'box',
  CTX_TEMPLATE: 'test-agent',
  CTX_SESSION: 's-1',
};

const made: string[] = [];
afterEach(() => {
  while (made.length) rmSync(made.pop()!, { recursive: true, force: true });
});

export function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'ctx-test-'));
  made.push(d);
  return d;
}

export interface Run {
  stdout: string;
  stderr: string;
  code: number;
  bytes: Buffer;
}

export interface RunOptions {
  input?: string | Uint8Array;
  env?: Record<string, string | undefined>;
  cwd?: string;
}

/** `ctx ARGS` as a user runs it: a new node process, no TTY. */
export function ctx(store: string, args: string[], opts: RunOptions = {}): Run {
  const r = spawnSync(process.execPath, [CTX, ...args], {
    cwd: opts.cwd ?? dirname(store),
    input: opts.input,
    env: cleanEnv({ CTX_STORE: store, ...opts.env }),
    maxBuffer: 256 * 1024 * 1024,
  });
  return { stdout: r.stdout.toString('utf8'), stderr: r.stderr.toString('utf8'), code: r.status ?? -1, bytes: r.stdout };
}

/** The same, without waiting: for racing processes. */
export function ctxAsync(store: string, args: string[], opts: RunOptions = {}): Promise<Run> {
  return new Promise((done) => {
    const p = spawn(process.execPath, [CTX, ...args], { cwd: opts.cwd ?? dirname(store), env: cleanEnv({ CTX_STORE: store, ...opts.env }) });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    p.stdout.on('data', (b) => out.push(b));
    p.stderr.on('data', (b) => err.push(b));
    p.on('close', (code) => {
      const bytes = Buffer.concat(out);
      done({ stdout: bytes.toString('utf8'), stderr: Buffer.concat(err).toString('utf8'), code: code ?? -1, bytes });
    });
    if (opts.input !== undefined) p.stdin.end(opts.input);
    else p.stdin.end();
  });
}

function cleanEnv(extra: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('CTX_') && k !== 'NO_COLOR' && k !== 'FORCE_COLOR') env[k] = v;
  for (const [k, v] of Object.entries(extra)) if (v === undefined) delete env[k];
  else env[k] = v;
  return env;
}

/** Native git on the context repo. */
export function git(gitdir: string, args: string[]): string {
  return execFileSync('git', ['--git-dir', gitdir, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** `git fsck --strict`: its whole output (stdout and stderr) and exit code. */
export function fsck(gitdir: string): { code: number; output: string } {
  const r = spawnSync('git', ['--git-dir', gitdir, 'fsck', '--strict', '--no-progress'], { encoding: 'utf8' });
  return { code: r.status ?? -1, output: r.stdout + r.stderr };
}

/** Every ref and its value, for "nothing changed" checks. */
export function refSnapshot(gitdir: string): string {
  return git(gitdir, ['for-each-ref', '--format=%(refname) %(objectname)']);
}

/** Object count, loose and packed, for "nothing written" checks. */
export function objectCount(gitdir: string): string {
  return git(gitdir, ['count-objects', '-v']).split('\n').filter((l) => /^(count|in-pack):/.test(l)).join(' ');
}

/** The corpus files of one runtime, sorted; none when the corpus is missing. */
export function corpusFiles(dir: string, ext = '.jsonl'): string[] {
  if (!HAS_CORPUS) return [];
  return readdirSync(join(CORPUS, dir))
    .filter((f) => f.endsWith(ext))
    .sort()
    .map((f) => join(CORPUS, dir, f));
}

/** A new store (DIR/.ctx in a tempDir()): a copy of the one `ctx init` wrote once per test file (it writes the same few files each time). */
export function newStore(): string {
  return emptyStore();
}

const templates: string[] = [];
afterAll(() => {
  while (templates.length) rmSync(templates.pop()!, { recursive: true, force: true });
});

/**
 * New stores that all start as `build` leaves a new store: built once per test file (on first use, in a
 * directory of its own, since tempDir()'s are emptied after each test), then copied for each call.
 */
export function storeLike(build: (store: string) => void): () => string {
  let template: string | undefined;
  return () => {
    if (template === undefined) {
      const dir = mkdtempSync(join(tmpdir(), 'ctx-template-'));
      templates.push(dir);
      const store = join(dir, '.ctx');
      const r = ctx(store, ['init', store]);
      if (r.code !== 0) throw new Error(r.stderr);
      build(store);
      template = store;
    }
    const copy = join(tempDir(), '.ctx');
    cpSync(template, copy, { recursive: true });
    return copy;
  };
}

const emptyStore = storeLike(() => {});

/**
 * `bash -c SCRIPT` with ctx at hand as `"$NODE" "$CTX_BIN"`, the store in CTX_STORE and `env` as the
 * only CTX_* settings: for writers racing each other, without waiting.
 */
export function shellCtx(store: string, script: string, env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  const childEnv: NodeJS.ProcessEnv = {};
  for (const [key, v] of Object.entries(process.env)) if (!key.startsWith('CTX_')) childEnv[key] = v;
  Object.assign(childEnv, env, { CTX_STORE: store, NODE: process.execPath, CTX_BIN: CTX });
  return new Promise((done) => {
    const p = spawn('bash', ['-c', script], { cwd: ROOT, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (b) => (stdout += b));
    p.stderr.on('data', (b) => (stderr += b));
    p.on('close', (code) => done({ code: code ?? -1, stdout, stderr }));
  });
}

/** `n` checkpoints with --retry on `branch`, one process each, the i-th with summary `<tag>-<i>`. */
export function checkpointLoop(store: string, branch: string, tag: string, n: number, env: Record<string, string> = {}) {
  const script = `for i in $(seq 0 ${n - 1}); do printf '{"type":"user"}\\n' | "$NODE" "$CTX_BIN" checkpoint -b "${branch}" --format claude-code-v1 --retry --summary "${tag}-$i" - || exit 1; done`;
  return shellCtx(store, script, env);
}
