// What a person at a terminal sees: a table, colour unless NO_COLOR or --color never, a pager for long output.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CTX, FIXED_ENV, FIXTURES, ctx, newStore, tempDir } from './helpers.js';

/** Runs a shell command under a pseudo-terminal (util-linux `script`), returns what the terminal got. */
function onTerminal(command: string, env: Record<string, string>): string {
  const r = spawnSync('script', ['-qec', command, '/dev/null'], { env: { PATH: process.env.PATH!, TERM: 'xterm', ...env }, encoding: 'utf8' });
  expect(r.status).toBe(0);
  return r.stdout.replace(/\r\n/g, '\n');
}

describe('on a terminal', () => {
  const store = () => {
    const s = newStore();
    ctx(s, ['import', 'claude-code', join(FIXTURES, 'claude-code', 'compacted-session.jsonl'), '-b', 'alice/auth-fix'], { env: FIXED_ENV });
    return s;
  };
  const log = `node ${CTX} log alice/auth-fix -n 2`;

  it('log is a coloured table', () => {
    const out = onTerminal(log, { CTX_STORE: store(), PAGER: 'cat' });
    expect(out).toBe(
      '\x1b[1mID\x1b[22m                \x1b[1mTYPE\x1b[22m   \x1b[1mTIME\x1b[22m              \x1b[1mMSGS\x1b[22m  \x1b[1mTOKENS\x1b[22m  \x1b[1mSUMMARY\x1b[22m\n' +
        '\x1b[33mctx-e518d33a7172\x1b[39m  delta  2026-03-04 09:15  2     20      \x1b[32m(alice/auth-fix) \x1b[39mThanks. Which files did you change?\n' +
        '\x1b[33mctx-867c2e2badc9\x1b[39m  delta  2026-03-04 09:14  1     18      continued: Done: `parseTodos` now skips blank lines instead of…\n',
    );
  });

  it('NO_COLOR and --color never give the same table without colour', () => {
    const s = store();
    const plain =
      'ID                TYPE   TIME              MSGS  TOKENS  SUMMARY\n' +
      'ctx-e518d33a7172  delta  2026-03-04 09:15  2     20      (alice/auth-fix) Thanks. Which files did you change?\n' +
      'ctx-867c2e2badc9  delta  2026-03-04 09:14  1     18      continued: Done: `parseTodos` now skips blank lines instead of…\n';
    expect(onTerminal(log, { CTX_STORE: s, PAGER: 'cat', NO_COLOR: '1' })).toBe(plain);
    expect(onTerminal(`${log} --color never`, { CTX_STORE: s, PAGER: 'cat' })).toBe(plain);
  });

  it('output longer than the screen goes through $PAGER', () => {
    const s = store();
    const paged = join(tempDir(), 'paged.txt');
    onTerminal(`stty rows 3; node ${CTX} log alice/auth-fix --color never`, { CTX_STORE: s, PAGER: `cat > ${paged}` });
    expect(readFileSync(paged, 'utf8').split('\n')).toHaveLength(7);
    expect(readFileSync(paged, 'utf8').startsWith('ID                TYPE')).toBe(true);
  });

  it('branch and remote list are tables with a header row', () => {
    const s = store();
    expect(onTerminal(`node ${CTX} branch --color never`, { CTX_STORE: s })).toBe('BRANCH          TIP               TIME              SUMMARY\nalice/auth-fix  ctx-e518d33a7172  2026-03-04 09:15  Thanks. Which files did you change?\n');
    ctx(s, ['remote', 'add', 'origin', 'https://bob:hunter2@git.example.com/team/ctx.git']);
    ctx(s, ['remote', 'add', 'backup', '/srv/ctx.git']);
    expect(onTerminal(`node ${CTX} remote`, { CTX_STORE: s })).toBe(
      '\x1b[1mREMOTE\x1b[22m  \x1b[1mURL\x1b[22m\n\x1b[32mbackup\x1b[39m  /srv/ctx.git\n\x1b[32morigin\x1b[39m  https://bob:***@git.example.com/team/ctx.git\n',
    );
  });
});

describe('--color always on a pipe', () => {
  it('colours log, branch and budget lines; auto leaves them plain', () => {
    const s = newStore();
    ctx(s, ['import', 'claude-code', join(FIXTURES, 'claude-code', 'compacted-session.jsonl'), '-b', 'alice/auth-fix'], { env: FIXED_ENV });
    const run = (args: string[]) => ctx(s, args, { env: FIXED_ENV }).stdout;
    expect(run(['log', 'alice/auth-fix', '-n', '3', '--color', 'always'])).toBe(
      '\x1b[33mctx-e518d33a7172\x1b[39m\tdelta\t2026-03-04T09:15:05.039Z\t2\t20\tThanks. Which files did you change?\n' +
        '\x1b[33mctx-867c2e2badc9\x1b[39m\tdelta\t2026-03-04T09:14:30.452Z\t1\t18\tcontinued: Done: `parseTodos` now skips blank lines instead of stopping at the first one.\n' +
        '\x1b[33mctx-4a21e603e33e\x1b[39m\t\x1b[35mcompaction\x1b[39m\t2026-03-04T09:14:22.640Z\t1\t122\tcompacted: The user reported that `todo list` prints nothing when todos.txt starts with a blank line.\n',
    );
    expect(run(['log', 'alice/auth-fix', '-n', '1'])).toBe('ctx-e518d33a7172\tdelta\t2026-03-04T09:15:05.039Z\t2\t20\tThanks. Which files did you change?\n');
    expect(run(['branch', '--color', 'always'])).toBe('\x1b[32malice/auth-fix\x1b[39m\t\x1b[33mctx-e518d33a7172\x1b[39m\n');
    expect(run(['branch'])).toBe('alice/auth-fix\tctx-e518d33a7172\n');
    expect(run(['budget', 'alice/auth-fix', '--window', '1000', '--chars', '--color', 'always'])).toMatch(/^\d+\t1000\t\d+\t[\d.]+\t0\.8\t\x1b\[32mok\x1b\[39m\n$/);
    expect(run(['budget', 'alice/auth-fix', '--window', '1000', '--chars'])).toMatch(/^\d+\t1000\t\d+\t[\d.]+\t0\.8\tok\n$/);
  });
});
