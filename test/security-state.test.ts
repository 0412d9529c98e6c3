// Issue 20, items 5 and 6: forged state arriving through pull, what verify flags in state/, explicit
// agents for policy and migrations, and key names that JavaScript objects inherit.
// Each test runs tens of ctx processes: limits of 180 s, for a loaded machine.
import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXED_ENV, ctx, git, newStore, tempDir } from './helpers.js';
// @ts-expect-error the bundle is JavaScript; its types are in dist/types
import * as lib from '../dist/index.js';

const env = FIXED_ENV;
const REASONING_KEYS = 'conclusions, confidence_scores, dependency_map, entities, hypotheses, intents, summary';

/** A commit on `branch` made with git plumbing only: meta.json edited, `state/` given as ls-tree lines. */
function forge(store: string, branch: string, meta: (m: Record<string, unknown>) => void, state: (lines: string[], blob: (text: string) => string) => string[]): string {
  const run = (args: string[], input?: string) => execFileSync('git', ['--git-dir', store, ...args], { input, encoding: 'utf8', env: { ...process.env, GIT_AUTHOR_DATE: '1767323045 +0000', GIT_COMMITTER_DATE: '1767323045 +0000' } }).trim();
  const blob = (text: string) => run(['hash-object', '-w', '--stdin'], text);
  const lines = state(run(['ls-tree', `${branch}:state`]).split('\n'), blob);
  const stateTree = run(['mktree'], lines.join('\n') + '\n');
  const m = JSON.parse(run(['cat-file', 'blob', `${branch}:meta.json`]));
  meta(m);
  const sorted = (v: unknown): unknown => (v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, sorted((v as Record<string, unknown>)[k])])) : v);
  const metaBlob = blob(JSON.stringify(sorted(m)) + '\n');
  const root = run(['ls-tree', branch]).split('\n').filter((l) => !/\t(state|meta\.json)$/.test(l));
  const tree = run(['mktree'], [...root, `100644 blob ${metaBlob}\tmeta.json`, `040000 tree ${stateTree}\tstate`].join('\n') + '\n');
  const commit = run(['commit-tree', tree, '-p', branch, '-m', run(['log', '-1', '--format=%B', branch])]);
  run(['update-ref', `refs/heads/${branch}`, commit]);
  return commit;
}

/** `state/<file>` replaced (or added) with `content`, mode 100644 unless told. */
const put = (file: string, content: string, mode = '100644') => (lines: string[], blob: (t: string) => string) => [...lines.filter((l) => !l.endsWith(`\t${file}`)), `${mode} blob ${blob(content)}\t${file}`];

const problems = (store: string) => JSON.parse(ctx(store, ['verify', '--json'], { env }).stdout).problems;

describe('inherited key names (item 6)', () => {
  it('toString, constructor and __proto__ are refused or read as absent, never looked up on the prototype', () => {
    const store = newStore();
    ctx(store, ['state', 'init', 'room'], { env });
    const tip = git(store, ['rev-parse', 'room']);
    expect(ctx(store, ['state', 'set', 'room', 'reasoning.toString', '"x"', '--as', 'intent_detection'], { env })).toMatchObject({
      code: 7,
      stdout: '',
      stderr: `ctx: schema reasoning-v1: $.reasoning.toString: reasoning-v1 has no key toString in reasoning (${REASONING_KEYS})\n`,
    });
    expect(ctx(store, ['state', 'set', 'room', 'constructor.x', '1', '--as', 'orchestrator'], { env })).toMatchObject({
      code: 7,
      stderr: 'ctx: schema reasoning-v1: $.constructor: reasoning-v1 has no namespace constructor (audit, diagnostics, enrichment, llm, metadata, reasoning, retrieval)\n',
    });
    expect(ctx(store, ['state', 'get', 'room', 'reasoning.toString'], { env })).toMatchObject({ code: 4, stdout: '', stderr: 'ctx: room: reasoning.toString is not set\n' });
    expect(ctx(store, ['state', 'get', 'room', 'reasoning.constructor'], { env })).toMatchObject({ code: 4, stdout: '', stderr: 'ctx: room: reasoning.constructor is not set\n' });
    for (const agent of ['__proto__', 'constructor', 'toString', 'hasOwnProperty'])
      expect(ctx(store, ['state', 'set', 'room', 'reasoning.summary', 'x', '--as', agent], { env })).toMatchObject({
        code: 7,
        stdout: '',
        stderr: `ctx: ${agent} may not write reasoning.summary on room: namespace reasoning is not in its policy (it may write nothing (not in the policy))\n`,
      });
    expect(ctx(store, ['state', 'set', 'room', 'reasoning.__proto__', '{"summary":"x"}', '--as', 'intent_detection'], { env })).toMatchObject({
      code: 2,
      stdout: '',
      stderr: 'ctx: not a state key: "reasoning.__proto__" (__proto__ names a JavaScript object\'s prototype; choose another key)\n',
    });
    expect(ctx(store, ['policy', 'set', 'room', '__proto__', 'reasoning', '--as', 'orchestrator'], { env })).toMatchObject({ code: 2, stdout: '', stderr: 'ctx: not an agent name: "__proto__"\n' });
    expect(ctx(store, ['state', 'init', 'other', '--as', 'constructor'], { env })).toMatchObject({ code: 7, stderr: 'ctx: constructor may not init the state of other: only an agent with * in the policy may\n' });
    expect(git(store, ['rev-parse', 'room'])).toBe(tip);
    // an agent named constructor, once in the policy, is an agent like any other
    expect(ctx(store, ['policy', 'set', 'room', 'constructor', 'reasoning', '--as', 'orchestrator'], { env }).code).toBe(0);
    expect(ctx(store, ['state', 'set', 'room', 'reasoning.summary', '"by constructor"', '--as', 'constructor'], { env }).code).toBe(0);
    // __proto__ inside a value is data, stored and read back as written
    expect(ctx(store, ['state', 'set', 'room', 'reasoning.entities', '{"__proto__":{"admin":true},"a":1}', '--as', 'intent_detection'], { env }).code).toBe(0);
    expect(ctx(store, ['state', 'get', 'room', 'reasoning.entities'], { env }).stdout).toBe('{"__proto__":{"admin":true},"a":1}\n');
    expect(ctx(store, ['verify'], { env })).toMatchObject({ code: 0, stdout: 'ok 4 commits\n' });
  }, 180_000);
});

describe('policy set and migrate need an explicit agent (item 5)', () => {
  it('without --as or CTX_AGENT: exit 2 with a hint, nothing written', () => {
    const store = newStore();
    ctx(store, ['state', 'init', 'room'], { env });
    const tip = git(store, ['rev-parse', 'room']);
    expect(ctx(store, ['policy', 'set', 'room', 'intent_detection', 'llm'], { env })).toMatchObject({
      code: 2,
      stdout: '',
      stderr: 'ctx: say which agent changes the policy: --as AGENT (or CTX_AGENT), an agent with * in the policy (e.g. --as orchestrator)\n',
    });
    expect(ctx(store, ['migrate', 'room', '--to', '2'], { env })).toMatchObject({
      code: 2,
      stdout: '',
      stderr: 'ctx: say which agent migrates the state: --as AGENT (or CTX_AGENT), an agent with * in the policy (e.g. --as orchestrator)\n',
    });
    expect(git(store, ['rev-parse', 'room'])).toBe(tip);
    expect(ctx(store, ['policy', 'set', 'room', 'intent_detection', 'llm', '--as', 'orchestrator'], { env }).code).toBe(0);
    expect(ctx(store, ['policy', 'set', 'room', 'validation', 'llm'], { env: { ...env, CTX_AGENT: 'orchestrator' } }).code).toBe(0);
  }, 180_000);
});

describe('verify flags what state/ must not hold (item 5)', () => {
  it('an allowed agent writing where it may not, an agent not in the policy, unknown entries and wrong modes', () => {
    const store = newStore();
    ctx(store, ['state', 'init', 'room'], { env });
    ctx(store, ['state', 'set', 'room', 'reasoning.summary', 'ok', '--as', 'summarization'], { env });
    expect(ctx(store, ['verify'], { env }).code).toBe(0);
    // summarization may write reasoning, not retrieval: its record claims an agent the policy allows
    const rec = (agent: string, ns: string, key: string, how = 'added') =>
      (m: Record<string, unknown>) => void (m.state = { op: 'set', agent, keys: [`${ns}.${key}`], diff: { [ns]: { added: [], removed: [], changed: [], [how]: [key] } } });
    const elsewhere = forge(store, 'room', rec('summarization', 'retrieval', 'plans'), put('retrieval.json', '{"plans":[{"id":"p"}]}\n'));
    expect(problems(store)).toEqual([{ id: `ctx-${elsewhere}`, problem: 'writes retrieval.plans as summarization, which the policy at its parent does not allow' }]);
    git(store, ['update-ref', 'refs/heads/room', 'room~1']);
    const stranger = forge(store, 'room', rec('stranger', 'reasoning', 'summary', 'changed'), put('reasoning.json', '{"summary":"mine"}\n'));
    expect(problems(store)).toEqual([{ id: `ctx-${stranger}`, problem: 'writes reasoning.summary as stranger, an agent not in the policy at its parent' }]);
    git(store, ['update-ref', 'refs/heads/room', 'room~1']);
    // entries ctx never writes: a script, a file that is not <namespace>.json, a namespace with the wrong mode, a subtree
    const same = (m: Record<string, unknown>) => void (m.state = { op: 'set', agent: 'orchestrator', keys: [], diff: {} });
    const script = forge(store, 'room', same, put('evil.sh', '#!/bin/sh\necho owned\n', '100755'));
    const odd = forge(store, 'room', same, put('Notes.JSON', '{}\n'));
    const exec = forge(store, 'room', same, (lines) => lines.map((l) => (l.endsWith('\treasoning.json') ? l.replace(/^100644/, '100755') : l)));
    const sub = forge(store, 'room', same, (lines) => [...lines, `040000 tree ${git(store, ['rev-parse', 'room:state']).trim()}\tnested`]);
    expect(problems(store)).toEqual([
      { id: `ctx-${sub}`, problem: 'state/nested is not an entry ctx writes (<namespace>.json, .policy.json, .schema.json, .blob-<blake3>)' },
      { id: `ctx-${exec}`, problem: 'state/reasoning.json has mode 100755, not 100644' },
      { id: `ctx-${odd}`, problem: 'state/Notes.JSON is not an entry ctx writes (<namespace>.json, .policy.json, .schema.json, .blob-<blake3>)' },
      { id: `ctx-${script}`, problem: 'state/evil.sh is not an entry ctx writes (<namespace>.json, .policy.json, .schema.json, .blob-<blake3>)' },
    ]);
    const entries = '(<namespace>.json, .policy.json, .schema.json, .blob-<blake3>)';
    expect(ctx(store, ['verify'], { env })).toMatchObject({
      code: 5,
      stderr:
        `ctx: ctx-${exec.slice(0, 12)}: state/reasoning.json has mode 100755, not 100644\n` +
        `ctx: ctx-${odd.slice(0, 12)}: state/Notes.JSON is not an entry ctx writes ${entries}\n` +
        `ctx: ctx-${script.slice(0, 12)}: state/evil.sh is not an entry ctx writes ${entries}\n` +
        `ctx: ctx-${sub.slice(0, 12)}: state/nested is not an entry ctx writes ${entries}\n`,
    });
  }, 180_000);
});

describe('forged state arriving through pull (item 5)', () => {
  const forgedRecord = (m: Record<string, unknown>) => void (m.state = { op: 'set', agent: 'intent_detection', keys: ['llm.provider'], diff: { llm: { added: ['provider'], removed: [], changed: [] } } });
  const why = 'writes llm.provider as intent_detection, which the policy at its parent does not allow';

  it('pull refuses a forged state write with exit 5 and moves no branch; the remote-tracking branch keeps it; fetch warns', () => {
    const origin = newStore();
    ctx(origin, ['state', 'init', 'room'], { env });
    ctx(origin, ['state', 'set', 'room', 'reasoning.summary', 'ok', '--as', 'summarization'], { env });
    ctx(origin, ['state', 'init', 'other'], { env });
    const mine = newStore();
    ctx(mine, ['remote', 'add', 'origin', origin], { env });
    expect(ctx(mine, ['pull', '-v', 'origin', 'room', 'other'], { env }).code).toBe(0);
    const good = git(mine, ['rev-parse', 'room']).trim();
    const other = git(mine, ['rev-parse', 'other']).trim();
    // the remote gains a commit forged with git plumbing, then an honest one on top, and other moves on honestly
    const forged = forge(origin, 'room', forgedRecord, put('llm.json', '{"provider":"evil"}\n'));
    ctx(origin, ['state', 'set', 'room', 'reasoning.summary', 'later', '--as', 'summarization'], { env });
    ctx(origin, ['state', 'set', 'other', 'llm.provider', 'openai', '--as', 'inference'], { env });
    const theirs = git(origin, ['rev-parse', 'room']).trim();
    const r = ctx(mine, ['pull', '-v'], { env });
    expect(r).toMatchObject({
      code: 5,
      stdout: '',
      stderr: `ctx: pull origin/room: ctx-${forged.slice(0, 12)} ${why}; no branch moved (the remote's commits stay on origin/room: ctx verify origin/room)\n`,
    });
    expect(git(mine, ['rev-parse', 'room']).trim()).toBe(good);
    expect(git(mine, ['rev-parse', 'other']).trim()).toBe(other);
    expect(git(mine, ['rev-parse', 'refs/remotes/origin/room']).trim()).toBe(theirs);
    expect(ctx(mine, ['state', 'get', 'room', 'llm.provider'], { env })).toMatchObject({ code: 4, stderr: 'ctx: room: llm.provider is not set\n' });
    expect(ctx(mine, ['verify', 'origin/room'], { env })).toMatchObject({ code: 5, stderr: `ctx: ctx-${forged.slice(0, 12)}: ${why}\n` });
    // again: still refused (the check runs from the local tip, not from the last fetch)
    expect(ctx(mine, ['pull', '-v'], { env }).code).toBe(5);
    // a store that never had the branch: fetch keeps it without a word (nothing here tracks it: a remote of
    // many branches is not checked whole); pulling it by name checks the whole chain and refuses it
    const fresh = newStore();
    ctx(fresh, ['remote', 'add', 'origin', origin], { env });
    expect(ctx(fresh, ['fetch'], { env })).toMatchObject({ code: 0, stderr: 'origin (git transport): 2 new\n' });
    expect(ctx(fresh, ['pull', '-v', 'origin', 'room'], { env })).toMatchObject({
      code: 5,
      stderr: `ctx: pull origin/room: ctx-${forged.slice(0, 12)} ${why}; no branch moved (the remote's commits stay on origin/room: ctx verify origin/room)\n`,
    });
    expect(git(fresh, ['for-each-ref', '--format=%(refname)', 'refs/heads']).trim()).toBe('');
    // new branches at once (as a clone makes every one): their chains come from one history, the forged write is found all the same
    const refused = `ctx: pull origin/room: ctx-${forged.slice(0, 12)} ${why}; no branch moved (the remote's commits stay on origin/room: ctx verify origin/room)\n`;
    const both = newStore();
    ctx(both, ['remote', 'add', 'origin', origin], { env });
    expect(ctx(both, ['pull', '-v', 'origin', 'other', 'room'], { env })).toMatchObject({ code: 5, stderr: refused });
    expect(git(both, ['for-each-ref', '--format=%(refname)', 'refs/heads']).trim()).toBe('');
    const cloned = join(tempDir(), 'c.ctx');
    expect(ctx(cloned, ['clone', origin, cloned], { env })).toMatchObject({ code: 5, stderr: refused });
    expect(existsSync(cloned)).toBe(false);
  }, 300_000);

  it('unknown entries in state/ arriving through pull are refused; honest writes pull as before, checking only the new commits', () => {
    const origin = newStore();
    ctx(origin, ['state', 'init', 'room'], { env });
    const mine = newStore();
    ctx(mine, ['remote', 'add', 'origin', origin], { env });
    expect(ctx(mine, ['pull', '-v', 'origin', 'room'], { env }).code).toBe(0);
    for (let i = 0; i < 3; i++) ctx(origin, ['state', 'set', 'room', 'reasoning.summary', `"s${i}"`, '--as', 'summarization'], { env });
    const p = ctx(mine, ['pull', '-v'], { env });
    expect(p).toMatchObject({ code: 0, stdout: expect.stringContaining('fast-forward\trefs/heads/room') });
    expect(p.stderr).not.toContain('warning');
    expect(ctx(mine, ['state', 'get', 'room', 'reasoning.summary'], { env }).stdout).toBe('"s2"\n');
    const script = forge(origin, 'room', (m) => void (m.state = { op: 'set', agent: 'orchestrator', keys: [], diff: {} }), put('evil.sh', '#!/bin/sh\necho owned\n', '100755'));
    expect(ctx(mine, ['pull', '-v'], { env })).toMatchObject({
      code: 5,
      stderr: `ctx: pull origin/room: ctx-${script.slice(0, 12)} state/evil.sh is not an entry ctx writes (<namespace>.json, .policy.json, .schema.json, .blob-<blake3>); no branch moved (the remote's commits stay on origin/room: ctx verify origin/room)\n`,
    });
  }, 180_000);
});

describe('state commits do not break re-import or capture', () => {
  const turn = (n: number) =>
    `{"type":"user","message":{"role":"user","content":"question ${n}"},"sessionId":"sess-1","uuid":"u${n}","timestamp":"2026-01-01T00:00:0${n}Z"}\n` +
    `{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"answer ${n}"}]},"sessionId":"sess-1","uuid":"a${n}","timestamp":"2026-01-01T00:00:0${n}Z"}\n`;
  const hookEnv = { CTX_PRINCIPAL: 'hook', CTX_MACHINE: 'ci', CTX_NOW: env.CTX_NOW };
  /** Each commit of the branch, tip first: its summary, and whether it carries the state. */
  const chain = (store: string, branch: string) =>
    git(store, ['log', '--format=%H', branch])
      .trim()
      .split('\n')
      .map((oid) => {
        const meta = JSON.parse(git(store, ['cat-file', 'blob', `${oid}:meta.json`]));
        const hasState = git(store, ['ls-tree', oid, 'state']).trim() !== '';
        return `${meta.summary}${hasState ? ' +state' : ''}`;
      });

  it('import -b B after ctx state init B continues the chain on top of the state, again and again', () => {
    const store = newStore();
    const file = join(tempDir(), 'sess-1.jsonl');
    writeFileSync(file, turn(1) + turn(2));
    expect(ctx(store, ['import', 'claude-code', file, '-b', 'B'], { env }).code).toBe(0);
    expect(ctx(store, ['state', 'init', 'B'], { env }).code).toBe(0);
    appendFileSync(file, turn(3));
    const again = ctx(store, ['import', 'claude-code', file, '-b', 'B'], { env });
    expect(again).toMatchObject({ code: 0, stderr: '' });
    expect(again.stdout).toMatch(/^B\tctx-[0-9a-f]{12}\t1 commits\n$/);
    expect(chain(store, 'B')).toEqual(['question 3 +state', 'state init: 2 keys by orchestrator +state', 'question 2', 'question 1']);
    expect(ctx(store, ['import', 'claude-code', file, '-b', 'B'], { env }).stdout).toMatch(/^B\tctx-[0-9a-f]{12}\t0 commits\n$/);
    expect(ctx(store, ['state', 'set', 'B', 'reasoning.summary', 'mid-session', '--as', 'summarization'], { env }).code).toBe(0);
    appendFileSync(file, turn(4));
    expect(ctx(store, ['import', 'claude-code', file, '-b', 'B'], { env }).code).toBe(0);
    expect(chain(store, 'B')[0]).toBe('question 4 +state');
    expect(ctx(store, ['state', 'get', 'B', 'reasoning.summary'], { env }).stdout).toBe('"mid-session"\n');
    expect(ctx(store, ['materialize', 'B', '--stop', 'root'], { env }).stdout).toBe(readFileSync(file, 'utf8'));
    expect(ctx(store, ['verify'], { env })).toMatchObject({ code: 0, stdout: 'ok 6 commits\n' });
  }, 180_000);

  it('the hook and a default import keep capturing a session whose branch got state', () => {
    const store = newStore();
    const file = join(tempDir(), 'sess-1.jsonl');
    writeFileSync(file, turn(1));
    const stop = () => ctx(store, ['hook', 'claude-code'], { input: JSON.stringify({ session_id: 'sess-1', transcript_path: file, hook_event_name: 'Stop', cwd: join(file, '..') }), env: hookEnv });
    expect(stop()).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(ctx(store, ['state', 'init', 'claude/sess-1'], { env }).code).toBe(0);
    appendFileSync(file, turn(2));
    expect(stop()).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(existsSync(join(store, 'ctx', 'hook.log')) ? readFileSync(join(store, 'ctx', 'hook.log'), 'utf8') : '').toBe('');
    expect(chain(store, 'claude/sess-1')).toEqual(['question 2 +state', 'state init: 2 keys by orchestrator +state', 'question 1']);
    expect(ctx(store, ['state', 'set', 'claude/sess-1', 'llm.provider', 'anthropic', '--as', 'inference'], { env }).code).toBe(0);
    appendFileSync(file, turn(3));
    expect(ctx(store, ['import', 'claude-code', file], { env })).toMatchObject({ code: 0, stderr: '' });
    expect(chain(store, 'claude/sess-1').slice(0, 2)).toEqual(['question 3 +state', 'state set: llm.provider by inference +state']);
    appendFileSync(file, turn(4));
    expect(stop()).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(chain(store, 'claude/sess-1')[0]).toBe('question 4 +state');
    expect(ctx(store, ['materialize', 'claude/sess-1', '--stop', 'root'], { env }).stdout).toBe(readFileSync(file, 'utf8'));
    expect(ctx(store, ['verify'], { env }).code).toBe(0);
  }, 180_000);

  it('a branch that only has state takes an import on top of it', () => {
    const store = newStore();
    const file = join(tempDir(), 'sess-1.jsonl');
    writeFileSync(file, turn(1) + turn(2));
    expect(ctx(store, ['state', 'init', 'C', '--format', 'claude-code-v1'], { env }).code).toBe(0);
    expect(ctx(store, ['import', 'claude-code', file, '-b', 'C'], { env })).toMatchObject({ code: 0, stderr: '' });
    expect(chain(store, 'C')).toEqual(['question 2 +state', 'question 1 +state', 'state init: 2 keys by orchestrator +state']);
    expect(ctx(store, ['materialize', 'C', '--stop', 'root'], { env }).stdout).toBe(readFileSync(file, 'utf8'));
  }, 180_000);
});

describe('a migration that writes a key named __proto__ (item 6)', () => {
  it('keeps it as a key of the namespace, not as the prototype', async () => {
    const path = join(tempDir(), '.ctx');
    const store = await lib.openStore(path, { create: true, env });
    const schema = (v: number) => ({ $id: `notes-v${v}`, type: 'object', properties: { notes: { type: 'object' } } });
    try {
      await store.state('room').init({ schema: schema(1) });
      lib.registerStateSchema(schema(2), () => JSON.parse('{"notes":{"__proto__":{"admin":true},"a":1}}'));
      await store.state('room').migrate(2, { as: 'orchestrator' });
      const notes = await store.state('room').get('notes');
      expect(JSON.stringify(notes)).toBe('{"__proto__":{"admin":true},"a":1}');
      expect(Object.getPrototypeOf(notes)).toBe(Object.prototype);
    } finally {
      await store.close();
    }
  }, 180_000);
});

describe('the library (item 5)', () => {
  it('checkpoint takes no stateFiles: a caller cannot write state/ past the rules; setPolicy and migrate name their agent', async () => {
    const path = join(tempDir(), '.ctx');
    const store = await lib.openStore(path, { create: true, env });
    try {
      await store.state('room').init();
      const before = git(path, ['rev-parse', 'room:state']).trim();
      const evil = git(path, ['rev-parse', 'room:state/.policy.json']).trim();
      const line = Buffer.from('{"type":"user","message":{"role":"user","content":"hi"}}\n');
      const input = { branch: 'room', format: 'claude-code-v1', artifact: line, stateFiles: [{ path: 'state/llm.json', oid: evil }] };
      await store.checkpoint(input);
      expect(git(path, ['rev-parse', 'room:state']).trim()).toBe(before);
      await expect(store.state('room').setPolicy('reviewer', ['llm'], {} as { as: string })).rejects.toMatchObject({ code: 'UsageError', exit: 2 });
      await expect(store.state('room').migrate(2, undefined as unknown as { as: string })).rejects.toMatchObject({ code: 'UsageError', exit: 2 });
      expect((await store.state('room').setPolicy('reviewer', ['llm'], { as: 'orchestrator' })).id).toMatch(/^ctx-[0-9a-f]{40}$/);
      expect(await store.verify()).toMatchObject({ problems: [] });
    } finally {
      await store.close();
    }
  }, 180_000);
});
