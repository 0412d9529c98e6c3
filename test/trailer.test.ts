// The walk reads a commit's type and format with trailer(), which must say what parseTrailers says.
import { describe, expect, it } from 'vitest';
import { trailer } from '../src/api/read/context-reader.js';
import { parseTrailers } from '../src/core/meta.js';
import { prng } from './fuzz-kit.js';

const PIECES = ['Ctx-Type: delta', 'Ctx-Type: compaction', 'Ctx-Format: claude-code-v1', 'Ctx-Format: x\r', 'Ctx-Type: a\u2028b', 'Ctx-Type:', 'Ctx-Type: ', 'ctx-type: delta', ' Ctx-Type: delta', 'summary', '', 'Ctx-Session: s'];

describe('trailer', () => {
  it('equals parseTrailers on 5,000 seeded messages of trailer-like lines', () => {
    const diffs: string[] = [];
    for (let seed = 0; seed < 5000; seed++) {
      const r = prng(seed);
      const message = Array.from({ length: 1 + r.int(6) }, () => r.pick(PIECES)).join(r.chance(0.1) ? '\r\n' : '\n') + (r.chance(0.5) ? '\n' : '');
      for (const key of ['Ctx-Type', 'Ctx-Format'])
        if (trailer(message, key) !== parseTrailers(message)[key]) diffs.push(`${JSON.stringify(message)} ${key}: ${trailer(message, key)} ≠ ${parseTrailers(message)[key]}`);
    }
    expect(diffs.slice(0, 5)).toEqual([]);
  });

  it('reads the last of several lines, as parseTrailers does', () => {
    expect(trailer('Ctx-Type: delta\n\nCtx-Type: compaction\n', 'Ctx-Type')).toBe('compaction');
    expect(trailer('delta\n\nCtx-Type: delta\nCtx-Format: codex-rollout-v1\n', 'Ctx-Format')).toBe('codex-rollout-v1');
    expect(trailer('delta\n', 'Ctx-Type')).toBeUndefined();
  });
});
