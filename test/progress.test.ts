// Progress on stderr: a bar with counts on a terminal, whatever width the terminal reports
// (0 columns once made ora loop forever); nothing on a pipe or under CI.
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CTX, FIXED_ENV, ctx, newStore, tempDir } from './helpers.js';
import { progress } from '../src/output/progress.js';

/** A 2 MB transcript of 14 turns, made here (no corpus needed): long enough for the bar to draw. */
function bigTranscript(): string {
  const file = join(tempDir(), 'big.jsonl');
  const text = 'the quick brown fox jumps over the lazy dog while the build runs again '.repeat(2000);
  const lines = Array.from({ length: 14 }, (_, i) => [
    { type: 'user', message: { role: 'user', content: `turn ${i}: ${text}` }, uuid: `u-${i}`, sessionId: 's-big' },
    { type: 'assistant', message: { id: `m-${i}`, role: 'assistant', content: [{ type: 'text', text: `done ${i}` }] }, uuid: `a-${i}`, sessionId: 's-big' },
  ]).flat();
  writeFileSync(file, lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
  return file;
}
const IMPORTED = /^x\tctx-[0-9a-f]{12}\t14 commits\n$/;

/** A shell command under a pseudo-terminal (util-linux `script`): exit code and what the terminal got. */
function onTerminal(command: string, env: Record<string, string> = {}): { code: number | null; out: string } {
  // a hung process is killed, so a regression fails instead of stalling the suite
  const r = spawnSync('script', ['-qec', command, '/dev/null'], {
    env: { PATH: process.env.PATH!, TERM: 'xterm', ...FIXED_ENV, ...env },
    encoding: 'utf8',
    timeout: 60_000,
    killSignal: 'SIGKILL',
  });
  return { code: r.status, out: (r.stdout ?? '').replace(/\r\n/g, '\n') };
}

const importBig = (store: string) => `node ${CTX} --store ${store} import claude-code ${bigTranscript()} -b x`;
/** what is left on the screen: every line erased by `\r ESC[K` is gone */
const screen = (out: string) => out.replace(/\r[^\r\n]*\x1b\[K/g, '').replace(/^[^\n]*\r\x1b\[K/gm, '');

describe('progress', () => {
  it('on a terminal that reports 0 columns, import finishes', () => {
    const r = onTerminal(`stty cols 0 rows 0; ${importBig(newStore())}`, { COLUMNS: '0' });
    expect(r.code).toBe(0);
    expect(r.out).toContain('14/14 commits');
    expect(screen(r.out)).toMatch(IMPORTED);
  });

  it('shows a bar with counts, then erases it; on a huge terminal too', () => {
    for (const cols of [100, 5000]) {
      const r = onTerminal(`stty cols ${cols}; ${importBig(newStore())}`);
      expect(r.code).toBe(0);
      expect(r.out).toMatch(/\rimporting big\.jsonl {2}\[#{20}\] 100% {2}14\/14 commits {2}[\d.]+ commits\/s\x1b\[K/);
      expect(r.out).toContain('\r\x1b[K');
      expect(screen(r.out)).toMatch(IMPORTED);
    }
  });

  it('narrow terminals get the line cut, never wrapped', () => {
    const r = onTerminal(`stty cols 30; ${importBig(newStore())}`);
    expect(r.code).toBe(0);
    for (const line of r.out.split('\r').filter((l) => l.startsWith('importing'))) expect([...line.replace(/\x1b\[K$/, '')].length).toBeLessThan(30);
  });

  it('nothing on a pipe, nothing under CI', () => {
    const err = join(tempDir(), 'stderr');
    const piped = onTerminal(`stty cols 100; ${importBig(newStore())} 2>${err}`);
    expect(piped.code).toBe(0);
    expect(readFileSync(err, 'utf8')).toBe('');
    expect(piped.out).toMatch(IMPORTED);
    const ci = onTerminal(`stty cols 100; ${importBig(newStore())}`, { CI: '1' });
    expect(ci.code).toBe(0);
    expect(ci.out).toMatch(IMPORTED);
    const store = newStore();
    const r = ctx(store, ['import', 'claude-code', bigTranscript(), '-b', 'x'], { env: FIXED_ENV });
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(IMPORTED);
  });

  it('summarize counts commits', () => {
    const store = newStore();
    expect(ctx(store, ['import', 'claude-code', bigTranscript(), '-b', 'x'], { env: FIXED_ENV }).code).toBe(0);
    const r = onTerminal(`stty cols 100; node ${CTX} --store ${store} summarize x --command 'head -c 5' >/dev/null`);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/\rsummarizing {2}\[#{20}\] 100% {2}14\/14 commits/);
    expect(screen(r.out)).toBe('14 annotated, 0 failed\n');
  });

  it("push and fetch pass git's own progress through on a terminal, and not under CI", () => {
    const store = newStore();
    const remote = join(tempDir(), 'remote.git');
    execFileSync('git', ['init', '-q', '--bare', remote]);
    expect(ctx(store, ['import', 'claude-code', bigTranscript(), '-b', 'x'], { env: FIXED_ENV }).code).toBe(0);
    expect(ctx(store, ['remote', 'add', 'origin', remote]).code).toBe(0);
    const push = onTerminal(`stty cols 100; node ${CTX} --store ${store} push --color never`);
    expect(push.code).toBe(0);
    expect(push.out).toMatch(/Writing objects: 100% \(\d+\/\d+\)/);
    const other = newStore();
    expect(ctx(other, ['remote', 'add', 'origin', remote]).code).toBe(0);
    const quiet = onTerminal(`stty cols 100; node ${CTX} --store ${other} fetch --color never`, { CI: '1' });
    expect(quiet.code).toBe(0);
    expect(quiet.out).not.toMatch(/objects/);
    expect(quiet.out).toMatch(/^From .*remote\.git\nnew +refs\/heads\/x → refs\/remotes\/origin\/x/);
  });
});

describe('the progress line', () => {
  const tty = (columns?: number) => {
    const writes: string[] = [];
    return { writes, stream: { isTTY: true, columns, write: (t: string) => writes.push(t) } };
  };
  let now = 0;
  const clock = () => now;

  it("draws a transport's `phase N/M` reports as a bar, other text as it is, and erases it once", () => {
    const { writes, stream } = tty(0);
    now = 0;
    const p = progress('fetch', '', stream, {}, clock);
    p.status('Compressing objects');
    now = 2000;
    p.status('Receiving objects 5/10');
    now = 2050;
    p.status('Receiving objects 6/10');
    now = 4000;
    p.status('Receiving objects 10/10');
    p.done();
    p.done();
    p.update(3, 4);
    expect(writes).toEqual([
      '\rfetch: Compressing objects\x1b[K',
      '\rfetch: Receiving objects  [##########..........]  50%  5/10  2.5/s  ETA 2s\x1b[K',
      '\rfetch: Receiving objects  [####################] 100%  10/10  2.5/s\x1b[K',
      '\r\x1b[K',
    ]);
  });

  it('counts bytes; writes nothing without a terminal or under CI', () => {
    const { writes, stream } = tty(200);
    now = 0;
    const p = progress('reading', 'bytes', stream, {}, clock);
    now = 3000;
    p.update(3 * 1024 * 1024, 8 * 1024 * 1024);
    expect(writes).toEqual(['\rreading  [########............]  37%  3.0 MiB/8.0 MiB  1.0 MiB/s  ETA 5s\x1b[K']);
    for (const [s, env] of [[{ ...stream, isTTY: false }, {}], [stream, { CI: 'true' }]] as const) {
      const quiet = tty();
      const q = progress('x', 'commits', { ...s, write: (text: string) => quiet.writes.push(text) }, env, clock);
      q.update(1, 2);
      q.done();
      expect(quiet.writes).toEqual([]);
    }
  });
});
