// Every Claude Code transcript of the corpus imports and comes back byte for byte, on both engines.
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { ENGINES, corpusFiles, ctx, describeCorpus, fsck, git, newStore, type Run } from './helpers.js';

const files = corpusFiles('claude-code').filter((f) => readFileSync(f).length > 0);
const RANDLEE = files.find((f) => basename(f).startsWith('randlee__claude-history__simple-967e501d-session'))!;
const ENV = { CTX_PRINCIPAL: 'corpus', CTX_MACHINE: 'ci', CTX_NOW: '2026-01-02T03:04:05.678Z' };

// Every transcript imported on an engine (branch corpus/<i>), once per run of this file: the byte-exact
// test and the engines' comparison read the same stores (tempDir() is emptied after each test).
const root = mkdtempSync(join(tmpdir(), 'ctx-corpus-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const imports = new Map<string, { store: string; runs: Run[] }>();
function importAll(engine: string): { store: string; runs: Run[] } {
  if (!imports.has(engine)) {
    mkdirSync(join(root, engine));
    const store = join(root, engine, '.ctx');
    const init = ctx(store, ['init', store]);
    if (init.code !== 0) throw new Error(init.stderr);
    imports.set(engine, { store, runs: files.map((file, i) => ctx(store, ['import', 'claude-code', file, '-b', `corpus/${i}`], { env: { ...ENV, CTX_ENGINE: engine } })) });
  }
  return imports.get(engine)!;
}

describeCorpus.each(ENGINES)('corpus import with the %s engine', (engine) => {
  const env = { ...ENV, CTX_ENGINE: engine };

  it('imports every transcript and materializes --stop root byte-identical', () => {
    const { store, runs } = importAll(engine);
    for (const [i, file] of files.entries()) {
      expect(runs[i].stderr).toBe('');
      expect(runs[i].code).toBe(0);
      const root = ctx(store, ['materialize', `corpus/${i}`, '--stop', 'root'], { env });
      expect(root.code).toBe(0);
      expect(root.bytes.equals(readFileSync(file))).toBe(true);
    }
    expect(fsck(store)).toEqual({ code: 0, output: '' });
    expect(ctx(store, ['verify', '--all'], { env }).stdout).toMatch(/^ok \d+ commits\n$/);
  });

  it('makes the randlee compaction the start of the default materialization', () => {
    const store = newStore();
    expect(ctx(store, ['import', 'claude-code', RANDLEE, '-b', 'randlee'], { env }).code).toBe(0);
    const source = readFileSync(RANDLEE);
    const lines = source.toString('utf8').split('\n');
    // the compact_boundary is line 465 of the file; the summary line follows it
    expect(JSON.parse(lines[464]).subtype).toBe('compact_boundary');
    const start = Buffer.byteLength(lines.slice(0, 464).join('\n')) + 1;
    const tip = ctx(store, ['materialize', 'randlee'], { env });
    expect(tip.code).toBe(0);
    expect(tip.bytes.equals(source.subarray(start))).toBe(true);
    expect(JSON.parse(tip.stdout.split('\n')[1]).isCompactSummary).toBe(true);
    const types = ctx(store, ['log', 'randlee'], { env }).stdout.split('\n').filter(Boolean).map((l) => l.split('\t')[1]);
    expect(types.filter((t) => t === 'compaction')).toHaveLength(1);
  });

  it('writes commits native git reads: summary lines in git log, clean fsck', () => {
    const store = newStore();
    const file = files.find((f) => basename(f).startsWith('iansherr__claude-code-log__-experiments-ideas'))!;
    expect(ctx(store, ['import', 'claude-code', file, '-b', 'ideas'], { env }).code).toBe(0);
    const subjects = git(store, ['log', '--format=%s', 'ideas']).trimEnd().split('\n');
    const ours = ctx(store, ['log', 'ideas', '--json'], { env }).stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
    expect(subjects).toEqual(ours.map((r) => r.summary || `${r.type}: ${r.message_count} messages`));
    expect(subjects.length).toBe(ours.length);
    expect(git(store, ['log', '-1', '--format=%an <%ae>%n%b', 'ideas'])).toBe(
      `corpus <corpus@ci>\nCtx-Type: ${ours[0].type}\nCtx-Format: claude-code-v1\nCtx-Session: 03eb5929-52b3-4b13-ada3-b93ae35806b8\nCtx-Template: claude-code\n\n`,
    );
    expect(fsck(store)).toEqual({ code: 0, output: '' });
  });
});

describeCorpus('the two engines', () => {
  it('write identical commit ids for every corpus transcript', () => {
    const tips = ENGINES.map((engine) => {
      const { store } = importAll(engine);
      return files.map((_, i) => git(store, ['rev-parse', `corpus/${i}`]).trim());
    });
    expect(tips[0]).toHaveLength(files.length);
    expect(tips[1]).toEqual(tips[0]);
  });
});
