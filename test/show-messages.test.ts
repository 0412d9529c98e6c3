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
          '    @@ -1,1 +1,2 @@',
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
        '**→ Bash** `toolu_1` `command: npm test · description: run the tests`',
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
    expect(calls('conv~3')).toEqual(['  → Edit /home/alex/src/todo-cli/src/list.ts (+1 −1)', '  → Write /home/alex/src/todo-cli/test/list.test.ts (+25)', '  → Bash: $ npx vitest run test/list.test.ts', '  → TodoWrite 1 of 3 done']);
    expect(calls('conv~2')).toEqual(['  → Task (Explore) Find other blank-line bugs', '  → WebSearch "vitest toEqual arrays"']);
    const verbose = (id: string, from: string) => {
      const out = ctx(other, ['show', id, '--messages', '-v', '--color', 'never'], { env }).stdout.split('\n');
      const at = out.indexOf(from);
      return out.slice(at, at + 4);
    };
    expect(verbose('conv~3', '  → TodoWrite 1 of 3 done')).toEqual(['  → TodoWrite 1 of 3 done', '    [x] Fix parseTodos', '    [~] Add tests', '    [ ] Update the changelog']);
    expect(verbose('conv~2', '  → Task (Explore) Find other blank-line bugs')).toEqual(['  → Task (Explore) Find other blank-line bugs', '    Search src/ for other loops that **stop** at an empty line.', '', '── 3. User (subagent) · 2026-03-04T10:00:13.000Z']);
  });

  it('other tools in one line as their runtime says, else their arguments as key: value; -v: edits and patches as unified diffs, a plan rendered', () => {
    const imported = (runtime: string, file: string) => expect(ctx(store, ['import', runtime, join(FIXTURES, 'tool-calls', file), '-b', `tools/${runtime}`], { env }).code).toBe(0);
    imported('claude-code', 'claude-code.jsonl');
    imported('codex', 'rollout-2026-03-04T10-00-00-01a21dd1-845b-7400-9ae0-912b49e4f6cc.jsonl');
    expect(show('tools/claude-code', '--messages', '--color', 'never').split('\n').filter((l) => l.startsWith('  → '))).toEqual([
      '  → Glob src/**/*.ts in /home/bo/app',
      '  → Grep "function sum" in src (*.ts)',
      '  → LS /home/bo/app/src',
      '  → WebSearch "vitest toBeCloseTo"',
      '  → WebFetch https://vitest.dev/api/expect',
      '  → NotebookEdit /home/bo/app/explore.ipynb (+1)',
      '  → ExitPlanMode Plan: fix `sum`…',
      '  → AskUserQuestion Keep the old name?',
      '  → BashOutput b7f2',
      '  → TaskCreate Fix sum',
      '  → TaskUpdate #1 completed',
      '  → MultiEdit src/sum.ts (+2 −2)',
      '  → mcp__tracker__create_issue title: sum ignores b · labels: bug, math · body: line 1 … · meta: priority: 2, d…',
    ]);
    expect(show('tools/codex', '--messages', '--color', 'never').split('\n').filter((l) => l.startsWith('  → '))).toEqual([
      '  → shell_command: $ npm test',
      '  → write_stdin session 3 "q"',
      '  → list_dir /work/proj/src',
      '  → grep_files "sum\\(" in /work/proj (*.ts)',
      '  → view_image /work/proj/plot.png',
      '  → apply_patch src/sum.ts (+1 −1), test/sum.test.ts (+1), test/old.test.ts',
      '  → spawn_agent task_name: review · message: Review src/sum.ts',
    ]);
    const [claude, coloured, codex] = [['tools/claude-code', 'never'], ['tools/claude-code', 'always'], ['tools/codex', 'never']].map(([id, color]) => show(id, '--messages', '-v', '--color', color));
    /** The -v text of `out` from the line starting `from` to the next message. */
    const detail = (out: string, from: string) => {
      const rest = out.slice(out.indexOf(from));
      // eslint-disable-next-line no-control-regex
      return rest.slice(0, rest.search(/\n\n(\x1b\[[0-9;]*m)*──/));
    };
    const body = Array.from({ length: 30 }, (_, i) => `      line ${i + 1}`);
    expect(detail(claude, '  → mcp__')).toBe(
      ['  → mcp__tracker__create_issue title: sum ignores b · labels: bug, math · body: line 1 … · meta: priority: 2, d…', '    title: sum ignores b', '    labels:', '      - bug', '      - math', '    body:', ...body, '    meta:', '      priority: 2', '      draft: false'].join('\n'),
    );
    expect(detail(claude, '  → ExitPlanMode')).toBe('  → ExitPlanMode Plan: fix `sum`…\n    Plan: fix sum\n\n      1. Add b to the result\n      2. Run the tests');
    const multi = ['  → MultiEdit src/sum.ts (+2 −2)', '    --- src/sum.ts', '    +++ src/sum.ts', '    @@ -1,5 +1,5 @@', '     export function sum(a, b) {', '       // add', '       // them', '    -  return a;', '    +  return a + b;', '     }', '    @@ -1,1 +1,1 @@', '    -// sum', '    +// sum of two numbers'];
    expect(detail(claude, '  → MultiEdit')).toBe(multi.join('\n'));
    expect(detail(coloured, '  \x1b[1m→ MultiEdit')).toBe(
      [
        '  \x1b[1m→ MultiEdit\x1b[22m src/sum.ts (+2 −2)',
        '    \x1b[1m--- src/sum.ts\x1b[22m',
        '    \x1b[1m+++ src/sum.ts\x1b[22m',
        '    \x1b[36m@@ -1,5 +1,5 @@\x1b[39m',
        ...multi.slice(4, 7),
        '    \x1b[31m-  return a;\x1b[39m',
        '    \x1b[32m+  return a + b;\x1b[39m',
        multi[9],
        '    \x1b[36m@@ -1,1 +1,1 @@\x1b[39m',
        '    \x1b[31m-// sum\x1b[39m',
        '    \x1b[32m+// sum of two numbers\x1b[39m',
      ].join('\n'),
    );
    expect(detail(codex, '  → apply_patch')).toBe(
      [
        '  → apply_patch src/sum.ts (+1 −1), test/sum.test.ts (+1), test/old.test.ts',
        '    --- src/sum.ts',
        '    +++ src/sum.ts',
        '    @@',
        '     export function sum(a, b) {',
        '    -  return a;',
        '    +  return a + b;',
        '     }',
        '    --- /dev/null',
        '    +++ test/sum.test.ts',
        "    +test('sums', () => {});",
        '    --- test/old.test.ts',
        '    +++ /dev/null',
      ].join('\n'),
    );
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
