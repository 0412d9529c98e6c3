// ctx clear, save, sessions, restore: a clear starts an empty window without deleting anything, a save
// is an annotated tag that travels with push and fetch, a restore puts a saved context back on top of a
// branch (its previous tip stays in the chain).
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CORPUS, CTX, FIXED_ENV, FIXTURES, corpusBytes, ctx, describeCorpus, fsck, git, newStore, objectCount, refSnapshot, tempDir, type Run } from './helpers.js';
import { gitServerFixture } from './git-http-server.js';

const CLAUDE = join(FIXTURES, 'claude-code', 'compacted-session.jsonl');
const CODEX = join(FIXTURES, 'codex', 'rollout-2025-11-20T09-00-00-0a1b2c3d-4e5f-7a8b-9c0d-1e2f3a4b5c6d.jsonl');
const GEMINI = join(FIXTURES, 'gemini-cli', 'session-2026-01-10T09-00-aaaa1111.jsonl');
const env = FIXED_ENV;

function ok(r: Run): Run {
  if (r.code !== 0) throw new Error(`exit ${r.code}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`);
  return r;
}
const run = (store: string, args: string[], input?: string) => ok(ctx(store, args, { env, input }));
const json = (store: string, args: string[]) => JSON.parse(run(store, [...args, '--json']).stdout);
const jsonLines = (store: string, args: string[]) =>
  run(store, [...args, '--json'])
    .stdout.split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
const bytes = (store: string, args: string[]) => run(store, ['materialize', ...args]).bytes;
const line = (o: unknown) => `${JSON.stringify(o)}\n`;

/** A store with the Claude Code fixture imported on `agent` (5 commits, one of them Claude Code's own compaction). */
function claudeStore(): string {
  const store = newStore();
  run(store, ['import', 'claude-code', CLAUDE, '-b', 'agent']);
  return store;
}

describe('ctx clear', () => {
  it('adds an empty compaction: materialize starts empty after it, --stop root still gives every byte', () => {
    const store = claudeStore();
    const tip = json(store, ['show', 'agent']).id;
    const cleared = json(store, ['clear', 'agent']);
    expect(cleared).toEqual({
      v: 1,
      id: 'ctx-8b2e65cbbd80c8771d4b978fbb3431e3696c14b7',
      branch: 'agent',
      parent: tip,
      format: 'claude-code-v1',
      cleared: [json(store, ['show', 'agent~3']).id, json(store, ['show', 'agent~2']).id, tip],
      caught_up: [],
      messages_before: 4,
      tokens_before: 160,
    });
    expect(Object.keys(cleared)).toEqual(['v', 'id', 'branch', 'parent', 'format', 'cleared', 'caught_up', 'messages_before', 'tokens_before']);
    const shown = json(store, ['show', 'agent']);
    expect(shown.meta).toMatchObject({ type: 'compaction', message_count: 0, token_count: 0, summary: 'cleared 4 messages', checkpoint: 'compaction' });
    expect(shown.meta.source).toEqual({ kind: 'ctx-compact', messages_before: 4, of: tip, policy: 'clear', tokens_before: 160 });
    // Claude Code's own empty compaction: the boundary line alone, no summary, no kept line
    const empty = bytes(store, ['agent']);
    expect(empty.toString().split('\n')).toHaveLength(2);
    expect(JSON.parse(empty.toString())).toMatchObject({ type: 'system', subtype: 'compact_boundary', parentUuid: null, timestamp: FIXED_ENV.CTX_NOW, compactMetadata: { trigger: 'manual', preTokens: 160 } });
    expect(bytes(store, ['agent', '--stop', 'root'])).toEqual(readFileSync(CLAUDE));
    // what comes after the clear materializes alone
    const next = line({ type: 'user', message: { role: 'user', content: 'new task' }, uuid: 'n1' });
    run(store, ['checkpoint', '-b', 'agent', '--format', 'claude-code-v1', '-'], next);
    expect(bytes(store, ['agent']).toString()).toBe(empty.toString() + next);
    expect(bytes(store, ['agent', '--stop', 'root']).toString()).toBe(readFileSync(CLAUDE, 'utf8') + next);
    expect(bytes(store, ['agent', '--format', 'openai-chat-v1']).toString()).toBe('[\n{"role":"user","content":"new task"}\n]\n');
    // a second clear is the one that counts
    run(store, ['clear', 'agent']);
    expect(bytes(store, ['agent', '--format', 'openai-chat-v1']).toString()).toBe('[]\n');
    expect(fsck(store).code).toBe(0);
    expect(run(store, ['verify', '--all']).stdout).toBe('ok 8 commits\n');
  });

  it.each([
    ['openai-chat-v1', '[{"role":"user","content":"hi"},{"role":"assistant","content":"yo"}]', '[\n{"role":"user","content":"next"}\n]\n', Buffer.from('[]\n')],
    ['bureau-agent-v1', null, null, Buffer.from([0x80])],
  ])('gives the empty document of %s, then only what follows', (format, first, after, empty) => {
    const store = newStore();
    const cbor = (msgs: { role: string; content: string }[]) => Buffer.concat([Buffer.from([0x80 + msgs.length]), ...msgs.map((m) => Buffer.concat([Buffer.from([0xb9, 0, 2, 0x64]), Buffer.from('role'), Buffer.from([0x60 + m.role.length]), Buffer.from(m.role), Buffer.from([0x67]), Buffer.from('content'), Buffer.from([0x60 + m.content.length]), Buffer.from(m.content)]))]);
    const input = (s: string | null, msgs: { role: string; content: string }[]) => (s === null ? cbor(msgs) : Buffer.from(s));
    ok(ctx(store, ['checkpoint', '-b', 'a', '--format', format, '-'], { env, input: input(first, [{ role: 'user', content: 'hi' }, { role: 'assistant', content: 'yo' }]) }));
    run(store, ['clear', 'a']);
    expect(bytes(store, ['a'])).toEqual(empty);
    ok(ctx(store, ['checkpoint', '-b', 'a', '--format', format, '-'], { env, input: input(after, [{ role: 'user', content: 'next' }]) }));
    expect(bytes(store, ['a', '--format', 'openai-chat-v1']).toString()).toBe('[\n{"role":"user","content":"next"}\n]\n');
    expect(bytes(store, ['a', '--format', 'openai-chat-v1', '--stop', 'root']).toString()).toBe('[\n{"role":"user","content":"hi"},\n{"role":"assistant","content":"yo"},\n{"role":"user","content":"next"}\n]\n');
  });

  it('on a Codex chain, writes the empty compaction ctx compact writes there (codex-rollout-v1: a session_meta alone); what follows reads after it; --stop root reads the rollout back', () => {
    const store = newStore();
    run(store, ['import', 'codex', CODEX, '-b', 'cx']);
    expect(json(store, ['clear', 'cx']).format).toBe('codex-rollout-v1');
    const empty = '{"timestamp":"1970-01-01T00:00:00.000Z","type":"session_meta","payload":{"id":"","timestamp":"1970-01-01T00:00:00.000Z","cwd":"","originator":"ctx","cli_version":"","source":"exec","model_provider":""}}\n';
    expect(bytes(store, ['cx']).toString()).toBe(empty);
    expect(bytes(store, ['cx', '--stop', 'root'])).toEqual(readFileSync(CODEX));
    const next = readFileSync(CODEX, 'utf8').trimEnd().split('\n').pop()! + '\n';
    expect(ctx(store, ['checkpoint', '-b', 'cx', '--format', 'codex-rollout-v1', '-'], { env, input: next }).code).toBe(0);
    expect(bytes(store, ['cx']).toString()).toBe(empty + next);
  });

  it('on a Gemini CLI chain, a $set of no messages, as Gemini CLI writes a compression: the lines before it replay to nothing', () => {
    const store = newStore();
    run(store, ['import', 'gemini-cli', GEMINI, '-b', 'gm']);
    expect(json(store, ['clear', 'gm']).format).toBe('gemini-cli-jsonl-v1');
    expect(bytes(store, ['gm']).toString()).toBe('{"$set":{"messages":[]}}\n');
    // a root walk skips ctx's own compactions: the session as Gemini CLI wrote it
    expect(bytes(store, ['gm', '--stop', 'root'])).toEqual(readFileSync(GEMINI));
    const next = '{"id":"u9","timestamp":"2026-01-10T09:01:00.000Z","type":"user","content":"again"}\n';
    expect(ctx(store, ['checkpoint', '-b', 'gm', '--format', 'gemini-cli-jsonl-v1', '-'], { env, input: next }).code).toBe(0);
    expect(bytes(store, ['gm', '--format', 'openai-chat-v1']).toString()).toBe('[\n{"role":"user","content":"again"}\n]\n');
  });

  it('refuses an unknown branch (exit 4) and writes nothing', () => {
    const store = claudeStore();
    const before = [refSnapshot(store), objectCount(store)];
    const r = ctx(store, ['clear', 'nope'], { env });
    expect([r.code, r.stdout, r.stderr]).toEqual([4, '', 'ctx: no branch nope\n']);
    expect([refSnapshot(store), objectCount(store)]).toEqual(before);
  });
});

describe('ctx save, sessions, restore', () => {
  it('saves an annotated tag that native git reads, lists saves newest first, and restores one on top of the branch', () => {
    const store = claudeStore();
    const tip = json(store, ['show', 'agent']).id;
    const saved = json(store, ['save', 'agent', '-m', 'auth refactor, before the migration']);
    expect(saved).toEqual({
      v: 1,
      name: 'save/agent/20260102-030405',
      id: tip,
      branch: 'agent',
      saved_at: FIXED_ENV.CTX_NOW,
      by: 'alice',
      description: 'auth refactor, before the migration',
      summary: 'Thanks. Which files did you change?',
      message_count: 4,
      token_count: 160,
      format: 'claude-code-v1',
      window: { since: null, stop: 'compaction', from: json(store, ['show', 'agent~2']).id, commits: 3 },
    });
    expect(Object.keys(saved)).toEqual(['v', 'name', 'id', 'branch', 'saved_at', 'by', 'description', 'summary', 'message_count', 'token_count', 'format', 'window']);
    expect(Object.keys(saved.window)).toEqual(['since', 'stop', 'from', 'commits']);
    expect(git(store, ['cat-file', '-p', 'refs/tags/save/agent/20260102-030405'])).toBe(
      `object ${tip.slice(4)}\ntype commit\ntag save/agent/20260102-030405\ntagger alice <alice@box> 1767323045 +0000\n\nauth refactor, before the migration\n\n` +
        `Ctx-Save: {"branch":"agent","format":"claude-code-v1","message_count":4,"saved_at":"2026-01-02T03:04:05.678Z","summary":"Thanks. Which files did you change?","token_count":160,"v":1,"window":{"commits":3,"from":"${saved.window.from}","since":null,"stop":"compaction"}}\n`,
    );
    expect(git(store, ['tag', '-l', '-n1'])).toBe('save/agent/20260102-030405 auth refactor, before the migration\n');
    // a save of the same second gets its own name; a later one is listed first
    expect(run(store, ['save', 'agent', '-m', 'again']).stdout).toBe('save/agent/20260102-030405-2\n');
    ok(ctx(store, ['save', 'agent', '-m', 'everything', '--name', 'all', '--stop', 'root', '--summary', 'the whole session'], { env: { ...env, CTX_NOW: '2026-01-03T00:00:00.000Z' } }));
    expect(run(store, ['sessions']).stdout).toBe(
      `all\t${tip.slice(0, 16)}\t2026-01-03T00:00:00.000Z\tagent\t11\teverything\n` +
        `save/agent/20260102-030405\t${tip.slice(0, 16)}\t2026-01-02T03:04:05.678Z\tagent\t4\tauth refactor, before the migration\n` +
        `save/agent/20260102-030405-2\t${tip.slice(0, 16)}\t2026-01-02T03:04:05.678Z\tagent\t4\tagain\n`,
    );
    const listed = jsonLines(store, ['sessions']);
    expect(listed.map((s) => [s.name, s.message_count, s.window.stop, s.summary])).toEqual([
      ['all', 11, 'root', 'the whole session'],
      ['save/agent/20260102-030405', 4, 'compaction', 'Thanks. Which files did you change?'],
      ['save/agent/20260102-030405-2', 4, 'compaction', 'Thanks. Which files did you change?'],
    ]);
    expect(listed[1]).toEqual(saved);
    // a person at a terminal gets a table
    const tty = spawnSync('script', ['-qec', `node ${CTX} sessions --color never`, '/dev/null'], { env: { PATH: process.env.PATH!, TERM: 'xterm', CTX_STORE: store }, encoding: 'utf8' });
    expect(tty.stdout.replace(/\r\n/g, '\n')).toBe(
      'NAME                          COMMIT            SAVED             BRANCH  MESSAGES  DESCRIPTION\n' +
        `all                           ${tip.slice(0, 16)}  2026-01-03 00:00  agent   11        everything\n` +
        `save/agent/20260102-030405    ${tip.slice(0, 16)}  2026-01-02 03:04  agent   4         auth refactor, before the migration\n` +
        `save/agent/20260102-030405-2  ${tip.slice(0, 16)}  2026-01-02 03:04  agent   4         again\n`,
    );
    // a plain tag is no save: not listed, not restored
    git(store, ['tag', 'plain', tip.slice(4)]);
    expect(jsonLines(store, ['sessions'])).toHaveLength(3);
    const notSave = ctx(store, ['restore', 'plain'], { env });
    expect([notSave.code, notSave.stderr]).toEqual([4, 'ctx: plain is a tag, not a saved session\n']);

    // the branch moves on: a clear and a new message
    run(store, ['clear', 'agent']);
    const next = line({ type: 'user', message: { role: 'user', content: 'new task' }, uuid: 'n1' });
    run(store, ['checkpoint', '-b', 'agent', '--format', 'claude-code-v1', '-'], next);
    const before = json(store, ['show', 'agent']).id;
    const restored = json(store, ['restore', 'save/agent/20260102-030405']);
    expect(Object.keys(restored)).toEqual(['v', 'name', 'id', 'branch', 'parent', 'saved', 'format', 'message_count']);
    expect(restored).toEqual({ v: 1, name: 'save/agent/20260102-030405', id: restored.id, branch: 'agent', parent: before, saved: tip, format: 'claude-code-v1', message_count: 4 });
    expect(bytes(store, ['agent'])).toEqual(bytes(store, [tip]));
    expect(bytes(store, ['agent', '--stop', 'root']).toString()).toBe(readFileSync(CLAUDE, 'utf8') + next);
    expect(json(store, ['show', 'agent']).meta.source).toEqual({ kind: 'ctx-compact', of: before, policy: 'restore', save: 'save/agent/20260102-030405', saved: tip });
    expect(json(store, ['show', 'agent~1']).id).toBe(before);
    // the root save restored onto a new branch: every byte of the session
    expect(json(store, ['restore', 'all', '-b', 'replay']).parent).toBe(null);
    expect(bytes(store, ['replay'])).toEqual(readFileSync(CLAUDE));
    expect(fsck(store).code).toBe(0);
    expect(run(store, ['verify', '--all']).stdout).toMatch(/^ok \d+ commits\n$/);
  });

  it('refuses an unknown save (exit 4), a taken name (exit 3), a bad name and a missing -m (exit 2), writing nothing', () => {
    const store = claudeStore();
    run(store, ['save', 'agent', '-m', 'first', '--name', 'keep']);
    const before = [refSnapshot(store), objectCount(store)];
    const cases: [string[], number, string][] = [
      [['restore', 'nope'], 4, 'ctx: no saved session nope: ctx sessions lists them\n'],
      [['save', 'agent', '-m', 'second', '--name', 'keep'], 3, `ctx: saved session keep already exists (at ${json(store, ['show', 'agent']).id.slice(0, 16)})\n`],
      [['save', 'agent', '-m', 'x', '--name', 'bad..name'], 2, "ctx: bad save name 'bad..name': contains \"..\"\n"],
      [['save', 'nope', '-m', 'x'], 4, 'ctx: no branch nope\n'],
      [['restore', 'keep', '-b', 'a b'], 2, "ctx: bad branch name 'a b': contains a space, control character or one of ~^:?*[\\\n"],
    ];
    for (const [args, code, stderr] of cases) {
      const r = ctx(store, args, { env });
      expect([args, r.code, r.stdout, r.stderr]).toEqual([args, code, '', stderr]);
    }
    const noMessage = ctx(store, ['save', 'agent'], { env });
    expect([noMessage.code, noMessage.stdout]).toEqual([2, '']);
    expect(noMessage.stderr).toContain("required option '-m, --message <text>' not specified");
    expect([refSnapshot(store), objectCount(store)]).toEqual(before);
  });

  it('screens the description and summary for secrets before the tag is written', () => {
    const store = claudeStore();
    const key = 'ghp_' + 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8';
    const saved = json(store, ['save', 'agent', '-m', `token ${key}`, '--summary', `uses ${key}`, '--name', 's']);
    expect([saved.description, saved.summary]).toEqual(['token [REDACTED:github-token]', 'uses [REDACTED:github-token]']);
    expect(git(store, ['cat-file', '-p', 'refs/tags/s'])).not.toContain(key);
    const blocked = ctx(store, ['save', 'agent', '-m', `token ${key}`, '--name', 't', '--secrets', 'block'], { env });
    expect([blocked.code, blocked.stderr]).toEqual([1, 'ctx: secret found: github-token in the description; nothing written\n']);
  });
});

describe('saved sessions travel', () => {
  const served = gitServerFixture({ beforeAll, afterAll }, 'saves');

  // the git binary's transport is one code path for every URL kind (http through it is covered in
  // sync.test.ts): a local path through it, and http through isomorphic-git, whose tag clobbering is its own code
  it.each(['path', 'http without git on PATH'])('through a push and a fetch into a second store (%s remote); a fetch never replaces a local save of the same name', (kind) => {
    const sync = (store: string, args: string[]) => ctx(store, args, { env: { ...env, ...(kind === 'http without git on PATH' ? { PATH: served.noGitPath } : {}) } });
    const a = claudeStore();
    run(a, ['save', 'agent', '-m', 'shared', '--name', 'team/pre-migration']);
    run(a, ['save', 'agent', '-m', 'mine', '--name', 'clash']);
    let url: string;
    if (kind.startsWith('http')) {
      url = served.repo('r.git').url;
    } else {
      url = join(tempDir(), 'remote.git');
      git(url, ['init', '--bare', '-q']);
    }
    run(a, ['remote', 'add', 'origin', url]);
    const pushed = ok(sync(a, ['push', '-v'])).stdout;
    expect(pushed).toContain('new\trefs/tags/team/pre-migration\trefs/tags/team/pre-migration\t-\t');
    expect(pushed).toContain('new\trefs/tags/clash\t');

    const b = newStore();
    run(b, ['checkpoint', '-b', 'other', '--format', 'claude-code-v1', '-'], line({ type: 'user', message: { role: 'user', content: 'b' } }));
    run(b, ['save', 'other', '-m', 'theirs', '--name', 'clash']);
    const theirs = jsonLines(b, ['sessions']);
    run(b, ['remote', 'add', 'origin', url]);
    const fetched = sync(b, ['fetch']);
    // the clash is refused and reported; the local save stays
    expect(fetched.code).toBe(1);
    expect(fetched.stdout).toContain('new\trefs/tags/team/pre-migration\trefs/tags/team/pre-migration\t-\t');
    expect(fetched.stdout).toMatch(/^rejected: .*clobber existing tag\trefs\/tags\/clash\trefs\/tags\/clash\t/m);
    const inB = jsonLines(b, ['sessions']);
    expect(inB.find((s) => s.name === 'clash')).toEqual(theirs[0]);
    expect(inB.find((s) => s.name === 'team/pre-migration')).toEqual(jsonLines(a, ['sessions']).find((s) => s.name === 'team/pre-migration'));
    expect(git(b, ['rev-parse', 'refs/tags/team/pre-migration'])).toBe(git(a, ['rev-parse', 'refs/tags/team/pre-migration']));
    // restored in the second store onto the fetched branch's name: the saved context, byte for byte
    run(b, ['restore', 'team/pre-migration', '-b', 'agent']);
    expect(bytes(b, ['agent'])).toEqual(bytes(a, ['team/pre-migration']));
    // pushing the clashing save back is refused: a tag never moves
    const back = sync(b, ['push', '-v']);
    expect(back.code).toBe(1);
    expect(back.stdout).toMatch(/^rejected: tag exists\trefs\/tags\/clash\t/m);
  });
});

describeCorpus('clear, save and restore on corpus transcripts', () => {
  // [runtime, file, messages in the default window, messages of the whole transcript]
  const cases: [string, string, number, number][] = [
    ['claude-code', 'claude-code/randlee__claude-history__simple-967e501d-session.jsonl', 66, 317],
    ['claude-code', 'claude-code/jnarowski__agentcmd__full-session-five.jsonl', 14, 14],
    ['codex', 'codex/kvsankar__agent-history__real_sessions-codex-session-01.jsonl', 4, 4],
  ];
  it.each(cases)('%s %s', (runtime, file, windowCount, allCount) => {
    const store = newStore();
    const path = join(CORPUS, file);
    const original = corpusBytes(...file.split('/'));
    run(store, ['import', runtime, path, '-b', 'agent']);
    expect(json(store, ['save', 'agent', '-m', 'window', '--name', 'window']).message_count).toBe(windowCount);
    expect(json(store, ['save', 'agent', '-m', 'all', '--name', 'all', '--stop', 'root']).message_count).toBe(allCount);
    run(store, ['clear', 'agent']);
    expect(json(store, ['save', 'agent', '-m', 'cleared', '--name', 'cleared']).message_count).toBe(0);
    const stored = json(store, ['show', 'agent~1']).meta.format;
    expect(bytes(store, ['agent', '--stop', 'root', '--format', stored])).toEqual(original);
    run(store, ['restore', 'window']);
    expect(bytes(store, ['agent'])).toEqual(bytes(store, ['window']));
  }, 180_000);
});

describe('the library', () => {
  it('clears, saves, lists and restores through the ContextStore', async () => {
    const { openStore } = await import('../src/index.js');
    const dir = tempDir();
    const store = await openStore(join(dir, '.ctx'), { create: true, env: FIXED_ENV });
    try {
      await store.import('claude-code', CLAUDE, { branch: 'agent' });
      const tip = await store.resolve('agent');
      const saved = await store.save('agent', { description: 'before', name: 'before' });
      expect([saved.name, saved.id, saved.message_count, saved.window.stop]).toEqual(['before', tip, 4, 'compaction']);
      const cleared = await store.clear('agent');
      expect([cleared.commit.parent, cleared.commit.meta.type, cleared.commit.meta.message_count, cleared.messagesBefore]).toEqual([tip, 'compaction', 0, 4]);
      expect((await store.sessions()).map((s) => s.name)).toEqual(['before']);
      const restored = await store.restore('before');
      expect([restored.branch, restored.previous, restored.commit.parent]).toEqual(['agent', cleared.commit.id, cleared.commit.id]);
      expect(Buffer.from((await store.materialize('agent')).bytes)).toEqual(Buffer.from((await store.materialize(tip)).bytes));
      await expect(store.restore('nope')).rejects.toMatchObject({ code: 'NotFoundError', exit: 4 });
    } finally {
      await store.close();
    }
  });
});

describe('clear and restore on a live-captured session', () => {
  it('catches up first, and the hook goes on after a clear or a restore without capturing anything twice', () => {
    const SESSION = '3f6c2a9e-8b1d-4e57-a0c4-5d2e9b7f1a83';
    const all = readFileSync(CLAUDE);
    const cut = (n: number) => all.subarray(0, all.toString('latin1').split('\n').slice(0, n).join('\n').length + 1).length;
    const [c1, c2] = [cut(13), cut(15)];
    const store = newStore();
    const transcript = join(tempDir(), `${SESSION}.jsonl`);
    const hook = () => {
      const input = JSON.stringify({ session_id: SESSION, transcript_path: transcript, hook_event_name: 'Stop', cwd: join(transcript, '..') });
      expect(ctx(store, ['hook', 'claude-code'], { input, env })).toMatchObject({ code: 0, stdout: '', stderr: '' });
    };
    writeFileSync(transcript, all.subarray(0, c1));
    hook();
    const branch = `claude/${SESSION}`;
    run(store, ['save', branch, '-m', 'before the clear', '--name', 'live']);
    appendFileSync(transcript, all.subarray(c1, c2));
    const cleared = json(store, ['clear', branch]);
    expect(cleared.caught_up).toHaveLength(1);
    expect(json(store, ['show', cleared.caught_up[0]]).meta.source).toMatchObject({ offset: c1, length: c2 - c1 });
    const empty = bytes(store, [branch]);
    appendFileSync(transcript, all.subarray(c2));
    hook();
    // the commits after the clear hold exactly the bytes past it
    const after = jsonLines(store, ['log', branch]).map((r) => r.id);
    const sources = after.slice(0, after.indexOf(cleared.id)).reverse().map((id) => json(store, ['show', id]).meta.source);
    expect(sources.map((x) => [x.offset, x.length])).toEqual(sources.map((x, i) => [i === 0 ? c2 : sources[i - 1].offset + sources[i - 1].length, x.length]));
    expect(sources[0].offset + sources.reduce((n, x) => n + x.length, 0)).toBe(all.length);
    expect(bytes(store, [branch])).toEqual(Buffer.concat([empty, all.subarray(c2)]));
    expect(bytes(store, [branch, '--stop', 'root'])).toEqual(all);
    // a restore too: the hook goes on from the tip before it
    run(store, ['restore', 'live']);
    const more = line({ parentUuid: null, isSidechain: false, type: 'user', message: { role: 'user', content: 'and now?' }, uuid: 'u-more', sessionId: SESSION, timestamp: '2026-03-04T10:00:00.000Z' });
    appendFileSync(transcript, more);
    hook();
    expect(json(store, ['show', branch]).meta.source).toMatchObject({ offset: all.length, length: more.length });
    expect(bytes(store, [branch]).toString()).toBe(bytes(store, ['live']).toString() + more);
    expect(bytes(store, [branch, '--stop', 'root']).toString()).toBe(all.toString() + more);
  });
});
