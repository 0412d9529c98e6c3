// Codex CLI rollouts: every corpus file (and the two shapes in fixtures/codex) imports and comes back
// byte for byte on both engines; prompts split turns; `compacted` lines become compaction commits.
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { splitRollout } from '../src/runtimes/codex/split.js';
import { ENGINES, FIXTURES, corpusFiles, ctx, describeCorpus, fsck, git, itCorpus, newStore } from './helpers.js';

const ENV = { CTX_PRINCIPAL: 'corpus', CTX_MACHINE: 'ci', CTX_NOW: '2026-01-02T03:04:05.678Z' };
const LEGACY = join(FIXTURES, 'codex', 'legacy-rollout-2025-08-20T13-20-47-c27a914d-5f3b-4c1e-9a2d-7e8f6b5a4c3d.jsonl');
const COMPACTED = join(FIXTURES, 'codex', 'rollout-2025-11-20T09-00-00-0a1b2c3d-4e5f-7a8b-9c0d-1e2f3a4b5c6d.jsonl');

// [commits, compactions, session]. The corpus counts are the typed prompts (user messages that are
// not <environment_context>/instructions injections): 1, 13 (SOURCES.md: "13 user turns"), 1, 1.
const EXPECTED: Record<string, [number, number, string]> = {
  'AcidicSoil__codex-session-view__rollout-2025-11-17T15-30-28-019a93b9-f380-7600-98ff-940e6b99603c.jsonl': [1, 0, '019a93b9-f380-7600-98ff-940e6b99603c'],
  'jnarowski__agentcmd__rollout-2025-09-24T19-22-20-01997e76-d124-7592-9cac-2ec05abbca08.jsonl': [13, 0, '01997e76-d124-7592-9cac-2ec05abbca08'],
  'jnarowski__agentcmd__rollout-2025-09-25T15-12-14-019982b8-3422-79e0-8b3b-05abaf4f3c3e.jsonl': [1, 0, '019982b8-3422-79e0-8b3b-05abaf4f3c3e'],
  'kvsankar__agent-history__real_sessions-codex-session-01.jsonl': [1, 0, '019e9625-802f-7e91-840a-cfe88d14117a'],
  [basename(LEGACY)]: [2, 0, 'c27a914d-5f3b-4c1e-9a2d-7e8f6b5a4c3d'],
  [basename(COMPACTED)]: [5, 1, '0a1b2c3d-4e5f-7a8b-9c0d-1e2f3a4b5c6d'],
};
const files = [...corpusFiles('codex'), LEGACY, COMPACTED];

describe.each(ENGINES)('codex import with the %s engine', (engine) => {
  const env = { ...ENV, CTX_ENGINE: engine };

  itCorpus('imports every rollout and materializes --stop root byte-identical', () => {
    expect(files.map((f) => basename(f)).sort()).toEqual(Object.keys(EXPECTED).sort());
    const store = newStore();
    for (const file of files) {
      const [commits, compactions, session] = EXPECTED[basename(file)];
      const imported = ctx(store, ['import', 'codex', file], { env });
      expect([imported.code, imported.stderr]).toEqual([0, '']);
      expect(imported.stdout).toMatch(new RegExp(`^codex/${session}\tctx-[0-9a-f]{12}\t${commits} commits\n$`));
      const root = ctx(store, ['materialize', `codex/${session}`, '--stop', 'root', '--verify'], { env });
      expect(root.code).toBe(0);
      expect(root.bytes.equals(readFileSync(file))).toBe(true);
      const log = ctx(store, ['log', `codex/${session}`, '--json'], { env }).stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
      expect(log).toHaveLength(commits);
      expect(log.filter((r) => r.type === 'compaction')).toHaveLength(compactions);
      expect(new Set(log.map((r) => r.format))).toEqual(new Set([file === LEGACY ? 'codex-rollout-v0' : 'codex-rollout-v1']));
    }
    expect(fsck(store)).toEqual({ code: 0, output: '' });
    expect(ctx(store, ['verify', '--all'], { env }).stdout).toMatch(/^ok \d+ commits\n$/);
  });

  it('starts the default materialization at the compacted line', () => {
    const store = newStore();
    expect(ctx(store, ['import', 'codex', COMPACTED, '-b', 'c'], { env }).code).toBe(0);
    const source = readFileSync(COMPACTED);
    const lines = source.toString('utf8').split('\n');
    expect(JSON.parse(lines[14]).type).toBe('compacted');
    const start = Buffer.byteLength(lines.slice(0, 14).join('\n')) + 1;
    const tip = ctx(store, ['materialize', 'c'], { env });
    expect(tip.bytes.equals(source.subarray(start))).toBe(true);
  });
});

describe('splitRollout', () => {
  it('splits the newer shape at prompts, keeping turn openers with their prompt', () => {
    const { sessionId, segments } = splitRollout(new Uint8Array(readFileSync(COMPACTED)));
    expect(sessionId).toBe('0a1b2c3d-4e5f-7a8b-9c0d-1e2f3a4b5c6d');
    expect(segments.map((s) => [s.kind, s.lines, s.messageCount, s.prompt])).toEqual([
      ['delta', 9, 3, 'Add a --done flag to todo list.'],
      ['delta', 5, 1, 'Now write tests for it.'],
      ['compaction', 2, 0, undefined],
      ['delta', 1, 1, undefined],
      ['delta', 3, 2, 'Thanks. Which files changed?'],
    ]);
    expect(segments[2].timestamp).toBe('2025-11-20T09:05:30.001Z');
  });

  it('splits the older shape (bare items after a header line) at prompts', () => {
    const { sessionId, segments } = splitRollout(new Uint8Array(readFileSync(LEGACY)));
    expect(sessionId).toBe('c27a914d-5f3b-4c1e-9a2d-7e8f6b5a4c3d');
    expect(segments.map((s) => [s.kind, s.lines, s.messageCount, s.prompt, s.timestamp])).toEqual([
      ['delta', 12, 3, 'The todo list command prints nothing when todos.txt starts with a blank', '2025-08-20T13:20:47.060Z'],
      ['delta', 6, 2, 'Fix it.', undefined],
    ]);
  });

  itCorpus('takes the request of an IDE-extension prompt as its summary, and tiles every corpus file', () => {
    for (const file of corpusFiles('codex')) {
      const input = new Uint8Array(readFileSync(file));
      const { segments } = splitRollout(input);
      let at = 0;
      for (const s of segments) {
        expect(s.start).toBe(at);
        at = s.end;
      }
      expect(at).toBe(input.length);
    }
    const ide = corpusFiles('codex').find((f) => basename(f).includes('2025-09-24'))!;
    const prompts = splitRollout(new Uint8Array(readFileSync(ide))).segments.map((s) => s.prompt);
    expect(prompts.every((p) => p && !p.startsWith('# Context from my IDE setup'))).toBe(true);
  });
});

describeCorpus('the two engines', () => {
  it('write identical commit ids for every rollout', () => {
    const tips = ENGINES.map((engine) => {
      const store = newStore();
      return files.map((file, i) => {
        expect(ctx(store, ['import', 'codex', file, '-b', `c/${i}`], { env: { ...ENV, CTX_ENGINE: engine } }).code).toBe(0);
        return git(store, ['rev-parse', `c/${i}`]).trim();
      });
    });
    expect(tips[1]).toEqual(tips[0]);
  });
});
