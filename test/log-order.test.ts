// `ctx log --all` in topological order, like `git log --topo-order`: created_at is not monotonic along
// a chain (a transcript's timestamps, a clock that moved), so it only orders lines, never a chain.
import { describe, expect, it } from 'vitest';
import { renderGraph } from '../src/output/graph.js';
import { ENGINES, ctx, newStore } from './helpers.js';

const ENV = { CTX_PRINCIPAL: 'alice', CTX_MACHINE: 'box', CTX_TEMPLATE: 'test-agent', CTX_SESSION: 's-1' };

function checkpoint(store: string, branch: string, time: string, summary: string) {
  const line = `${JSON.stringify({ type: 'user', message: { role: 'user', content: summary } })}\n`;
  const r = ctx(store, ['checkpoint', '-b', branch, '--format', 'claude-code-v1', '--summary', summary, '-'], { input: line, env: { ...ENV, CTX_NOW: `2026-01-02T${time}:00.000Z` } });
  expect([r.code, r.stderr]).toEqual([0, '']);
}

function fork(store: string, from: string, name: string) {
  expect(ctx(store, ['fork', from, name], { env: ENV }).code).toBe(0);
}

/**
 * main: m1 10:00, m2 09:00, m3 11:00, m4 08:00 (each younger than its parent or not);
 * f from m2 (12:00, the newest commit), g from m3 (09:30), h from m2 (08:30); `other` unrelated.
 */
function forks(): string {
  const s = newStore();
  checkpoint(s, 'main', '10:00', 'm1');
  checkpoint(s, 'main', '09:00', 'm2');
  checkpoint(s, 'main', '11:00', 'm3');
  checkpoint(s, 'main', '08:00', 'm4');
  fork(s, 'main~2', 'f');
  checkpoint(s, 'f', '12:00', 'f1');
  fork(s, 'main~1', 'g');
  checkpoint(s, 'g', '09:30', 'g1');
  fork(s, 'main~2', 'h');
  checkpoint(s, 'h', '08:30', 'h1');
  checkpoint(s, 'other', '10:30', 'o1');
  checkpoint(s, 'other', '07:00', 'o2');
  return s;
}

const ids = (out: string) => out.replace(/ctx-[0-9a-f]{12}/g, 'ctx-ID');

describe('ctx log --all: topological order', () => {
  it('--graph: one lane per line of descent, forks joining above the commit they fork from', () => {
    const s = forks();
    const r = ctx(s, ['log', '--all', '--graph'], { env: ENV });
    expect([ids(r.stdout), r.stderr, r.code]).toEqual([
      [
        '* ctx-ID delta 2026-01-02 12:00 (f) f1',
        '| * ctx-ID delta 2026-01-02 09:30 (g) g1',
        '| | * ctx-ID delta 2026-01-02 08:00 (main) m4',
        '| |/',
        '| * ctx-ID delta 2026-01-02 11:00 m3',
        '| | * ctx-ID delta 2026-01-02 08:30 (h) h1',
        '| |/',
        '|/',
        '* ctx-ID delta 2026-01-02 09:00 m2',
        '* ctx-ID delta 2026-01-02 10:00 m1',
        '* ctx-ID delta 2026-01-02 07:00 (other) o2',
        '* ctx-ID delta 2026-01-02 10:30 o1',
        '',
      ].join('\n'),
      '',
      0,
    ]);
  });

  it('a single chain whose times go back and forth is one lane', () => {
    const s = newStore();
    ['10:00', '09:00', '11:00', '08:00', '09:59'].forEach((t, i) => checkpoint(s, 'main', t, `c${i + 1}`));
    checkpoint(s, 'later', '07:00', 'x1');
    expect(ids(ctx(s, ['log', '--all', '--graph'], { env: ENV }).stdout)).toBe(
      [
        '* ctx-ID delta 2026-01-02 09:59 (main) c5',
        '* ctx-ID delta 2026-01-02 08:00 c4',
        '* ctx-ID delta 2026-01-02 11:00 c3',
        '* ctx-ID delta 2026-01-02 09:00 c2',
        '* ctx-ID delta 2026-01-02 10:00 c1',
        '* ctx-ID delta 2026-01-02 07:00 (later) x1',
        '',
      ].join('\n'),
    );
  });

  it('without --graph, and with --json, the same order; -n keeps its head', () => {
    const s = forks();
    const order = ['f1', 'g1', 'm4', 'm3', 'h1', 'm2', 'm1', 'o2', 'o1'];
    const lines = ctx(s, ['log', '--all'], { env: ENV }).stdout.trimEnd().split('\n');
    expect(lines.map((l) => l.split('\t')[5])).toEqual(order);
    const json = ctx(s, ['log', '--all', '--json'], { env: ENV }).stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
    expect(json.map((r) => r.summary)).toEqual(order);
    expect(json.map((r) => r.id)).toEqual(lines.map((l) => json.find((r) => r.id.startsWith(l.split('\t')[0]))!.id));
    expect(ctx(s, ['log', '--all', '-n', '4'], { env: ENV }).stdout.trimEnd().split('\n').map((l) => l.split('\t')[5])).toEqual(order.slice(0, 4));
    // one chain: first-parent order, as before
    expect(ctx(s, ['log', 'main'], { env: ENV }).stdout.trimEnd().split('\n').map((l) => l.split('\t')[5])).toEqual(['m4', 'm3', 'm2', 'm1']);
  });
});

describe('lines whose newest commits are in the same second', () => {
  // ordered to the second, as each commit's own time has it: a listing with -n orders the store from
  // the commit-graph's times, and both must agree with the whole listing
  it.each(ENGINES)('ids decide, not the milliseconds, with and without -n (%s engine)', (engine) => {
    const s = newStore();
    const at = (branch: string, ms: string) => {
      const line = `${JSON.stringify({ type: 'user', message: { role: 'user', content: branch } })}\n`;
      const r = ctx(s, ['checkpoint', '-b', branch, '--format', 'claude-code-v1', '--summary', branch, '-'], { input: line, env: { ...ENV, CTX_NOW: `2026-01-02T12:00:00.${ms}Z` } });
      expect([r.code, r.stdout]).toEqual([0, `${branch === 'x' ? 'ctx-311fb53a05da' : 'ctx-8fe502dcf1c6'}\n`]);
    };
    at('x', '900');
    at('y', '100');
    const env = { ...ENV, CTX_ENGINE: engine };
    const summaries = (args: string[]) => ctx(s, ['log', '--all', ...args], { env }).stdout.trimEnd().split('\n').map((l) => l.split('\t')[5]);
    expect(summaries([])).toEqual(['y', 'x']);
    expect(summaries(['-n', '1'])).toEqual(['y']);
  });
});

describe('renderGraph', () => {
  it('a lane joining across an empty lane draws `_` up to the `/`', () => {
    const nodes = [
      { id: 'a', parent: 'p' },
      { id: 'b', parent: 'q' },
      { id: 'c', parent: 'q' },
      { id: 'd', parent: 'p' },
      { id: 'q', parent: 'p' },
      { id: 'p', parent: null },
    ];
    expect(renderGraph(nodes, (n) => n.id)).toBe(['* a', '| * b', '| | * c', '| | | * d', '| |/', '| *   | q', '| |__/', '|/', '* p', ''].join('\n'));
  });
});
