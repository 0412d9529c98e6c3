// The web view's line diff (an edit's lines in file history): the longest common subsequence kept,
// the rest taken out then put in, in order.
import { describe, expect, it } from 'vitest';
import { lineDiff } from '../src/web/ui/line-diff.js';

describe('lineDiff', () => {
  it('keeps the lines both hold and marks the rest, in order', () => {
    expect(lineDiff(['a', 'b', 'c', 'd'], ['a', 'x', 'c', 'd', 'e'])).toEqual([
      ['same', 'a'],
      ['del', 'b'],
      ['add', 'x'],
      ['same', 'c'],
      ['same', 'd'],
      ['add', 'e'],
    ]);
    expect(lineDiff([], ['new file', 'two'])).toEqual([
      ['add', 'new file'],
      ['add', 'two'],
    ]);
    expect(lineDiff(['gone'], [])).toEqual([['del', 'gone']]);
    expect(lineDiff(['x', 'y'], ['y', 'x'])).toEqual([
      ['del', 'x'],
      ['same', 'y'],
      ['add', 'x'],
    ]);
  });

  it('past 4 million cells, every old line out and every new one in', () => {
    const old = Array.from({ length: 2001 }, (_, i) => `l${i}`);
    const out = lineDiff(old, old);
    expect([out.length, out[0], out[2001]]).toEqual([4002, ['del', 'l0'], ['add', 'l0']]);
    expect(lineDiff(old.slice(0, 2000), old.slice(0, 2000)).every(([k]) => k === 'same')).toBe(true);
  });
});
