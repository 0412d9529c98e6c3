// `ctx show --messages`: a commit's or a range's conversation for people, exact bytes: markdown
// rendered for the terminal, tool calls one line each, -v with diffs, --format markdown, no pager on a pipe.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { CTX, FIXED_ENV, FIXTURES, ctx, newStore, tempDir } from './helpers.js';

const FIXTURE = join(FIXTURES, 'claude-code', 'show-messages.jsonl');
const env = FIXED_ENV;
let store: string;
const show = (...args: string[]) => {
  const r = ctx(store, ['show', ...args], { env });
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return r.stdout;
};

const FIX_TURN = [
  '── 1. User · 2026-05-01T10:00:02.500Z',
  '',
  '  Fix it, please.',
  '',
  '── 2. Assistant · 2026-05-01T10:00:03.000Z',
  '',
  '  → Edit src/sum.ts (+2 −1)',
  '',
  '── 4. Assistant · 2026-05-01T10:00:05.000Z',
  '',
  '  Fixed',
  '',
  '  sum returned only a:',
  '',
  '    • added b',
  '    • kept the name',
  '',
  '  ┌ ts',
  '  │ return total;',
  '  └',
  '',
].join('\n');

describe('ctx show --messages', () => {
  // helpers remove temp dirs after each test: each test imports the fixture into its own store
  beforeEach(() => {
    store = newStore();
    const r = ctx(store, ['import', 'claude-code', FIXTURE, '-b', 'bo/sum'], { env });
    expect(r.code).toBe(0);
  });

  it("prints one commit's messages: headings, rendered markdown, tool calls one line each, results left out", () => {
    expect(show('bo/sum~1', '--messages', '--color', 'never')).toBe(FIX_TURN);
  });

  it('summarises a shell call by its command, and colours with --color always', () => {
    expect(show('bo/sum~2', '--messages', '--color', 'always')).toBe(
      '\x1b[32m\x1b[1m── 1. User\x1b[22m\x1b[39m\x1b[2m · 2026-05-01T10:00:00.000Z\x1b[22m\n\n  Run the tests and fix \x1b[36msum\x1b[39m.\n\n' +
        '\x1b[34m\x1b[1m── 2. Assistant\x1b[22m\x1b[39m\x1b[2m · 2026-05-01T10:00:01.000Z\x1b[22m\n\n  \x1b[1m→ Bash\x1b[22m: \x1b[36m$ npm test\x1b[39m\n',
    );
  });

  it('-v shows an edit as a diff and the tool results', () => {
    const out = show('bo/sum~1', '--messages', '-v', '--color', 'never');
    expect(out).toBe(
      FIX_TURN.replace(
        '  → Edit src/sum.ts (+2 −1)\n',
        [
          '  → Edit src/sum.ts (+2 −1)',
          '    --- src/sum.ts',
          '    +++ src/sum.ts',
          '    -  return a;',
          '    +  const total = a + b;',
          '    +  return total;',
          '',
          '── 3. Tool results · 2026-05-01T10:00:04.000Z',
          '',
          '  ← result',
          '    The file src/sum.ts has been updated successfully.',
          '',
        ].join('\n'),
      ),
    );
    const coloured = show('bo/sum~1', '--messages', '-v', '--color', 'always');
    expect(coloured).toContain('\x1b[31m-  return a;\x1b[39m\n    \x1b[32m+  const total = a + b;\x1b[39m');
  });

  it('a range A..B shows what came after A up to B; A..A shows none; A off the chain is a usage error', () => {
    expect(show('bo/sum~2..bo/sum', '--messages', '--color', 'never')).toBe(
      `${FIX_TURN}\n── 5. User · 2026-05-01T10:01:00.000Z\n\n  Thanks!\n\n── 6. Assistant · 2026-05-01T10:01:01.000Z\n\n  You're welcome.\n`,
    );
    expect(show('bo/sum..bo/sum', '--messages', '--color', 'never')).toBe('(no messages)\n');
    const r = ctx(store, ['show', 'bo/sum..bo/sum~1', '--messages'], { env });
    expect(r).toMatchObject({ code: 2, stdout: '', stderr: 'ctx: show: bo/sum is not on the chain of bo/sum~1: give A..B with A an ancestor of B\n' });
  });

  it('--format markdown fences a result holding a fence with a longer one and says what it folded', () => {
    expect(show('bo/sum~2', '--messages', '--format', 'markdown')).toBe(
      [
        '# Context',
        '',
        '## 1. User · 2026-05-01T10:00:00.000Z',
        '',
        'Run the tests and fix `sum`.',
        '',
        '## 2. Assistant · 2026-05-01T10:00:01.000Z',
        '',
        '**→ Bash** `toolu_1` `{"command":"npm test","description":"run the tests"}`',
        '',
        '## 3. Tool results · 2026-05-01T10:00:02.000Z',
        '',
        '**← `toolu_1`** (error)',
        '',
        '````',
        'FAIL sum.test.ts',
        '```',
        'expected 3, got 2',
        '```',
        'Tests: 1 failed, 1 passed',
        '````',
        '*… 1 more lines*',
        '',
      ].join('\n'),
    );
  });

  it('--json gives the neutral messages with the commits read', () => {
    const got = JSON.parse(show('bo/sum', '--messages', '--json'));
    const log = ctx(store, ['log', 'bo/sum', '--json'], { env }).stdout.trimEnd().split('\n').map((l) => JSON.parse(l).id);
    expect(got).toEqual({ v: 1, id: log[0], format: 'claude-code-v1', commits: [log[0]], messages: [
      { role: 'user', content: [{ type: 'text', text: 'Thanks!' }], timestamp: '2026-05-01T10:01:00.000Z', ids: expect.any(Object) },
      { role: 'assistant', content: [{ type: 'text', text: "You're welcome." }], timestamp: '2026-05-01T10:01:01.000Z', ids: expect.any(Object) },
    ] });
  });

  it('a todo list is one line (-v: a checklist), a subagent call its agent and description (-v: its prompt), not JSON', () => {
    const other = newStore();
    expect(ctx(other, ['import', 'claude-code', join(FIXTURES, 'claude-code', 'conversation.jsonl'), '-b', 'conv'], { env }).code).toBe(0);
    const calls = (...args: string[]) => ctx(other, ['show', ...args, '--messages', '--color', 'never'], { env }).stdout.split('\n').filter((l) => l.startsWith('  → '));
    expect(calls('conv~3')).toEqual(['  → Edit /home/alex/src/todo-cli/src/list.ts (+3 −3)', '  → Write /home/alex/src/todo-cli/test/list.test.ts (+25)', '  → Bash: $ npx vitest run test/list.test.ts', '  → TodoWrite 1 of 3 done']);
    expect(calls('conv~2')).toEqual(['  → Task (Explore) Find other blank-line bugs', '  → WebSearch {"query":"vitest toEqual arrays"}']);
    const verbose = (id: string, from: string) => {
      const out = ctx(other, ['show', id, '--messages', '-v', '--color', 'never'], { env }).stdout.split('\n');
      const at = out.indexOf(from);
      return out.slice(at, at + 4);
    };
    expect(verbose('conv~3', '  → TodoWrite 1 of 3 done')).toEqual(['  → TodoWrite 1 of 3 done', '    [x] Fix parseTodos', '    [~] Add tests', '    [ ] Update the changelog']);
    expect(verbose('conv~2', '  → Task (Explore) Find other blank-line bugs')).toEqual(['  → Task (Explore) Find other blank-line bugs', '    Search src/ for other loops that **stop** at an empty line.', '', '── 3. User (subagent) · 2026-03-04T10:00:13.000Z']);
  });

  it('never starts a pager when stdout is not a terminal', () => {
    const marker = join(tempDir(), 'paged');
    const r = ctx(store, ['show', 'bo/sum~2..bo/sum', '--messages'], { env: { ...env, PAGER: `touch ${marker}`, CTX_PAGER: `touch ${marker}` } });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('── 1. User · 2026-05-01T10:00:02.500Z\n');
    expect(existsSync(marker)).toBe(false);
  });

  // a terminal from util-linux `script`: the output, longer than its 5 rows, goes to $PAGER
  it.skipIf(spawnSync('script', ['--version']).status !== 0)('on a terminal longer than the screen, goes through $PAGER (coloured: --color auto)', () => {
    const paged = join(tempDir(), 'paged');
    const run = `stty rows 5 cols 80; exec ${JSON.stringify(process.execPath)} ${JSON.stringify(CTX)} show bo/sum~2..bo/sum --messages`;
    const r = spawnSync('script', ['-qec', run, '/dev/null'], { env: { ...process.env, ...env, CTX_STORE: store, PAGER: `cat > ${paged}`, CTX_PAGER: undefined, NO_COLOR: undefined, TERM: 'xterm' }, encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(readFileSync(paged, 'utf8').split('\n').slice(0, 3)).toEqual(['\x1b[32m\x1b[1m── 1. User\x1b[22m\x1b[39m\x1b[2m · 2026-05-01T10:00:02.500Z\x1b[22m', '', '  Fix it, please.']);
  });

  it('-v and --format without --messages, and --messages with --delta, are usage errors', () => {
    expect(ctx(store, ['show', 'bo/sum', '-v'], { env })).toMatchObject({ code: 2, stdout: '', stderr: 'ctx: show: -v and --format go with --messages\n' });
    expect(ctx(store, ['show', 'bo/sum', '--messages', '--delta'], { env })).toMatchObject({ code: 2, stdout: '', stderr: 'ctx: show: --messages and --delta are two ways to show a commit: pick one\n' });
    expect(ctx(store, ['show', 'bo/sum', '--messages', '--format', 'html'], { env }).code).toBe(2);
  });
});
