// `ctx import RUNTIME FILE|DIR` again and again: a grown transcript appends, the same one writes
// nothing, a subagent transcript forks from the commit that spawned it, a directory imports every
// session in it and reports each file.
import { copyFileSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CORPUS, FIXTURES, ctx, describeCorpus, git, newStore, objectCount, refSnapshot, tempDir } from './helpers.js';

const ENV = { CTX_PRINCIPAL: 'alice', CTX_MACHINE: 'box', CTX_NOW: '2026-01-02T03:04:05.678Z' };
const RANDLEE_ID = '967e501d-aa48-4eab-a21f-b17058bd78f0';
const AGENTS = ['aae161c', 'acompact-a94287', 'aprompt_suggestion-aafb27'];
const corpus = (name: string) => join(CORPUS, 'claude-code', name);
const agentFile = (a: string) => corpus(`randlee__claude-history__simple-967e501d-subagents-agent-${a}.jsonl`);
const COMPACTED = join(FIXTURES, 'claude-code', 'compacted-session.jsonl');
const jsonLines = (s: string) => s.split('\n').filter(Boolean).map((l) => JSON.parse(l));

/** A Claude Code project directory as it is on disk: the session, its subagents under <session>/subagents/. */
function project(): string {
  const dir = join(tempDir(), '-Users-randlee-Documents-github-claude-history');
  mkdirSync(join(dir, RANDLEE_ID, 'subagents'), { recursive: true });
  copyFileSync(corpus('randlee__claude-history__simple-967e501d-session.jsonl'), join(dir, `${RANDLEE_ID}.jsonl`));
  for (const a of AGENTS) copyFileSync(agentFile(a), join(dir, RANDLEE_ID, 'subagents', `agent-${a}.jsonl`));
  return dir;
}

/** The agent's branch is the main chain up to the commit that spawned it, then every byte of its own file. */
function expectForkedAtSpawn(store: string, branch: string, agent: string) {
  const bytes = readFileSync(agentFile(agent));
  const whole = ctx(store, ['materialize', branch, '--stop', 'root'], { env: ENV }).bytes;
  expect(whole.subarray(whole.length - bytes.length).equals(bytes)).toBe(true);
  const spawn = git(store, ['merge-base', branch, `claude/${RANDLEE_ID}`]).trim();
  expect(whole.subarray(0, whole.length - bytes.length).equals(ctx(store, ['materialize', spawn, '--stop', 'root'], { env: ENV }).bytes)).toBe(true);
  return spawn;
}

describe('ctx import claude-code FILE, again', () => {
  it('a grown transcript appends only its new bytes; the same file again writes nothing; a changed one is refused', () => {
    const store = newStore();
    const dir = tempDir();
    const file = join(dir, 'compacted-session.jsonl');
    const bytes = readFileSync(COMPACTED);
    const half = bytes.indexOf(0x0a, bytes.length >> 1) + 1;
    writeFileSync(file, bytes.subarray(0, half));
    const first = JSON.parse(ctx(store, ['import', 'claude-code', file, '--json'], { env: ENV }).stdout);
    expect(first.commits).toBeGreaterThan(0);

    writeFileSync(file, bytes);
    const grown = ctx(store, ['import', 'claude-code', file, '--json'], { env: ENV });
    expect(grown.code).toBe(0);
    const second = JSON.parse(grown.stdout);
    expect(second.branch).toBe(first.branch);
    expect(second.commits).toBeGreaterThan(0);
    expect(git(store, ['rev-list', '--count', `${first.id.slice(4)}..${second.id.slice(4)}`]).trim()).toBe(String(second.commits));
    expect(ctx(store, ['materialize', first.branch, '--stop', 'root'], { env: ENV }).bytes.equals(bytes)).toBe(true);

    const refs = refSnapshot(store);
    const objects = objectCount(store);
    const same = ctx(store, ['import', 'claude-code', file, '--json'], { env: ENV });
    expect(same.code).toBe(0);
    expect(JSON.parse(same.stdout)).toMatchObject({ branch: first.branch, commits: 0, id: second.id });
    expect(same.stderr).toBe(`${first.branch} already holds this chat: nothing written\n`);

    writeFileSync(file, Buffer.concat([Buffer.from('{"type":"user","message":{"role":"user","content":"rewritten"}}\n'), bytes]));
    const changed = ctx(store, ['import', 'claude-code', file], { env: ENV });
    expect([changed.code, changed.stdout, changed.stderr]).toEqual([1, '', `ctx: ${file} is not an extension of ${first.branch}: the transcript changed\n`]);
    expect(refSnapshot(store)).toBe(refs);
    expect(objectCount(store)).toBe(objects);
  });

  it('an exported session that was resumed: importing it adds the new turns on claude/<new id>, forked from the exported commit', () => {
    const store = newStore();
    const imp = JSON.parse(ctx(store, ['import', 'claude-code', COMPACTED, '--json'], { env: ENV }).stdout);
    const dir = tempDir();
    const NEW = '0b5c2f7e-1d2a-4e8b-9c3f-5a6b7c8d9e0f';
    const exp = JSON.parse(ctx(store, ['export', 'claude-code', imp.branch, '--dir', dir, '--session-id', NEW, '--json'], { env: ENV }).stdout);
    expect(exp.branch).toBe(`claude/${NEW}`);
    const turn = `${JSON.stringify({ type: 'user', message: { role: 'user', content: 'go on' }, uuid: 'n1', sessionId: NEW, timestamp: '2026-01-03T00:00:00.000Z' })}\n`;
    writeFileSync(exp.path, turn, { flag: 'a' });
    const r = JSON.parse(ctx(store, ['import', 'claude-code', exp.path, '--json'], { env: ENV }).stdout);
    expect(r).toMatchObject({ branch: `claude/${NEW}`, commits: 1 });
    expect(git(store, ['rev-parse', `${r.id.slice(4)}^`]).trim()).toBe(imp.id.slice(4));
    expect(git(store, ['cat-file', 'blob', `${r.id.slice(4)}:delta.jsonl`])).toBe(turn);
    expect(JSON.parse(ctx(store, ['import', 'claude-code', exp.path, '--json'], { env: ENV }).stdout)).toMatchObject({ commits: 0, id: r.id });
  });

  it('a branch that holds another file is still refused', () => {
    const store = newStore();
    expect(ctx(store, ['checkpoint', '-b', 'main', '--format', 'claude-code-v1', '-'], { env: ENV, input: '{"type":"user"}\n' }).code).toBe(0);
    expect(ctx(store, ['import', 'claude-code', COMPACTED, '-b', 'main'], { env: ENV })).toMatchObject({ code: 1, stderr: 'ctx: branch main already exists\n' });
  });
});

describeCorpus('ctx import claude-code of subagent transcripts', () => {
  it('forks each from the commit that spawned it, with -b too (not an unrelated root)', () => {
    const store = newStore();
    const dir = project();
    expect(ctx(store, ['import', 'claude-code', join(dir, `${RANDLEE_ID}.jsonl`)], { env: ENV }).code).toBe(0);
    const agent = join(dir, RANDLEE_ID, 'subagents', 'agent-aae161c.jsonl');
    const r = ctx(store, ['import', 'claude-code', agent], { env: ENV });
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.stdout).toMatch(new RegExp(`^claude/${RANDLEE_ID}\\.agent-aae161c\\tctx-[0-9a-f]{12}\\t\\d+ commits\\n$`));
    const spawn = expectForkedAtSpawn(store, `claude/${RANDLEE_ID}.agent-aae161c`, 'aae161c');
    // started by a Task tool_use: the spawn commit holds that assistant line
    const main = readFileSync(join(dir, `${RANDLEE_ID}.jsonl`), 'utf8');
    const spawner = JSON.parse(main.split('\n').find((l) => l.includes('"agentId":"aae161c"') && l.includes('toolUseResult'))!).sourceToolAssistantUUID;
    expect(git(store, ['show', `${spawn}:delta.jsonl`])).toContain(`"uuid":"${spawner}"`);

    expect(ctx(store, ['import', 'claude-code', agent, '-b', 'review/agent'], { env: ENV }).code).toBe(0);
    expect(expectForkedAtSpawn(store, 'review/agent', 'aae161c')).toBe(spawn);
    // under another name, a subagent transcript is known by its first line (a sidechain naming its agent)
    expect(ctx(store, ['import', 'claude-code', agentFile('aae161c'), '-b', 'review/renamed'], { env: ENV }).code).toBe(0);
    expect(expectForkedAtSpawn(store, 'review/renamed', 'aae161c')).toBe(spawn);
  }, 60_000);
});

describeCorpus('ctx import RUNTIME DIR', () => {
  it('imports every session file in it, sorted, subagents after their session; reports each; again: every file unchanged', () => {
    const store = newStore();
    const dir = project();
    writeFileSync(join(dir, 'notes.txt'), 'not a session\n');
    writeFileSync(join(dir, 'broken.jsonl'), '{not json\n');
    // a link to a transcript outside the directory is not followed
    const outside = join(tempDir(), 'outside.jsonl');
    copyFileSync(COMPACTED, outside);
    symlinkSync(outside, join(dir, 'outside.jsonl'));

    const r = ctx(store, ['import', 'claude-code', dir], { env: ENV });
    expect(r.code).toBe(1);
    const rows = r.stdout.split('\n').filter(Boolean).map((l) => l.split('\t'));
    const files = [`${RANDLEE_ID}.jsonl`, ...AGENTS.map((a) => `${RANDLEE_ID}/subagents/agent-${a}.jsonl`)].map((f) => join(dir, f));
    expect(rows.map((row) => [row[0], row[1]])).toEqual([[files[0], `claude/${RANDLEE_ID}`], ...AGENTS.map((a, i) => [files[i + 1], `claude/${RANDLEE_ID}.agent-${a}`])]);
    for (const row of rows) expect(row[3]).toMatch(/^\d+ commits$/);
    expect(r.stderr).toBe(`${join(dir, 'broken.jsonl')}: not a Claude Code transcript (line 1 is not JSON)\nctx: 1 of 5 files not imported\n`);
    for (const a of AGENTS) expectForkedAtSpawn(store, `claude/${RANDLEE_ID}.agent-${a}`, a);
    expect(git(store, ['for-each-ref', '--format=%(refname:short)', 'refs/heads/']).split('\n').filter(Boolean)).toHaveLength(4);

    const refs = refSnapshot(store);
    const again = ctx(store, ['import', 'claude-code', dir, '--json'], { env: ENV });
    expect(again.code).toBe(1);
    const records = jsonLines(again.stdout);
    expect(records.map((x) => x.file)).toEqual([files[0], join(dir, 'broken.jsonl'), ...files.slice(1)]);
    expect(records[1]).toEqual({ v: 1, file: join(dir, 'broken.jsonl'), error: 'UsageError', message: 'not a Claude Code transcript (line 1 is not JSON)', exit: 2 });
    for (const x of [records[0], ...records.slice(2)]) expect(x).toMatchObject({ v: 1, commits: 0, unchanged: true });
    expect(Object.keys(records[0]).sort()).toEqual(['branch', 'bytes', 'commits', 'file', 'id', 'session', 'unchanged', 'v']);
    const third = ctx(store, ['import', 'claude-code', dir], { env: ENV });
    expect(third.stdout.split('\n').filter(Boolean).map((l) => l.split('\t').slice(1, 2).concat(l.split('\t')[3]))).toEqual(rows.map((row) => [row[1], 'unchanged']));
    expect(refSnapshot(store)).toBe(refs);
  }, 60_000);

});

describe('ctx import RUNTIME DIR: the runtime\'s own files, refused or empty', () => {
  it('takes only the file names the runtime imports (codex: rollout-*.jsonl)', () => {
    const store = newStore();
    const dir = join(FIXTURES, 'codex');
    const r = ctx(store, ['import', 'codex', dir, '--json'], { env: ENV });
    expect([r.code, r.stderr]).toEqual([0, '']);
    // not legacy-rollout-*.jsonl: sorted, the rollouts only
    expect(jsonLines(r.stdout).map((x) => [x.file, x.branch])).toEqual([
      [join(dir, 'rollout-2025-11-20T09-00-00-0a1b2c3d-4e5f-7a8b-9c0d-1e2f3a4b5c6d.jsonl'), 'codex/0a1b2c3d-4e5f-7a8b-9c0d-1e2f3a4b5c6d'],
      [join(dir, 'rollout-2026-03-01T10-00-00-01a21dd1-845b-7400-9ae0-912b49e4f6bb.jsonl'), 'codex/01a21dd1-845b-7400-9ae0-912b49e4f6bb'],
      [join(dir, 'rollout-2026-11-22T21-04-49-01a20513-6ef2-75e0-a186-7b61e34882c3.jsonl'), 'codex/01a20513-6ef2-75e0-a186-7b61e34882c3'],
    ]);
  });

  it('a directory with no session file in it: says so, exit 0, nothing written', () => {
    const store = newStore();
    const dir = tempDir();
    writeFileSync(join(dir, 'notes.txt'), 'x\n');
    const refs = refSnapshot(store);
    expect(ctx(store, ['import', 'codex', dir], { env: ENV })).toMatchObject({ code: 0, stdout: '', stderr: `${dir}: no session file in it\n` });
    expect(refSnapshot(store)).toBe(refs);
  });

  it('refuses -b with a directory (one branch cannot hold many sessions), writing nothing', () => {
    const store = newStore();
    const dir = tempDir();
    copyFileSync(COMPACTED, join(dir, 'a.jsonl'));
    const refs = refSnapshot(store);
    expect(ctx(store, ['import', 'claude-code', dir, '-b', 'x'], { env: ENV })).toMatchObject({ code: 2, stdout: '', stderr: 'ctx: -b names one branch: give a file, not a directory\n' });
    expect(refSnapshot(store)).toBe(refs);
  });
});
