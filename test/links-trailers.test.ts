// The trailers ctx's prepare-commit-msg adds: written in-process when the message ends plainly, and
// then byte for byte what `git interpret-trailers --if-exists addIfDifferent --where end` writes.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { addTrailers, plainEnd } from '../src/store/code/repo.js';
import { tempDir } from './helpers.js';

const C1 = `Ctx-Context: ctx-${'a'.repeat(40)}`;
const C2 = `Ctx-Context: ctx-${'b'.repeat(40)}`;
const AB = 'Assisted-by: claude-code:claude-test-1';
const ENV = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };

/** git's own answer for `message` with `trailers`. */
function gits(dir: string, message: string, trailers: string[]): string {
  const f = join(dir, 'git-msg');
  writeFileSync(f, message);
  execFileSync('git', ['interpret-trailers', '--in-place', '--if-exists', 'addIfDifferent', '--where', 'end', ...trailers.flatMap((t) => ['--trailer', t]), f], { cwd: dir, env: ENV });
  return readFileSync(f, 'utf8');
}

describe('addTrailers', () => {
  const plain = ['fix a\n', 'fix a\n\nWhy it changed.\n', 'fix a\n\nA body\nof two lines.\n\nAnd a third paragraph, no colon here\n', 'subject: with a colon\n'];
  const notPlain = ['fix a', 'fix a\n\n', 'two\nlines\n', 'fix a\n\nSigned-off-by: Dev <dev@example.com>\n', 'fix a\n\n# a comment\n', 'fix a\r\n', 'fix a\n\nbody\n---\nnotes\n', 'fix a\n\n  indented\n', 'fix a\n\nKey = value\n', 'fix a\n \n'];

  it.each(plain)('writes %j in-process, as git does, with two sessions of one runtime (their Assisted-by once)', (message) => {
    const dir = tempDir();
    execFileSync('git', ['init', '-q', dir], { env: ENV });
    const trailers = [C1, AB, C2, AB];
    expect(plainEnd(message)).toBe(true);
    const f = join(dir, 'msg');
    writeFileSync(f, message);
    // PATH without git: the in-process path must not need it
    addTrailers(dir, f, trailers, { ...ENV, PATH: '/nonexistent' }, false);
    expect(readFileSync(f, 'utf8')).toBe(gits(dir, message, trailers));
  });

  it.each(notPlain)('leaves %j to git, and git gives the same as before', (message) => {
    const dir = tempDir();
    execFileSync('git', ['init', '-q', dir], { env: ENV });
    expect(plainEnd(message)).toBe(false);
    const f = join(dir, 'msg');
    writeFileSync(f, message);
    addTrailers(dir, f, [C1, AB], ENV, false);
    expect(readFileSync(f, 'utf8')).toBe(gits(dir, message, [C1, AB]));
  });
});
