// Which arguments entry.ts hands to the fast path (dist/fast.cjs) and which to the whole CLI: the
// fast path takes only what it reads exactly as commander does.
import { describe, expect, it } from 'vitest';
import { fastArgs } from '../src/cli/fast-args.js';
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
  });
});
