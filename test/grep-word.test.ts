// ctx grep -w: whole words only, as grep -w takes them (no letter, digit or _ either side), with or
// without -F and -i; the matcher marks the word itself, not the characters around it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ctx } from './helpers.js';
import { FIND_ENV, findStore } from './find-store.js';
import { grepPattern } from '../src/core/grep-match.js';

const hits = (stdout: string) => stdout.trimEnd().split('\n').filter((l) => l).map((l) => JSON.parse(l)).map((h) => `${h.branch} ${h.entry}`);

describe('ctx grep -w', () => {
  let dir: string;
  let store: string;
  const grep = (args: string[]) => ctx(store, ['grep', ...args, '--json'], { env: FIND_ENV });
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'ctx-grep-w-'));
    store = findStore(dir);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('leaves out retryOnce and retries: what -w drops is exactly the matches inside a longer word', () => {
    const all = grep(['retry']);
    expect(hits(all.stdout)).toEqual(['alice/auth 1', 'alice/auth 3', 'alice/auth 5', 'alice/auth 6', 'alice/rename 7', 'bob/log 0', 'bob/log 3', 'bob/log 5', 'bob/log 9']);
    const word = grep(['-w', 'retry']);
    expect([word.code, word.stderr]).toEqual([0, '']);
    expect(hits(word.stdout)).toEqual(['alice/auth 1', 'alice/auth 5', 'alice/auth 6', 'bob/log 0', 'bob/log 3', 'bob/log 5', 'bob/log 9']);
    // the same with -F, with -i on another case, and with the long flag
    for (const args of [['-wF', 'retry'], ['-iw', 'RETRY'], ['--word-regexp', 'retry']]) expect([args, hits(grep(args).stdout)]).toEqual([args, hits(word.stdout)]);
    // a part of a word is no word: nothing, exit 1
    const part = grep(['-w', 'retr']);
    expect([part.code, part.stdout, part.stderr]).toEqual([1, '', '{"v":1,"error":"CtxError","message":"no match","exit":1}\n']);
  });

  it('marks the word alone, at the text edges too, and takes a regular expression and punctuation', () => {
    const find = (pattern: string, text: string, o: { fixed?: boolean; ignoreCase?: boolean } = {}) => grepPattern({ pattern, word: true, ...o }).find(text);
    expect(find('todo', 'todos and a todo.')).toEqual([12, 16]);
    expect(find('todo', 'todo')).toEqual([0, 4]);
    expect(find('todo', 'todo_list')).toBe(null);
    expect(find('todo', 'a2todo')).toBe(null);
    expect(find('tod[oa]', 'the toda list')).toEqual([4, 8]);
    expect(find('foo|foobar', 'foobar!')).toEqual([0, 6]);
    expect(find('(', 'f( x ( y', { fixed: true })).toEqual([5, 6]);
    expect(find('ÉTÉ', "l'été", { ignoreCase: true })).toEqual([2, 5]);
    // a pattern that would close the edges' group is refused as typed, and so is one with -i
    expect(() => find('a)(b', 'a b')).toThrow('grep: bad regular expression: unexpected ): `a)(b`');
    expect(() => find('(', 'x', { ignoreCase: true })).toThrow('grep: bad regular expression: missing closing ): `(`');
    expect(() => grepPattern({ pattern: '(', ignoreCase: true }).find('x')).toThrow('grep: bad regular expression: missing closing ): `(`');
    expect(find('été', 'étés')).toBe(null);
  });
});
