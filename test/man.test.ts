// Every man page renders without a groff warning, and says what it means: `.BR` joins its arguments,
// so a space inside one used to vanish (`claude--resumeUUID` in ctx-export.1).
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './helpers.js';

const has = (cmd: string) => spawnSync(cmd, ['--version'], { encoding: 'utf8' }).status === 0;
const GROFF = has('groff');
const MAN = has('man');
const PAGES = readdirSync(join(ROOT, 'man')).filter((f) => f.endsWith('.1')).sort();
const ENV = { ...process.env, MANWIDTH: '80', MANPAGER: 'cat', PAGER: 'cat', LC_ALL: 'C.UTF-8' };

/** The page as a reader sees it, 80 columns, no overstrike or colour; and what the formatter warned. */
function render(page: string): { text: string; warnings: string } {
  const file = join(ROOT, 'man', page);
  const r = MAN
    ? spawnSync('man', ['-l', file], { encoding: 'utf8', env: ENV })
    : spawnSync('groff', ['-man', '-Tutf8', '-rLL=80n', '-P', '-cbou', file], { encoding: 'utf8', env: ENV });
  // -ww: every warning groff has, not only the default ones man asks for
  const warnings = GROFF ? spawnSync('groff', ['-man', '-Tutf8', '-ww', '-z', file], { encoding: 'utf8', env: ENV }).stderr : r.stderr;
  return { text: r.stdout, warnings };
}

const SKIP = !GROFF && !MAN;
describe.skipIf(SKIP)(`man pages${SKIP ? ' (skipped: neither man nor groff is installed)' : ''}`, () => {
  it.each(PAGES)('%s renders without a warning', (page) => {
    const { text, warnings } = render(page);
    expect(warnings).toBe('');
    expect(text).toMatch(/^NAME$/m);
  });

  it('ctx-export.1 shows the resume command with its spaces, and the --json record whole', () => {
    const { text } = render('ctx-export.1');
    expect(text).toContain('Exactly claude --resume UUID and a newline');
    expect(text).toContain('{"v":1,"session_id":"UUID","path":"file","command":"claude --resume UUID","branch":"claude/UUID"}');
    expect(text).not.toContain('claude--resume');
  });
});
