// An edit's line diff, in the terminal (output/edit-diff.ts) and in the web view (web/ui/hunks.ts):
// bounded, since a transcript's edit is someone else's input and a diff of texts that share little
// costs time in the product of their lengths.
import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { editCounts, editDiff } from '../src/output/edit-diff.js';
import { lineHunks } from '../src/web/ui/hunks.js';

const block = (tag: string, n: number) => Array.from({ length: n }, (_, i) => `${tag} ${i}`);
// 1,200 unlike lines each side around 10 shared ones: 2,400 changed lines, past the bound of 1,000
const old = [...block('a', 600), ...block('c', 10), ...block('A', 600)].join('\n');
const now = [...block('b', 600), ...block('c', 10), ...block('B', 600)].join('\n');
const whole = [...old.split('\n').map((l) => `-${l}`), ...now.split('\n').map((l) => `+${l}`)];

describe('an edit past 1,000 changed lines is one hunk, every old line out and every new one in', () => {
  it('in the terminal: the diff and its counts', () => {
    const v = { kind: 'edit' as const, path: 'f.txt', edits: [{ old, new: now }] };
    expect(editDiff(v, new Chalk({ level: 0 }))).toEqual(['--- f.txt', '+++ f.txt', '@@ -1,1210 +1,1210 @@', ...whole]);
    expect(editCounts(v)).toEqual({ added: 1210, removed: 1210 });
  });

  it('in the web view: the hunks', () => {
    expect(lineHunks(old, now)).toEqual([{ oldStart: 1, oldLines: 1210, newStart: 1, newLines: 1210, lines: whole }]);
  });

  it('a small edit keeps its context lines, as before', () => {
    expect(lineHunks('x\ny\nz', 'x\nY\nz')).toEqual([{ oldStart: 1, oldLines: 3, newStart: 1, newLines: 3, lines: [' x', '-y', '+Y', ' z'] }]);
    expect(lineHunks('', 'new')).toEqual([{ oldStart: 1, oldLines: 0, newStart: 1, newLines: 1, lines: ['+new'] }]);
  });
});
