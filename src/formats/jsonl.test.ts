// JSON Lines artifacts read entry by entry (meta.json's counts) fail exactly as when parsed whole.
import { describe, expect, it } from 'vitest';
import { eachObjectLine, parseObjectLines } from './jsonl.js';

const bytes = (s: string) => Buffer.from(s);
const errorOf = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    return (e as Error).message;
  }
  return 'no error';
};

describe('eachObjectLine', () => {
  it('gives each object line in order, the last line without its newline only at the end of a file', () => {
    const seen: unknown[] = [];
    eachObjectLine(bytes('{"a":1}\n{"b":"é"}'), { lastOfFile: true }, (e) => seen.push(e));
    expect(seen).toEqual([{ a: 1 }, { b: 'é' }]);
    expect(parseObjectLines(bytes('{"a":1}\n{"b":"é"}'), { lastOfFile: true })).toEqual(seen);
  });

  it.each([
    ['', 'empty artifact: no JSONL lines'],
    ['[1]\n{"a":\n', 'line 2 is not JSON (byte 4)'], // a line that is no JSON is named before an earlier one that is no object
    ['{"a":1}\n[1]\n3\n', 'line 2 is not a JSON object (byte 8)'],
    ['{"a":1}\n{"b":2}', 'line 2 does not end with a newline: artifacts are whole lines'],
    ['[1]\n{"b":2}', 'line 1 is not a JSON object (byte 0)'],
  ])('%j: %s, as parseObjectLines says', (text, message) => {
    expect(errorOf(() => eachObjectLine(bytes(text), undefined, () => {}))).toBe(message);
    expect(errorOf(() => parseObjectLines(bytes(text)))).toBe(message);
  });
});
