// opencode without its CLI: a session as `opencode export` prints it (fixtures/opencode/session.json,
// written by opencode 1.18.33 against the mock API) imports byte-exact, translates to the neutral model
// with tool calls and results paired, comes back from other runtimes' chains, and ctx's plugin file
// and hook behave; bad input is refused with the fix named.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXED_ENV, FIXTURES, ctx, newStore, tempDir } from './helpers.js';
import { opencodeSession, opencodeToNeutral, parseSession } from '../src/formats/opencode-session.js';
import { tools, patchEffects } from '../src/runtimes/opencode/tools.js';
import { knownChain, newTurns, splitTurns } from '../src/runtimes/opencode/session.js';
import { ChainIndex, readIndex } from '../src/runtimes/opencode/chain-index.js';

const FIXTURE = join(FIXTURES, 'opencode', 'session.json');
const SESSION = 'ses_de24204f2ffeqCSPjCnRuLtBoU';
const BRANCH = `opencode/${SESSION}`;
const ENV = { ...FIXED_ENV, CTX_SESSION: undefined };
/** `ctx log --json`: a JSON line per commit, oldest first here. */
const logOf = (store: string, branch: string) =>
  ctx(store, ['log', branch, '--json'], { env: ENV }).stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l) as { id: string; type: string }).reverse();

describe('opencode sessions (fixtures)', () => {
  it('imports an export as a delta per turn and materializes its bytes back; again: nothing new', () => {
    const store = newStore();
    const r = ctx(store, ['import', 'opencode', FIXTURE], { env: ENV });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(`${BRANCH}\t${logOf(store, BRANCH)[0].id.slice(0, 16)}\t1 commits\n`);
    expect(ctx(store, ['materialize', BRANCH, '--stop', 'root'], { env: ENV }).bytes.equals(readFileSync(FIXTURE))).toBe(true);
    const again = ctx(store, ['import', 'opencode', FIXTURE], { env: ENV });
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/\t0 commits\n$/);
  });

  it('two turns and a compaction: a delta each, the compaction its own commit, the bytes back whole', () => {
    const doc = parseSession(readFileSync(FIXTURE));
    const [user, call, answer] = doc.messages;
    const mk = (m: (typeof doc.messages)[number], id: string, extra: Record<string, unknown> = {}) => ({ info: { ...m.info, id, ...extra }, parts: m.parts });
    const compactReq = { info: { ...user.info, id: 'msg_21dbe678d009compact0000001' }, parts: [{ type: 'compaction', auto: true, id: 'prt_c1' }] };
    const summary = mk(answer, 'msg_21dbe678d00Asummary000001', { summary: true, mode: 'compaction' });
    const second = { info: { ...user.info, id: 'msg_21dbe678d00Bsecond0000001' }, parts: [{ type: 'text', text: 'again', id: 'prt_s1' }] };
    const full = { info: doc.info, messages: [user, call, answer, compactReq, summary, second, mk(answer, 'msg_21dbe678d00Canswer0000002')] };
    const turns = splitTurns(full.messages);
    expect(turns.map((t) => [t.kind, t.messages.length, t.prompt ?? null])).toEqual([
      ['delta', 3, '"make a file"'],
      ['compaction', 2, null],
      ['delta', 2, 'again'],
    ]);
    const dir = tempDir();
    const file = join(dir, 'two.json');
    const bytes = Buffer.from(`${JSON.stringify(full, null, 2)}\n`);
    writeFileSync(file, bytes);
    const store = newStore();
    expect(ctx(store, ['import', 'opencode', file], { env: ENV }).code).toBe(0);
    expect(logOf(store, BRANCH).map((c) => c.type)).toEqual(['delta', 'compaction', 'delta']);
    expect(ctx(store, ['materialize', BRANCH, '--stop', 'root'], { env: ENV }).bytes.equals(bytes)).toBe(true);
    // from the compaction on: what opencode itself sends after it
    const since = JSON.parse(ctx(store, ['materialize', BRANCH], { env: ENV }).stdout) as { messages: { info: { id: string } }[] };
    expect(since.messages.map((m) => m.info.id)).toEqual(['msg_21dbe678d009compact0000001', 'msg_21dbe678d00Asummary000001', 'msg_21dbe678d00Bsecond0000001', 'msg_21dbe678d00Canswer0000002']);
  });

  it('a later capture holds only what is new or changed; a renumbered copy of known messages is no news', () => {
    const doc = parseSession(readFileSync(FIXTURE));
    expect(newTurns(knownChain(doc), doc)).toEqual([]);
    const changed = structuredClone(doc);
    changed.messages[2].parts[1].text = 'done 3';
    expect(newTurns(knownChain(doc), changed).map((t) => t.messages.map((m) => m.info.id))).toEqual([[doc.messages[2].info.id]]);
    const copy = structuredClone(doc);
    copy.messages.forEach((m, i) => (m.info.id = `msg_copy${i}`));
    expect(newTurns(knownChain(doc), copy)).toEqual([]);
  });

  it("the hook's chain index (ids and hashes) finds what the chain read back finds", async () => {
    const fixture = parseSession(readFileSync(FIXTURE));
    const [user, call, answer] = fixture.messages;
    const mk = (m: (typeof fixture.messages)[number], id: string, parts = structuredClone(m.parts)) => ({ info: { ...m.info, id }, parts });
    // the fixture's turn, a compaction (request, summary), a second turn
    const doc = { info: fixture.info, messages: [user, call, answer, mk(user, 'msg_c1', [{ type: 'compaction', auto: true, id: 'prt_c1' }]), mk(answer, 'msg_s1'), mk(user, 'msg_u2'), mk(answer, 'msg_a2')] };
    const index = (await ChainIndex.of(doc.messages))!;
    const ids = (turns: ReturnType<typeof newTurns>) => turns.map((t) => [t.kind, t.messages.map((m) => m.info.id)]);
    // a change before the compaction is none to capture
    const changed = structuredClone(doc);
    changed.messages[2].parts[1].text = 'done 3';
    // the same message with its keys in another order is no change; one after the last compaction that changed is
    const reordered = structuredClone(doc);
    reordered.messages[5].info = Object.fromEntries(Object.entries(reordered.messages[5].info).reverse());
    const after = structuredClone(doc);
    after.messages[6].parts[0].text = 'changed after the compaction';
    const copy = structuredClone(doc);
    copy.messages.forEach((m, i) => (m.info.id = `msg_copy${i}`));
    const grown = { ...doc, messages: [...doc.messages, ...changed.messages.slice(5, 7).map((m, i) => ({ ...m, info: { ...m.info, id: `msg_zzz${i}` } }))] };
    for (const d of [doc, changed, reordered, after, copy, grown]) expect(ids(newTurns(index, d))).toEqual(ids(newTurns(knownChain(doc), d)));
    expect(ids(newTurns(index, reordered))).toEqual([]);
    expect(ids(newTurns(index, changed))).toEqual([]);
    expect(ids(newTurns(index, after))).toEqual([['delta', ['msg_a2']]]);
    expect(ids(newTurns(index, grown))).toEqual([['delta', ['msg_zzz0', 'msg_zzz1']]]);
    // a message without a string id: no index
    expect(await ChainIndex.of([{ ...doc.messages[0], info: { ...doc.messages[0].info, id: 7 } }])).toBeNull();
    // read back from a store: the saved index as saved; a file whose lines are not what save writes is none (the chain is read back)
    const store = newStore();
    const tip = 'a'.repeat(40);
    index.save(store, 'ses_1', 'opencode/ses_1', tip);
    expect((await readIndex(store, 'ses_1', 'opencode/ses_1', tip))?.ids).toEqual(index.ids);
    expect(await readIndex(store, 'ses_1', 'opencode/ses_1', 'b'.repeat(40))).toBeNull();
    const file = join(store, 'ctx', 'hooks', 'ses_1.opencode.json');
    for (const messages of [[1, 2], [['msg_1', 'h', 'c']], [['msg_1', 'h', 'c', 2]], [[{}, 'h', 'c', 0]]]) {
      writeFileSync(file, JSON.stringify({ v: 1, branch: 'opencode/ses_1', tip, messages }));
      expect(await readIndex(store, 'ses_1', 'opencode/ses_1', tip)).toBeNull();
    }
  });

  it("the chain index's texts file: the messages from the last compaction on as last captured, believed only for its tip", async () => {
    const fixture = parseSession(readFileSync(FIXTURE));
    const [user, call, answer] = fixture.messages;
    const mk = (m: (typeof fixture.messages)[number], id: string, parts = structuredClone(m.parts)) => ({ info: { ...m.info, id }, parts });
    const doc = { info: fixture.info, messages: [user, call, answer, mk(user, 'msg_c1', [{ type: 'compaction', auto: true, id: 'prt_c1' }]), mk(answer, 'msg_s1'), mk(user, 'msg_u2'), mk(answer, 'msg_a2')] };
    const store = newStore();
    const tip = 'a'.repeat(40);
    (await ChainIndex.of(doc.messages))!.save(store, 'ses_1', 'opencode/ses_1', tip, doc.messages);
    const texts = join(store, 'ctx', 'hooks', 'ses_1.opencode.texts');
    // from the compaction request (the chain's 4th message) on, one line each
    expect(readFileSync(texts, 'utf8')).toBe(`{"v":1,"tip":"${tip}","from":3,"count":4}\n${doc.messages.slice(3).map((m) => `${JSON.stringify(m)}\n`).join('')}`);
    const ids = (turns: ReturnType<typeof newTurns>) => turns.map((t) => [t.kind, t.messages.map((m) => m.info.id)]);
    const reordered = structuredClone(doc);
    reordered.messages[5].info = Object.fromEntries(Object.entries(reordered.messages[5].info).reverse());
    const after = structuredClone(doc);
    after.messages[6].parts[0].text = 'changed after the compaction';
    const grown = { ...doc, messages: [...doc.messages, mk(user, 'msg_u3'), mk(answer, 'msg_a3')] };
    // the same answers as a chain read back, with the texts file, with a wrong one (its lines no longer the messages'), and without one
    const wrong = `{"v":1,"tip":"${tip}","from":3,"count":4}\n${doc.messages.slice(3).map((m, i) => `${i === 3 ? '{}' : JSON.stringify(m)}\n`).join('')}`;
    for (const file of [null, wrong, '', `{"v":1,"tip":"${'b'.repeat(40)}","from":0,"count":0}\n`, '{"v":1}\n{}\n']) {
      if (file !== null) writeFileSync(texts, file);
      for (const d of [doc, reordered, after, grown]) expect(ids(newTurns((await readIndex(store, 'ses_1', 'opencode/ses_1', tip))!, d))).toEqual(ids(newTurns(knownChain(doc), d)));
    }
    // a session holding an id twice leaves no texts file
    const twice = { ...doc, messages: [...doc.messages, doc.messages[6]] };
    (await ChainIndex.of(doc.messages))!.save(store, 'ses_2', 'opencode/ses_2', tip, twice.messages);
    expect(existsSync(join(store, 'ctx', 'hooks', 'ses_2.opencode.json'))).toBe(true);
    expect(existsSync(join(store, 'ctx', 'hooks', 'ses_2.opencode.texts'))).toBe(false);
  });

  it('translates to neutral with each tool call answered by its result', () => {
    const neutral = opencodeToNeutral(parseSession(readFileSync(FIXTURE)).messages);
    expect(neutral.map((m) => [m.role, m.content.map((b) => b.type)])).toEqual([
      ['user', ['text']],
      ['assistant', ['tool_call']],
      ['tool', ['tool_result']],
      ['assistant', ['text']],
    ]);
    expect(neutral[1].content[0]).toEqual({ type: 'tool_call', id: 'call_1', name: 'bash', input: { command: 'echo hi > a.txt', description: 'write a' } });
    expect(neutral[2].content[0]).toEqual({ type: 'tool_result', call_id: 'call_1', content: '(no output)' });
  });

  it('a Claude Code chain becomes an opencode session whose calls carry their results', () => {
    const store = newStore();
    expect(ctx(store, ['import', 'claude-code', join(FIXTURES, 'claude-code', 'compacted-session.jsonl'), '-b', 'cc'], { env: ENV }).code).toBe(0);
    const m = ctx(store, ['materialize', 'cc', '--stop', 'root', '--format', 'opencode-session-v1'], { env: ENV });
    expect(m.code, m.stderr).toBe(0);
    const doc = parseSession(m.bytes);
    const back = opencodeToNeutral(doc.messages);
    const calls = back.flatMap((x) => x.content.flatMap((b) => (b.type === 'tool_call' ? [b.id] : [])));
    const results = back.flatMap((x) => x.content.flatMap((b) => (b.type === 'tool_result' ? [b.call_id] : [])));
    expect(calls.length).toBeGreaterThan(0);
    expect(results).toEqual(calls);
    // the round trip through the format: parse(fromNeutral(x)) gives x's messages again
    expect(opencodeToNeutral(parseSession(opencodeSession.fromNeutral!(back)).messages).map((x) => x.content)).toEqual(back.map((x) => x.content));
  });

  it('exports for opencode import: new ids in order, the session in the directory given, the resume command', () => {
    const store = newStore();
    ctx(store, ['import', 'opencode', FIXTURE], { env: ENV });
    const dir = tempDir();
    const e = ctx(store, ['export', 'opencode', BRANCH, '--dir', dir, '--session-id', 'ses_0123456789abCtxExport0001', '--json'], { cwd: dir, env: ENV });
    expect(e.code, e.stderr).toBe(0);
    const out = JSON.parse(e.stdout) as { session_id: string; path: string; command: string; branch: string };
    expect(out.path).toBe(join(dir, 'ses_0123456789abCtxExport0001.json'));
    expect(out.command).toBe(`opencode import ${out.path} && opencode run -s ses_0123456789abCtxExport0001`);
    expect(out.branch).toBe('opencode/ses_0123456789abCtxExport0001');
    const doc = parseSession(readFileSync(out.path));
    const src = parseSession(readFileSync(FIXTURE));
    expect(doc.info.id).toBe('ses_0123456789abCtxExport0001');
    expect(doc.info.directory).toBe(dir);
    const ids = doc.messages.map((m) => m.info.id as string);
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.some((id) => src.messages.some((m) => m.info.id === id))).toBe(false);
    expect(doc.messages.every((m) => m.info.sessionID === doc.info.id && m.parts.every((p) => p.messageID === m.info.id && p.sessionID === doc.info.id))).toBe(true);
    expect(doc.messages[1].info.parentID).toBe(ids[0]);
    expect(opencodeToNeutral(doc.messages).map((m) => m.content)).toEqual(opencodeToNeutral(src.messages).map((m) => m.content));
    const bad = ctx(store, ['export', 'opencode', BRANCH, '--dir', dir, '--session-id', '../x'], { cwd: dir, env: ENV });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('ctx: --session-id must be an opencode session id (ses_ and letters or digits): ../x\n');
  });

  it('refuses what is not an opencode export, naming what to run', () => {
    const store = newStore();
    const dir = tempDir();
    writeFileSync(join(dir, 'opencode.db'), Buffer.concat([Buffer.from('SQLite format 3\0', 'latin1'), Buffer.alloc(100)]));
    const db = ctx(store, ['import', 'opencode', join(dir, 'opencode.db')], { env: ENV });
    expect(db.code).toBe(2);
    expect(db.stderr).toBe(`ctx: ${join(dir, 'opencode.db')} is not a session as \`opencode export <id>\` prints it (line 1 is not JSON)\n`);
    writeFileSync(join(dir, 'other.json'), '{"messages": []}');
    expect(ctx(store, ['import', 'opencode', join(dir, 'other.json')], { env: ENV }).code).toBe(2);
    const cc = ctx(store, ['import', 'opencode', join(FIXTURES, 'claude-code', 'compacted-session.jsonl')], { env: ENV });
    expect(cc.code).toBe(2);
    expect(cc.stderr).toContain('this looks like a Claude Code transcript');
    expect(ctx(store, ['branch', '--json'], { env: ENV }).stdout).not.toContain('opencode/');
  });

  it('hooks install writes ctx plugin file, status reports it, uninstall removes exactly it; a foreign file is kept', () => {
    const store = newStore();
    const proj = tempDir();
    const file = join(proj, '.opencode', 'plugin', 'ctx.js');
    const inst = ctx(store, ['hooks', 'install', 'opencode'], { cwd: proj, env: ENV });
    expect(inst.code, inst.stderr).toBe(0);
    const text = readFileSync(file, 'utf8');
    const command = inst.stdout.trim().split('\t')[1];
    expect(inst.stdout).toBe(`session.idle\t${command}\n`);
    expect(text).toContain(`const COMMAND = ${JSON.stringify(command)};`);
    expect(text.split('\n')[0]).toBe('// ctx-plugin v1: written by `ctx hooks install opencode`, removed by `ctx hooks uninstall opencode`');
    expect(ctx(store, ['hooks', 'install', 'opencode'], { cwd: proj, env: ENV }).stderr).toContain('nothing to change');
    expect(ctx(store, ['hooks', 'status', 'opencode'], { cwd: proj, env: ENV }).stdout).toBe(`session.idle\t${command}\n`);
    mkdirSync(join(proj, '.opencode', 'plugin', 'mine'), { recursive: true });
    writeFileSync(join(proj, '.opencode', 'plugin', 'other.js'), 'export const X = 1;\n');
    expect(ctx(store, ['hooks', 'uninstall', 'opencode'], { cwd: proj, env: ENV }).code).toBe(0);
    expect(existsSync(file)).toBe(false);
    expect(readFileSync(join(proj, '.opencode', 'plugin', 'other.js'), 'utf8')).toBe('export const X = 1;\n');
    writeFileSync(file, 'export const Mine = async () => ({});\n');
    const refused = ctx(store, ['hooks', 'install', 'opencode'], { cwd: proj, env: ENV });
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toBe(`ctx: ${file} is there and is not ctx's plugin: move it away and install again; nothing changed\n`);
    expect(ctx(store, ['hooks', 'uninstall', 'opencode'], { cwd: proj, env: ENV }).code).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe('export const Mine = async () => ({});\n');
  });

  it('ctx hook opencode captures what the plugin sends, once; bad input still exits 0', () => {
    const store = newStore();
    const session = JSON.parse(readFileSync(FIXTURE, 'utf8'));
    const input = JSON.stringify({ hook_event_name: 'session.idle', session_id: SESSION, cwd: tempDir(), session });
    const h = ctx(store, ['hook', 'opencode'], { input, env: ENV });
    expect(h.code).toBe(0);
    expect(h.stdout).toBe('');
    expect(ctx(store, ['materialize', BRANCH, '--stop', 'root'], { env: ENV }).bytes.equals(readFileSync(FIXTURE))).toBe(true);
    expect(ctx(store, ['hook', 'opencode'], { input, env: ENV }).code).toBe(0);
    expect(logOf(store, BRANCH).length).toBe(1);
    const other = ctx(store, ['hook', 'opencode'], { input: JSON.stringify({ hook_event_name: 'session.idle', session_id: 'ses_x', session: { info: {}, messages: 3 } }), env: ENV });
    expect(other.code).toBe(0);
    expect(ctx(store, ['hook', 'opencode'], { input: JSON.stringify({ hook_event_name: 'message.updated', session_id: SESSION }), env: ENV }).code).toBe(0);
    expect(logOf(store, BRANCH).length).toBe(1);
  });

  it("knows what opencode's tools do to files", () => {
    expect(tools.effects({ name: 'read', input: { filePath: '/p/a.ts' } })).toEqual([{ path: '/p/a.ts', action: 'read' }]);
    expect(tools.effects({ name: 'write', input: { filePath: '/p/b.ts', content: 'x\ny\n' } })).toEqual([{ path: '/p/b.ts', action: 'write', added: ['x', 'y'] }]);
    expect(tools.effects({ name: 'edit', input: { filePath: '/p/c.ts', oldString: 'a', newString: 'b' } })).toEqual([{ path: '/p/c.ts', action: 'edit', added: ['b'], removed: ['a'] }]);
    expect(patchEffects('*** Begin Patch\n*** Update File: d.ts\n@@\n-old\n+new\n*** End Patch')).toEqual([{ path: 'd.ts', action: 'edit', added: ['new'], removed: ['old'] }]);
    expect(tools.effects({ name: 'glob', input: { pattern: '*' } })).toEqual([]);
  });
});
