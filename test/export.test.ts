// `ctx export claude-code ID` and `ctx export codex ID`: a resumable session where the runtime looks for it.
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CORPUS, FIXTURES, ctx, describeCorpus, newStore, tempDir } from './helpers.js';

const RANDLEE = join(CORPUS, 'claude-code', 'randlee__claude-history__simple-967e501d-session.jsonl');
const OLD = '967e501d-aa48-4eab-a21f-b17058bd78f0';
const NEW = '0b5c2f7e-1d2a-4e8b-9c3f-5a6b7c8d9e0f';

/** Lines as values, with the fields export changes taken out. */
const messages = (text: string) =>
  text.split('\n').filter(Boolean).map((l) => {
    const { sessionId: _s, forkedFrom: _f, ...rest } = JSON.parse(l);
    return rest;
  });

describeCorpus('ctx export claude-code', () => {
  it('writes <config>/projects/<encoded cwd>/<uuid>.jsonl and prints the resume command; re-import gives the same messages', () => {
    const store = newStore();
    expect(ctx(store, ['import', 'claude-code', RANDLEE]).code).toBe(0);
    const config = join(tempDir(), 'cc');
    const r = ctx(store, ['export', 'claude-code', `claude/${OLD}~2`, '--session-id', NEW, '--stop', 'root'], { env: { CLAUDE_CONFIG_DIR: config } });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`claude --resume ${NEW}\n`);
    const cwd = JSON.parse(readFileSync(RANDLEE, 'utf8').split('\n')[0]).cwd ?? '/Users/randlee/Documents/github/claude-history';
    const dir = join(config, 'projects', cwd.replace(/[^A-Za-z0-9]/g, '-'));
    expect(readdirSync(dir)).toEqual([`${NEW}.jsonl`]);
    const written = readFileSync(join(dir, `${NEW}.jsonl`), 'utf8');
    const expected = ctx(store, ['materialize', `claude/${OLD}~2`, '--stop', 'root']).stdout;
    expect(messages(written)).toEqual(messages(expected));
    const tip = ctx(store, ['show', `claude/${OLD}~2`, '--json']);
    const id = JSON.parse(tip.stdout).id;
    for (const line of written.split('\n').filter(Boolean).map((l) => JSON.parse(l))) {
      if (!('sessionId' in line)) continue;
      expect(line.sessionId).toBe(NEW);
      expect(line.forkedFrom).toEqual({ sessionId: OLD, ...(line.uuid ? { messageUuid: line.uuid } : {}), commit: id });
    }
    // and back: the exported session imports as a chain with the same messages
    const again = newStore();
    expect(ctx(again, ['import', 'claude-code', join(dir, `${NEW}.jsonl`)]).code).toBe(0);
    const back = ctx(again, ['materialize', `claude/${NEW}`, '--stop', 'root']).stdout;
    expect(back).toBe(written);
    expect(messages(back)).toEqual(messages(expected));
  });

  it('defaults: the context from the nearest compaction, a random uuid, ~/.claude; --json, --dir, --stdout', () => {
    const store = newStore();
    expect(ctx(store, ['import', 'claude-code', RANDLEE]).code).toBe(0);
    const home = tempDir();
    const j = ctx(store, ['--json', 'export', 'claude-code', `claude/${OLD}`], { env: { HOME: home, CLAUDE_CONFIG_DIR: undefined } });
    expect(j.code).toBe(0);
    const rec = JSON.parse(j.stdout);
    expect(Object.keys(rec)).toEqual(['v', 'session_id', 'path', 'command', 'branch']);
    expect(rec.branch).toBe(`claude/${rec.session_id}`);
    expect(rec.session_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(rec.path.startsWith(join(home, '.claude', 'projects', '-Users-randlee-'))).toBe(true);
    expect(rec.command).toBe(`claude --resume ${rec.session_id}`);
    const first = JSON.parse(readFileSync(rec.path, 'utf8').split('\n')[0]);
    expect(first.subtype).toBe('compact_boundary');

    const dir = tempDir();
    const d = ctx(store, ['export', 'claude-code', `claude/${OLD}`, '--dir', dir, '--session-id', NEW]);
    expect(d.stdout).toBe(`claude --resume ${NEW}\n`);
    expect(readdirSync(dir)).toEqual([`${NEW}.jsonl`]);
    // an existing session is never overwritten
    expect(ctx(store, ['export', 'claude-code', `claude/${OLD}`, '--dir', dir, '--session-id', NEW]).code).toBe(1);
    const s = ctx(store, ['export', 'claude-code', `claude/${OLD}`, '--stdout', '--session-id', NEW]);
    expect(s.stdout).toBe(readFileSync(join(dir, `${NEW}.jsonl`), 'utf8'));
    expect(ctx(store, ['export', 'claude-code', `claude/${OLD}`, '--session-id', 'nope']).code).toBe(2);
  });
});

describe('ctx export claude-code of a compaction that keeps messages', () => {
  it('a compaction at the root keeps nothing it could find: exported as it is', () => {
    const store = newStore();
    const boundary = '{"type":"system","subtype":"compact_boundary","uuid":"b","sessionId":"s","cwd":"/w","compactMetadata":{"preservedMessages":{"anchorUuid":"c","uuids":["x"]}}}\n';
    const summary = '{"type":"user","isCompactSummary":true,"uuid":"c","sessionId":"s","message":{"role":"user","content":"summary"}}\n';
    expect(ctx(store, ['checkpoint', '-b', 'm', '--format', 'claude-code-v1', '--type', 'compaction', '-'], { input: boundary + summary }).code).toBe(0);
    const r = ctx(store, ['export', 'claude-code', 'm', '--stdout', '--session-id', '0b5c2f7e-1d2a-4e8b-9c3f-5a6b7c8d9e0f']);
    expect([r.code, r.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l).uuid)]).toEqual([0, ['b', 'c']]);
  });
});

describe('ctx export codex', () => {
  it("a thread cleared (or compacted) by ctx keeps the thread's model_provider and cwd, from its root's session_meta", () => {
    const store = newStore();
    const rollout = join(tempDir(), 'rollout-2025-11-20T09-00-00-0a1b2c3d-4e5f-7a8b-9c0d-1e2f3a4b5c6d.jsonl');
    const fixture = readFileSync(join(FIXTURES, 'codex', 'rollout-2025-11-20T09-00-00-0a1b2c3d-4e5f-7a8b-9c0d-1e2f3a4b5c6d.jsonl'), 'utf8');
    writeFileSync(rollout, fixture.replace('"model_provider":"openai"', '"model_provider":"mock"'));
    expect(ctx(store, ['import', 'codex', rollout, '-b', 'cx']).code).toBe(0);
    expect(ctx(store, ['clear', 'cx']).code).toBe(0);
    const r = ctx(store, ['export', 'codex', 'cx', '--stdout', '--session-id', '01a20546-bd0c-7ee1-9b87-1fc865c7fa9a'], { env: { CODEX_HOME: join(tempDir(), 'codex') } });
    expect(r.code).toBe(0);
    const meta = JSON.parse(r.stdout.split('\n')[0]);
    expect(meta.payload).toMatchObject({ id: '01a20546-bd0c-7ee1-9b87-1fc865c7fa9a', model_provider: 'mock', cwd: '/home/alice/todo' });
  });
});
