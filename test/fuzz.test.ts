// Seeded fuzzing of every parser and entry point: valid inputs mutated (bytes flipped, inserted,
// deleted, truncated, lines duplicated, wrong types, huge numbers, deep nesting, invalid UTF-8, NUL,
// long runs). Properties: never a stack or an internal error, always a documented exit code, the
// store unchanged after refused input, the hook always exit 0 in bounded time.
// Small counts in `npm test`; `npm run fuzz` (FUZZ_CASES, FUZZ_SEED) for long runs.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CtxError } from '../src/errors/index.js';
import { knownFormat, outputFormat, storageNames } from '../src/formats/registry.js';
import { parseSpec } from '../src/core/ids.js';
import { metaProblems, parseTrailers } from '../src/core/meta.js';
import { checkBranchName } from '../src/store/refs.js';
import { checkRemoteName, urlKind, redact } from '../src/store/sync/remotes.js';
import { parseConfigSize } from '../src/store/repo.js';
import { checkTokenCounter } from '../src/core/tokens.js';
import { foldAnnotations } from '../src/api/read/read.js';
import { CTX, FIXED_ENV, ctx, git, newStore, objectCount, refSnapshot, tempDir, type Run } from './helpers.js';
import { JS_BUG, cases, caseSeed, mutateArtifact, mutateBytes, mutateString, mutateValue, prng, replay, seeds, stderrProblem, type Rng } from './fuzz-kit.js';

const env = FIXED_ENV;
const LINE = '{"type":"user","message":{"role":"user","content":"hi"}}\n';
/** In-process cases per parser (cheap); CLI cases per category (each spawns node). */
const IN_PROCESS = cases(150, 'FUZZ_CASES');
const CLI = Math.max(1, Math.round(cases(150, 'FUZZ_CASES') / 50));
/** Each CLI case spawns node a few times: minutes on a busy machine, far more under `npm run fuzz`. */
const CLI_TIMEOUT = 300_000 + CLI * 20_000;

/** The store's refs, objects and config bytes: a refused command leaves all three as they were. */
const snapshot = (store: string) => [refSnapshot(store), objectCount(store), readFileSync(join(store, 'config'), 'utf8')].join('\n--\n');

/** Distinct failures by signature (category + first line of the problem), with one replayable case each. */
class Failures {
  readonly seen = new Map<string, string>();
  add(category: string, i: number, problem: string, detail: string) {
    const key = `${category}: ${problem.split('\n')[0].replace(/[0-9a-f]{7,}/g, '…').slice(0, 160)}`;
    if (!this.seen.has(key)) this.seen.set(key, `${replay(category, i, problem)}\n${detail.slice(0, 2000)}`);
  }
  report(): string[] {
    return [...this.seen.values()];
  }
}

/** An exception from in-process code: a CtxError is a refusal; anything else is a bug. */
function inProcess(f: Failures, category: string, i: number, input: unknown, fn: () => unknown) {
  try {
    fn();
  } catch (e) {
    if (e instanceof CtxError) return;
    const err = e as Error;
    f.add(category, i, `${err?.name}: ${err?.message}`, `input: ${JSON.stringify(String(input).slice(0, 300))}\n${err?.stack?.split('\n').slice(0, 4).join('\n')}`);
  }
}

function check(f: Failures, category: string, i: number, args: string[], r: Run, what: string) {
  const problem = stderrProblem(r.stderr, r.code);
  if (problem) f.add(category, i, `ctx ${args[0]}: ${problem}`, `${what}\nctx ${args.join(' ').slice(0, 300)}\nexit ${r.code}\nstderr: ${r.stderr.slice(0, 600)}`);
}

/** Runs ctx; on a refusal the store must be as before. */
function refusedUnchanged(f: Failures, category: string, i: number, store: string, args: string[], input: Buffer | string | undefined, what: string): Run {
  const before = snapshot(store);
  const r = ctx(store, args, { env, input });
  check(f, category, i, args, r, what);
  if (r.code !== 0 && snapshot(store) !== before) f.add(category, i, `ctx ${args[0]}: store changed after exit ${r.code}`, `${what}\nstderr: ${r.stderr}`);
  return r;
}

const show = (input: Buffer | string) => `input (base64): ${Buffer.from(input).toString('base64').slice(0, 1500)}`;

describe('parsers, in process: any throw is a CtxError', () => {
  it.each(seeds().map((s) => [s.format, s] as const))('%s: parse, count, token texts, neutral, markdown, concat, field map', (format, seed) => {
    const f = new Failures();
    const fmt = knownFormat(format)!;
    const markdown = outputFormat('markdown');
    for (let i = 0; i < IN_PROCESS; i++) {
      const rng = prng(caseSeed(format, i));
      const bytes = mutateArtifact(rng, seed);
      inProcess(f, format, i, bytes.toString('base64'), () => {
        const entries = fmt.parse(bytes);
        fmt.count(entries);
        fmt.tokenTexts(entries);
        const neutral = fmt.toNeutral?.(entries);
        if (neutral && markdown?.tier === 'rendering') markdown.render(neutral);
        if (neutral) for (const other of storageNames()) knownFormat(other)!.fromNeutral?.(neutral);
        fmt.fieldMap?.upgrade(entries, { timestamp: '2026-01-02T03:04:05.678Z' });
        fmt.mapStrings?.(bytes, (s) => s.toUpperCase());
        if (fmt.concatRule !== 'snapshot') fmt.parse(fmt.concat([bytes, bytes]));
      });
    }
    expect(f.report()).toEqual([]);
  }, CLI_TIMEOUT);
});

describe('names, specs, config values, meta.json and notes lines, in process', () => {
  const run = (category: string, valid: string[], fn: (s: string) => unknown) => {
    const f = new Failures();
    for (let i = 0; i < IN_PROCESS * 2; i++) {
      const rng = prng(caseSeed(category, i));
      const s = mutateString(rng, rng.pick(valid));
      inProcess(f, category, i, s, () => fn(s));
    }
    return f.report();
  };
  it('ids and NAME~N specs', () => expect(run('spec', ['ctx-1a2b3c4d5e6f~2', 'main~1', 'alice/auth-fix^^', '1a2b3c4d', 'ctx-0123'], parseSpec)).toEqual([]));
  it('branch and remote names', () => {
    expect(run('branch', ['claude/s-1', 'main', 'a/b/c', 'x.y'], (s) => checkBranchName(s))).toEqual([]);
    expect(run('remote-name', ['origin', 'up-stream'], checkRemoteName)).toEqual([]);
  });
  it('remote URLs', () => expect(run('url', ['https://u:tok@h.example/x.git', 'git@host:x.git', 'file:///tmp/x', '/tmp/x.git', 'ssh://h/x', 'fd::3'], (s) => (urlKind(s), redact(s)))).toEqual([]));
  // Found by this suite: redact's regex backtracked quadratically on a long URL without `@` (100 kB
  // took 17 s). Now linear: a megabyte ends within the test's own time limit, credentials still hidden.
  it('redact on very long URLs', () => {
    expect(redact(`http://${'a'.repeat(1_000_000)}`)).toBe(`http://${'a'.repeat(1_000_000)}`);
    expect(redact(`x https://user:${'p'.repeat(100_000)}@host/r.git`)).toBe('x https://user:***@host/r.git');
    expect(redact(`see ${'ab'.repeat(200_000)}https://tok123456789012345678@h/x`)).toBe(`see ${'ab'.repeat(200_000)}https://***@h/x`);
  });
  it('config values', () => {
    expect(run('maxBlobSize', ['32m', '1024', '1g', '64k'], (s) => parseConfigSize('ctx.maxBlobSize', s, 1024, 1024 ** 3))).toEqual([]);
    expect(run('tokenCount', ['cl100k_base', 'chars/4'], checkTokenCounter)).toEqual([]);
  });
  it('meta.json and trailers', () => {
    const meta = { v: 1, type: 'delta', checkpoint: 'explicit', format: 'claude-code-v1', template: 't', principal: 'alice', machine: 'box', session_id: 's', summary: '', created_at: '2026-01-02T03:04:05.678Z', artifact_size: 3, message_count: 1, token_count: 2, artifact: `blake3:${'0'.repeat(64)}` };
    const f = new Failures();
    for (let i = 0; i < IN_PROCESS * 2; i++) {
      const rng = prng(caseSeed('meta', i));
      const text = rng.chance(0.5) ? JSON.stringify(mutateValue(rng, meta)) : mutateBytes(rng, Buffer.from(JSON.stringify(meta))).toString('utf8');
      inProcess(f, 'meta', i, text, () => {
        let parsed: unknown;
        try {
          parsed = JSON.parse(text);
        } catch {
          return;
        }
        metaProblems(parsed);
      });
    }
    expect(f.report()).toEqual([]);
    expect(run('trailers', ['summary\n\nCtx-Type: delta\nCtx-Format: claude-code-v1\n'], parseTrailers)).toEqual([]);
  });
  it('notes lines', () => expect(run('notes', ['{"v":1,"at":"2026-01-02T03:04:05.678Z","summary":"s"}\n{"v":1,"at":"2026-01-02T03:04:06.000Z","pin":[0,2]}\n'], foldAnnotations)).toEqual([]));
});

describe('the CLI on mutated input', () => {
  it.each(seeds().map((s) => [s.format, s] as const))('checkpoint --format %s, then materialize and budget what was accepted', (format, seed) => {
    const f = new Failures();
    const store = newStore();
    for (let i = 0; i < CLI; i++) {
      const rng = prng(caseSeed(`cli-${format}`, i));
      const bytes = mutateArtifact(rng, seed);
      const r = refusedUnchanged(f, `cli-${format}`, i, store, ['checkpoint', '-b', `b${i}`, '--format', format, '-'], bytes, show(bytes));
      if (r.code !== 0) continue;
      for (const args of [['materialize', `b${i}`], ['materialize', `b${i}`, '--format', rng.pick(['markdown', 'openai-chat-v1', 'bureau-agent-v1', 'raw'])], ['budget', `b${i}`, '--window', '1000']])
        check(f, `cli-${format}`, i, args, ctx(store, args, { env }), show(bytes));
    }
    expect(f.report()).toEqual([]);
  }, CLI_TIMEOUT);

  it('ids and NAME~N specs: show, materialize, log', () => {
    const f = new Failures();
    const store = newStore();
    const ids = [0, 1, 2].map((n) => ctx(store, ['checkpoint', '-b', 'main', '--format', 'claude-code-v1', '-'], { env: { ...env, CTX_NOW: `2026-01-02T03:04:0${n}.000Z` }, input: LINE }).stdout.trim());
    for (let i = 0; i < CLI * 3; i++) {
      const rng = prng(caseSeed('cli-spec', i));
      const spec = mutateString(rng, rng.pick([...ids, 'main~1', 'main^', `${ids[0]}~0`, ids[2].slice(4, 10)]));
      if (spec.startsWith('-')) continue; // an option, not a spec
      const args = [rng.pick(['show', 'materialize', 'log']), spec];
      refusedUnchanged(f, 'cli-spec', i, store, args, undefined, `spec ${JSON.stringify(spec)}`);
    }
    expect(f.report()).toEqual([]);
  }, CLI_TIMEOUT);

  it('branch names: checkpoint -b and fork', () => {
    const f = new Failures();
    const store = newStore();
    ctx(store, ['checkpoint', '-b', 'claude/s-1', '--format', 'claude-code-v1', '-'], { env, input: LINE });
    for (let i = 0; i < CLI * 3; i++) {
      const rng = prng(caseSeed('cli-branch', i));
      const name = mutateString(rng, rng.pick(['claude/s-1', 'main', 'a/b']));
      if (name.startsWith('-') || name === '') continue;
      const args = rng.chance(0.5) ? ['checkpoint', '-b', name, '--format', 'claude-code-v1', '-'] : ['fork', 'claude/s-1', name];
      refusedUnchanged(f, 'cli-branch', i, store, args, LINE, `name ${JSON.stringify(name)}`);
    }
    expect(f.report()).toEqual([]);
  }, CLI_TIMEOUT);

  it('config values: ctx.maxBlobSize, ctx.engine, ctx.secrets, ctx.tokenCount', () => {
    const f = new Failures();
    const valid: Record<string, string[]> = { 'ctx.maxBlobSize': ['32m', '4096', '1g'], 'ctx.engine': ['git', 'isogit', 'auto'], 'ctx.secrets': ['redact', 'block', 'warn'], 'ctx.tokenCount': ['cl100k_base', 'chars/4'] };
    for (let i = 0; i < CLI * 2; i++) {
      const rng = prng(caseSeed('cli-config', i));
      const store = newStore();
      const key = rng.pick(Object.keys(valid));
      const value = mutateString(rng, rng.pick(valid[key]));
      if (spawnSync('git', ['--git-dir', store, 'config', key, value]).status !== 0) continue;
      const what = `git config ${key} ${JSON.stringify(value)}`;
      const r = refusedUnchanged(f, 'cli-config', i, store, ['checkpoint', '-b', 'b', '--format', 'claude-code-v1', '-'], LINE, what);
      if (r.code === 0) check(f, 'cli-config', i, ['materialize', 'b'], ctx(store, ['materialize', 'b'], { env }), what);
    }
    expect(f.report()).toEqual([]);
  }, CLI_TIMEOUT);

  it('remote names and URLs: remote add, then fetch in bounded time', () => {
    const f = new Failures();
    const store = newStore();
    const bare = join(tempDir(), 'r.git');
    spawnSync('git', ['init', '-q', '--bare', bare]);
    for (let i = 0; i < CLI * 2; i++) {
      const rng = prng(caseSeed('cli-remote', i));
      const name = rng.chance(0.5) ? mutateString(rng, 'origin') : `r${i}`;
      // no real hosts: local paths, a closed local port, and git's special forms
      const url = rng.chance(0.7) ? mutateString(rng, rng.pick([bare, `file://${bare}`, 'http://127.0.0.1:9/x.git', 'ext::false'])) : rng.pick([bare, 'ext::sh -c false']);
      // fd:: URLs hang fetch today: the skipped test below
      if (name.startsWith('-') || url.startsWith('-') || !name || /^fd::/.test(url)) continue;
      const what = `remote ${JSON.stringify(name)} ${JSON.stringify(url)}`;
      const r = refusedUnchanged(f, 'cli-remote', i, store, ['remote', 'add', name, url], undefined, what);
      if (r.code !== 0) continue;
      const started = Date.now();
      const fetched = spawnSync(process.execPath, [CTX, '--store', store, 'fetch', name], { env: { ...process.env, ...env, GIT_SSH_COMMAND: 'false', GIT_TERMINAL_PROMPT: '0' }, timeout: 30_000, encoding: 'utf8' });
      if (fetched.signal) f.add('cli-remote', i, 'ctx fetch: still running after 30 s (killed)', what);
      else check(f, 'cli-remote', i, ['fetch', name], { code: fetched.status ?? -1, stderr: fetched.stderr, stdout: fetched.stdout, bytes: Buffer.alloc(0) }, `${what} (${Date.now() - started} ms)`);
      ctx(store, ['remote', 'remove', name], { env });
    }
    expect(f.report()).toEqual([]);
  }, CLI_TIMEOUT);

  // Found by this suite (issue 10 #13): `remote add r fd::3` was accepted and `ctx fetch r` never ended.
  it('an fd:: remote URL: refused when added; one written into the config by hand: fetch ends at once', () => {
    const store = newStore();
    expect(ctx(store, ['remote', 'add', 'r', 'fd::3'], { env }).code).toBe(2);
    git(store, ['config', 'remote.r.url', 'fd::3']);
    const r = spawnSync(process.execPath, [CTX, '--store', store, 'fetch', 'r'], { env: { ...process.env, ...env }, timeout: 10_000, encoding: 'utf8' });
    expect(r.signal).toBe(null);
    expect(stderrProblem(r.stderr, r.status ?? -1)).toBe(null);
  });

  it('forged meta.json (native git plumbing): verify, show, log, materialize, budget', () => {
    const f = new Failures();
    const store = newStore();
    ctx(store, ['checkpoint', '-b', 'a', '--format', 'claude-code-v1', '-'], { env, input: LINE });
    ctx(store, ['checkpoint', '-b', 'a', '--format', 'claude-code-v1', '-'], { env: { ...env, CTX_NOW: '2026-01-02T03:04:06.000Z' }, input: LINE });
    const plumb = (args: string[], input?: string) => spawnSync('git', ['--git-dir', store, ...args], { input }).stdout.toString().trim();
    const meta = plumb(['show', 'a:meta.json']);
    const message = plumb(['log', '-1', '--format=%B', 'a']);
    for (let i = 0; i < CLI; i++) {
      const rng = prng(caseSeed('cli-meta', i));
      const text = rng.chance(0.6) ? (JSON.stringify(mutateValue(rng, JSON.parse(meta))) ?? '') : mutateBytes(rng, Buffer.from(meta)).toString('latin1');
      const tree = plumb(['mktree'], `100644 blob ${plumb(['rev-parse', 'a:delta.jsonl'])}\tdelta.jsonl\n100644 blob ${plumb(['hash-object', '-w', '--stdin'], text)}\tmeta.json\n`);
      const commit = plumb(['commit-tree', tree, '-p', plumb(['rev-parse', 'a~1'])], rng.chance(0.3) ? mutateString(rng, message) || 'x' : message);
      plumb(['update-ref', `refs/heads/f${i}`, commit]);
      for (const args of [['verify', `f${i}`], ['show', `f${i}`], ['log', `f${i}`], ['materialize', `f${i}`], ['materialize', `f${i}`, '--format', 'markdown'], ['budget', `f${i}`, '--window', '1000']])
        refusedUnchanged(f, 'cli-meta', i, store, args, undefined, `meta.json ${JSON.stringify(text.slice(0, 600))}`);
    }
    expect(f.report()).toEqual([]);
  }, CLI_TIMEOUT);

  it('notes lines under refs/notes/ctx: show, log, materialize, budget', () => {
    const f = new Failures();
    const store = newStore();
    ctx(store, ['checkpoint', '-b', 'a', '--format', 'claude-code-v1', '-'], { env, input: LINE + LINE.replace('user', 'assistant') });
    expect(ctx(store, ['annotate', 'a', '--summary', 'first'], { env }).code).toBe(0);
    const note = git(store, ['notes', '--ref=ctx', 'show', 'a']);
    for (let i = 0; i < CLI; i++) {
      const rng = prng(caseSeed('cli-notes', i));
      const lines = note.split('\n').filter(Boolean);
      const j = rng.int(lines.length);
      lines[j] = rng.chance(0.6) ? (JSON.stringify(mutateValue(rng, { ...JSON.parse(lines[j]), pin: [0, 1] })) ?? '') : mutateBytes(rng, Buffer.from(lines[j])).toString('utf8');
      spawnSync('git', ['--git-dir', store, 'notes', '--ref=ctx', 'add', '-f', '-F', '-', 'a'], { input: `${lines.join('\n')}\n` });
      for (const args of [['show', 'a'], ['log', 'a', '--json'], ['materialize', 'a'], ['budget', 'a', '--window', '1000'], ['annotate', 'a', '--summary', `s${i}`]])
        refusedUnchanged(f, 'cli-notes', i, store, args, undefined, `note ${JSON.stringify(lines.join('\n').slice(0, 600))}`);
    }
    expect(f.report()).toEqual([]);
  }, CLI_TIMEOUT);
});

describe('the hook: exit 0, nothing on stdout, bounded time, whatever comes on stdin', () => {
  /** The hook with stdin written in pieces at delays (late and partial writes). */
  function hook(store: string, pieces: { at: number; bytes: Buffer }[], close: number): Promise<{ code: number | null; signal: string | null; stdout: string; stderr: string; ms: number }> {
    return new Promise((done) => {
      const started = Date.now();
      const child = spawn(process.execPath, [CTX, '--store', store, 'hook', 'claude-code'], { env: { ...process.env, ...env } });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (b) => (stdout += b));
      child.stderr.on('data', (b) => (stderr += b));
      child.stdin.on('error', () => {});
      const timer = setTimeout(() => child.kill('SIGKILL'), 40_000);
      child.on('close', (code, signal) => {
        clearTimeout(timer);
        done({ code, signal, stdout, stderr, ms: Date.now() - started });
      });
      for (const p of pieces) setTimeout(() => child.stdin.writable && child.stdin.write(p.bytes), p.at);
      setTimeout(() => child.stdin.writable && child.stdin.end(), close);
    });
  }

  it('mutated hook JSON and transcripts, written late and in pieces', async () => {
    const f = new Failures();
    const store = newStore();
    const dir = tempDir();
    const transcript = readFileSync(join(import.meta.dirname, '..', 'fixtures', 'claude-code', 'compacted-session.jsonl'));
    for (let i = 0; i < CLI * 3; i++) {
      const rng = prng(caseSeed('hook', i));
      const file = join(dir, `s-${i}.jsonl`);
      writeFileSync(file, rng.chance(0.5) ? mutateArtifact(rng, { kind: 'jsonl', bytes: transcript }) : transcript);
      const valid = { session_id: `s-${i}`, transcript_path: file, hook_event_name: rng.pick(['Stop', 'SubagentStop', 'PreCompact', 'SessionEnd']), cwd: dir };
      const text = rng.chance(0.6) ? Buffer.from(JSON.stringify(mutateValue(rng, valid)) ?? '') : mutateBytes(rng, Buffer.from(JSON.stringify(valid)));
      // up to three pieces, the last up to 1.5 s late
      const cuts = [0, ...Array.from({ length: rng.int(3) }, () => rng.int(text.length + 1)).sort((a, b) => a - b), text.length];
      const pieces = cuts.slice(1).map((end, k) => ({ at: rng.int(500) * k, bytes: text.subarray(cuts[k], end) }));
      const r = await hook(store, pieces, Math.max(...pieces.map((p) => p.at)) + rng.int(1000));
      const what = `hook input ${JSON.stringify(text.toString('utf8').slice(0, 600))}, transcript ${file}`;
      if (r.signal || r.code !== 0) f.add('hook', i, `hook: exit ${r.code} signal ${r.signal} after ${r.ms} ms`, `${what}\nstderr: ${r.stderr}`);
      if (r.stdout) f.add('hook', i, 'hook: output on stdout', `${what}\nstdout: ${r.stdout}`);
      const log = (() => {
        try {
          return readFileSync(join(store, 'ctx', 'hook.log'), 'utf8');
        } catch {
          return '';
        }
      })();
      if (JS_BUG.test(r.stderr + log)) f.add('hook', i, `hook: a JavaScript error logged: ${(r.stderr + log).split('\n').find((l) => JS_BUG.test(l))?.split('\t').at(-1)}`, what);
      writeFileSync(join(store, 'ctx', 'hook.log'), '');
    }
    // whatever was captured is whole
    expect(ctx(store, ['verify', '--all'], { env }).code).toBe(0);
    expect(f.report()).toEqual([]);
  }, CLI_TIMEOUT);
});
