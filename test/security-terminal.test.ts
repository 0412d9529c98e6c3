// Escape sequences in a store (transcript text, summaries, save messages, notes, meta.json) reach a
// terminal inert: every human view shows control characters as U+FFFD, TSV fields stay one field each,
// and --json and materialize stay byte-exact.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CTX, FIXED_ENV, ctx, newStore, tempDir } from './helpers.js';

/** A window title, the clipboard (OSC 52), and clear screen. */
const E = '\x1b]0;pwned\x07T\x1b]52;c;Y2xpcA==\x07C\x1b[2JX';
/** E as a terminal is shown it. */
const V = '\ufffd]0;pwned\ufffdT\ufffd]52;c;Y2xpcA==\ufffdC\ufffd[2JX';
const SID = '11111111-2222-4333-8444-555555555555';

/** A Claude Code session whose prompt, tool call path and tool result hold E. */
function transcript(dir: string): string {
  const base = { isSidechain: false, userType: 'external', cwd: '/w', sessionId: SID, version: '2.1.29' };
  const lines = [
    { ...base, parentUuid: null, type: 'user', message: { role: 'user', content: `fix ${E} now` }, uuid: 'u1', timestamp: '2026-03-04T09:12:01.087Z' },
    { ...base, parentUuid: 'u1', type: 'assistant', message: { id: 'm1', type: 'message', role: 'assistant', model: 'x', content: [{ type: 'tool_use', id: 't1', name: 'Read', input: { file_path: `/w/a${E}\tb.ts` } }] }, uuid: 'a1', timestamp: '2026-03-04T09:12:02.087Z' },
    { ...base, parentUuid: 'a1', type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: `read ${E}` }] }, uuid: 'u2', timestamp: '2026-03-04T09:12:03.087Z' },
  ];
  const file = join(dir, 'evil.jsonl');
  writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  return file;
}

/** evil: the imported session, then a checkpoint whose principal, thread, author and summary hold E; a save whose message holds E. */
function hostileStore(dir: string): string {
  const s = join(dir, '.ctx');
  const run = (args: string[], input?: string) => {
    const r = ctx(s, args, { env: FIXED_ENV, input });
    if (r.code !== 0) throw new Error(r.stderr);
  };
  run(['init', s]);
  run(['import', 'claude-code', transcript(dir), '-b', 'evil']);
  run(['checkpoint', '-b', 'evil', '--format', 'openai-chat-v1', '--principal', `p${E}`, '--thread', `t${E}`, '--author', `a${E}`, '--summary', `sum ${E}\nline2\ttab`], '[{"role":"user","content":"hi"}]');
  run(['save', 'evil', '-m', `desc ${E}\tend`, '--name', 'save/one']);
  return s;
}

/** A shell command under a pseudo-terminal (util-linux `script`): what the terminal got. */
function onTerminal(command: string, store: string): string {
  const r = spawnSync('script', ['-qec', command, '/dev/null'], { env: { PATH: process.env.PATH!, TERM: 'xterm', PAGER: 'cat', CTX_STORE: store, ...FIXED_ENV }, encoding: 'utf8' });
  expect(r.status).toBe(0);
  return r.stdout.replace(/\r\n/g, '\n');
}

const TIP = 'ctx-06d27306c0ab';
const FIRST = 'ctx-e4b6c5f8bc1b';

describe('escape sequences from a store are shown inert', () => {
  // one store for the read-only tests: building it takes seconds
  let dir: string;
  let s: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'ctx-terminal-'));
    s = hostileStore(dir);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('log: TSV lines, --format and --graph', () => {
    expect(ctx(s, ['log', 'evil']).stdout).toBe(
      `${TIP}\tdelta\t2026-01-02T03:04:05.678Z\t1\t1\tsum ${V} line2 tab\n` + `${FIRST}\tdelta\t2026-03-04T09:12:03.087Z\t3\t103\tfix ${V} now\n`,
    );
    expect(ctx(s, ['log', 'evil', '--format', '%h %an %s %(thread)%n']).stdout).toBe(`${TIP} p${V} sum ${V} line2 tab t${V}\n\n${FIRST} alice fix ${V} now \n\n`);
    expect(ctx(s, ['log', 'evil', '--graph']).stdout).toBe(`* ${TIP} delta 2026-01-02 03:04 (evil) sum ${V} line2 tab\n* ${FIRST} delta 2026-03-04 09:12 fix ${V} now\n`);
  });

  it('log, branch and sessions on a terminal', () => {
    expect(onTerminal(`node ${CTX} log evil --color never`, s)).toBe(
      'ID                TYPE   TIME              MSGS  TOKENS  SUMMARY\n' +
        `${TIP}  delta  2026-01-02 03:04  1     1       (evil) sum ${V} line2 tab\n` +
        `${FIRST}  delta  2026-03-04 09:12  3     103     fix ${V} now\n`,
    );
    expect(onTerminal(`node ${CTX} branch --color never`, s)).toBe(`BRANCH  TIP               TIME              SUMMARY\nevil    ${TIP}  2026-01-02 03:04  sum ${V} line2 tab\n`);
    expect(onTerminal(`node ${CTX} sessions --color never`, s)).toBe(
      `NAME      COMMIT            SAVED             BRANCH  MESSAGES  DESCRIPTION\nsave/one  ${TIP}  2026-01-02 03:04  evil    4         desc ${V} end\n`,
    );
  });

  it('sessions and threads: TSV lines', () => {
    expect(ctx(s, ['sessions']).stdout).toBe(`save/one\t${TIP}\t2026-01-02T03:04:05.678Z\tevil\t4\tdesc ${V} end\n`);
    expect(ctx(s, ['threads', 'evil']).stdout).toBe(`t${V}\t${TIP}\t2026-01-02T03:04:05.678Z\ta${V}\t1\tsum ${V} line2 tab\n`);
  });

  it('show: meta.json fields, notes and the summary', () => {
    expect(ctx(s, ['annotate', 'evil~1', '--label', `l${E}`], { env: FIXED_ENV }).code).toBe(0);
    const out = ctx(s, ['show', 'evil']).stdout;
    expect(out).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f-\x9f]/);
    expect(out).toContain(`principal:     p${V}\n`);
    expect(out).toContain(`thread_id:     t${V}\n`);
    expect(out).toContain(`\n\n    sum ${V}\ufffdline2\ufffdtab\n`);
    const noted = ctx(s, ['show', 'evil~1']).stdout;
    expect(noted).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f-\x9f]/);
    expect(noted).toContain('annotations:   {"at":"2026-01-02T03:04:05.678Z","by":"alice","labels":["l\\u001b]0;pwned\\u0007T\\u001b]52;c;Y2xpcA==\\u0007C\\u001b[2JX"]}\n');
  });

  it('files and grep: a TAB in a path is no extra TSV field', () => {
    const touch = ctx(s, ['files', `/w/a${E}\tb.ts`]).stdout;
    expect(touch).toBe(`2026-03-04T09:12:02.087Z\tread\tRead\t${FIRST}\tevil\t${SID}\t1\t/w/a${V}\ufffdb.ts\n`);
    expect(touch.split('\t')).toHaveLength(8);
    expect(ctx(s, ['grep', '-F', 'read ']).stdout).toBe(`${FIRST}\tevil\t2\ttool\t2026-03-04T09:12:03.087Z\tread ${V}\n`);
  });

  it('stderr notes name a hostile file name inert', () => {
    const sessions = join(tempDir(), 'sessions');
    mkdirSync(sessions);
    writeFileSync(join(sessions, 'x\x1b]0;t\x07.jsonl'), 'garbage\n');
    const r = ctx(newStore(), ['import', 'claude-code', sessions], { env: FIXED_ENV });
    expect(r.stderr.split('\n')[0]).toBe(`${sessions}/x\ufffd]0;t\ufffd.jsonl: not a Claude Code transcript (line 1 is not JSON)`);
  });

  it('--json and materialize stay byte-exact', () => {
    expect(JSON.parse(ctx(s, ['log', 'evil', '--json']).stdout.split('\n')[0]).summary).toBe(`sum ${E}\nline2\ttab`);
    expect(JSON.parse(ctx(s, ['sessions', '--json']).stdout).description).toBe(`desc ${E}\tend`);
    expect(ctx(s, ['materialize', 'evil~1', '--format', 'markdown']).stdout).toContain(`fix ${E} now`);
    expect(ctx(s, ['show', 'evil~1', '--delta']).stdout).toContain(JSON.stringify(`fix ${E} now`));
  });
});

describe('a commit is searched once, on the branch that wrote it', () => {
  it('after save, clear and restore, grep and files report each hit once', () => {
    const s = newStore();
    const env = FIXED_ENV;
    expect(ctx(s, ['import', 'claude-code', transcript(tempDir()), '-b', 'B'], { env }).code).toBe(0);
    const hits = ctx(s, ['grep', '-F', 'read ']).stdout;
    const touches = ctx(s, ['files', `/w/a${E}\tb.ts`]).stdout;
    expect(hits.split('\n')).toHaveLength(2);
    expect(touches.split('\n')).toHaveLength(2);
    expect(ctx(s, ['save', 'B', '-m', 'before', '--name', 'save/b'], { env }).code).toBe(0);
    expect(ctx(s, ['clear', 'B'], { env }).code).toBe(0);
    expect(ctx(s, ['restore', 'save/b'], { env: { ...env, CTX_NOW: '2026-01-02T03:04:06.678Z' } }).code).toBe(0);
    expect(ctx(s, ['grep', '-F', 'read ']).stdout).toBe(hits);
    expect(ctx(s, ['files', `/w/a${E}\tb.ts`]).stdout).toBe(touches);
  });

  it('a fork that sorts first is not credited with the commits it shares', () => {
    const s = newStore();
    expect(ctx(s, ['import', 'claude-code', transcript(tempDir()), '-b', 'main'], { env: FIXED_ENV }).code).toBe(0);
    const chat = (text: string) => JSON.stringify([{ role: 'user', content: text }]);
    // main goes on in its session; the fork `a-fork`, made at the same commit, in its own
    expect(ctx(s, ['checkpoint', '-b', 'main', '--format', 'openai-chat-v1', '--session', SID], { env: FIXED_ENV, input: chat('on main') }).code).toBe(0);
    expect(ctx(s, ['fork', 'main~1', 'a-fork']).code).toBe(0);
    expect(ctx(s, ['checkpoint', '-b', 'a-fork', '--format', 'openai-chat-v1', '--session', 'other'], { env: FIXED_ENV, input: chat('on the fork') }).code).toBe(0);
    const branches = ctx(s, ['grep', '-F', ' ', '--json']).stdout.trim().split('\n').map((l) => [JSON.parse(l).snippet, JSON.parse(l).branch]);
    expect(branches).toEqual([
      ['on the fork', 'a-fork'],
      ['on main', 'main'],
      [`fix ${V} now`, 'main'],
      [`read ${V}`, 'main'],
    ]);
    expect(ctx(s, ['files', `/w/a${E}\tb.ts`]).stdout).toContain('\tmain\t');
  });
});

describe('a session by a unique prefix of its id', () => {
  it('log, current and show take a prefix; an ambiguous one names the sessions', () => {
    const s = newStore();
    expect(ctx(s, ['import', 'claude-code', transcript(tempDir()), '-b', 'one'], { env: FIXED_ENV }).code).toBe(0);
    const input = JSON.stringify([{ role: 'user', content: 'hi' }]);
    expect(ctx(s, ['checkpoint', '-b', 'two', '--format', 'openai-chat-v1', '--session', '11111111-9999'], { env: FIXED_ENV, input }).code).toBe(0);
    const one = ctx(s, ['current', '--session', SID]).stdout;
    expect(ctx(s, ['current', '--session', '11111111-2']).stdout).toBe(one);
    expect(ctx(s, ['log', '11111111-22', '--format', '%H']).stdout).toBe(one);
    expect(ctx(s, ['show', '11111111-9', '--json']).stdout).toContain('"session_id":"11111111-9999"');
    const both = ctx(s, ['log', '1111']);
    expect(both.stderr).toBe(`ctx: ambiguous id 1111: ${SID}, 11111111-9999\n`);
    expect(both.code).toBe(1);
    const none = ctx(s, ['current', '--session', '2222']);
    expect([none.stderr, none.code]).toEqual(['ctx: no branch holds session 2222\n', 4]);
  });
});

describe('a long summary in a human view', () => {
  it('is cut at a word with an ellipsis; --json keeps it whole', () => {
    const s = newStore();
    const summary = 'Refactor the authentication middleware so that refresh tokens rotate on every use';
    const input = JSON.stringify([{ role: 'user', content: 'hi' }]);
    expect(ctx(s, ['checkpoint', '-b', 'long', '--format', 'openai-chat-v1', '--summary', summary], { env: FIXED_ENV, input }).code).toBe(0);
    expect(onTerminal(`node ${CTX} branch --color never`, s)).toBe(
      'BRANCH  TIP               TIME              SUMMARY\n' + `long    ${ctx(s, ['log', 'long', '--format', '%h']).stdout.trim()}  2026-01-02 03:04  Refactor the authentication middleware so that refresh…\n`,
    );
    expect(JSON.parse(ctx(s, ['branch', '--json']).stdout).summary).toBe(summary);
  });
});
