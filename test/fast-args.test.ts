// Which arguments entry.ts hands to the fast path (dist/fast.cjs) and which to the whole CLI: the
// fast path takes only what it reads exactly as commander does.
import { describe, expect, it } from 'vitest';
import { fastArgs, SPECS, type FastCommand } from '../src/cli/fast-args.js';
import blame from '../src/commands/blame.js';
import files from '../src/commands/files.js';
import grep from '../src/commands/grep.js';
import { ctx, newStore } from './helpers.js';

describe('fastArgs', () => {
  it('takes ctx blame FILE with its own and the global options, before or after the command, in both spellings', () => {
    expect(fastArgs(['blame', 'src/a.ts'])).toEqual({ command: 'blame', args: ['src/a.ts'], opts: {}, flags: {} });
    expect(fastArgs(['--store', '/s', 'blame', 'src/a.ts:3,9', '--json', '--rev=v1', '--color', 'never', '--engine=git'])).toEqual({
      command: 'blame',
      args: ['src/a.ts:3,9'],
      opts: { rev: 'v1' },
      flags: { store: '/s', json: true, color: 'never', engine: 'git' },
    });
  });

  it('takes ctx grep and ctx files with their options, short ones together as commander reads them, and branches after', () => {
    expect(fastArgs(['grep', 'needle', '--all'])).toEqual({ command: 'grep', args: ['needle', []], opts: { index: true, all: true }, flags: {} });
    expect(fastArgs(['grep', '-iwF', 'a.b', 'b1', '--role=tool', '-n', '3', 'b2', '--since', '7d', '--no-index', '--json'])).toEqual({
      command: 'grep',
      args: ['a.b', ['b1', 'b2']],
      opts: { index: false, ignoreCase: true, wordRegexp: true, fixedStrings: true, role: 'tool', n: '3', since: '7d' },
      flags: { json: true },
    });
    expect(fastArgs(['--store=/s', 'files', 'src/a.ts', 'alice/x', '--color', 'always'])).toEqual({ command: 'files', args: ['src/a.ts', ['alice/x']], opts: { index: true }, flags: { store: '/s', color: 'always' } });
  });

  it.each([
    [['grep']],
    [['grep', '--help']],
    [['grep', 'a', '--role', 'robot']],
    [['grep', 'a', '-in', '3']],
    [['grep', 'a', '-n3']],
    [['grep', 'a', '-x']],
    [['grep', '--', '-a']],
    [['grep', 'a', '--since']],
    [['-i', 'grep', 'a']],
    [['files', 'a', '-i']],
    [['files', 'a', '--all']],
    [['constructor', 'a']],
  ])('leaves %j to the whole CLI', (argv) => {
    expect(fastArgs(argv)).toBeNull();
  });

  it.each([
    [['blame']],
    [['blame', 'a', 'b']],
    [['blame', '--help']],
    [['blame', 'a', '-h']],
    [['blame', 'a', '--rev']],
    [['blame', 'a', '--rev', '--json']],
    [['--rev', 'x', 'blame', 'a']],
    [['blame', 'a', '--color', 'sometimes']],
    [['blame', 'a', '--engine=other']],
    [['blame', 'a', '--unknown']],
    [['blame', '-', 'a']],
    [['log', 'a']],
    [['help', 'blame']],
  ])('leaves %j to the whole CLI', (argv) => {
    expect(fastArgs(argv)).toBeNull();
  });

  it('the whole CLI still answers what the fast path leaves: help, and a usage error with exit 2', () => {
    const store = newStore();
    const help = ctx(store, ['blame', '--help']);
    expect([help.code, help.stdout.split('\n')[0]]).toEqual([0, 'Usage: ctx blame [options] <file>']);
    const bad = ctx(store, ['blame', 'a', '--color', 'sometimes']);
    expect([bad.code, bad.stderr]).toEqual([2, "ctx: option '--color <when>' argument 'sometimes' is invalid. Allowed choices are auto, always, never.\n"]);
    const role = ctx(store, ['grep', 'a', '--role', 'robot']);
    expect([role.code, role.stderr]).toEqual([2, "ctx: option '--role <role>' argument 'robot' is invalid. Allowed choices are user, assistant, tool.\n"]);
    const files = ctx(store, ['files', '--help']);
    expect([files.code, files.stdout.split('\n')[0]]).toEqual([0, 'Usage: ctx files [options] <path> [branch...]']);
  });

  it('reads exactly the options each command declares, as commander names them: no more, no fewer', () => {
    const decls: Record<FastCommand, { options: readonly { flags: string; choices?: readonly string[] }[] }> = { blame, files, grep };
    for (const command of Object.keys(SPECS) as FastCommand[]) {
      const decl = decls[command];
      const spec = SPECS[command];
      const declared: string[] = [];
      for (const o of decl.options) {
        const spellings = o.flags.split(/[ ,]+/).filter((s) => s.startsWith('-'));
        const long = spellings.find((s) => s.startsWith('--')) ?? spellings[0];
        // commander's key: `--ignore-case` → ignoreCase, `--no-index` → index (false), `-n` → n
        const key = long.replace(/^--(no-)?|^-/, '').replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
        const valued = /<[^>]+>/.test(o.flags);
        for (const s of spellings) {
          declared.push(s);
          const value = o.choices?.[0] ?? 'v';
          expect([command, s, fastArgs([command, 'x', s, ...(valued ? [value] : [])])?.opts[key]]).toEqual([command, s, valued ? value : !long.startsWith('--no-')]);
        }
      }
      expect([command, [...Object.keys(spec.valued), ...Object.keys(spec.bool)].sort()]).toEqual([command, declared.sort()]);
      expect([command, Object.entries(spec.choices ?? {})]).toEqual([command, decl.options.flatMap((o) => (o.choices ? [[o.flags.split(' ')[0], [...o.choices]]] : []))]);
    }
  });
});
