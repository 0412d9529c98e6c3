// Fixed CTX_NOW and metadata give exact commit ids; ids resolve by prefix, NAME~N and branch;
// forks share their parent and materialize independently.
import { describe, expect, it } from 'vitest';
import { ENGINES, FIXED_ENV, ctx, fsck, git, newStore, objectCount, refSnapshot } from './helpers.js';

const line = (text: string) => `{"type":"user","message":{"role":"user","content":${JSON.stringify(text)}}}\n`;

describe.each(ENGINES)('ids with the %s engine', (engine) => {
  const env = { ...FIXED_ENV, CTX_ENGINE: engine };
  const put = (store: string, branch: string, text: string, extra: string[] = []) =>
    ctx(store, ['checkpoint', '-b', branch, '--format', 'claude-code-v1', ...extra, '-'], { input: line(text), env });

  it('are exact and repeatable', () => {
    for (let round = 0; round < 2; round++) {
      const store = newStore();
      expect(put(store, 'main', 'hello', ['--summary', 'first'])).toMatchObject({ stdout: 'ctx-618d3283723b\n', code: 0, stderr: '' });
      expect(put(store, 'main', 'again')).toMatchObject({ stdout: 'ctx-49b1702a5ad7\n', code: 0 });
      expect(git(store, ['cat-file', 'commit', 'main~1'])).toBe(
        'tree 71ff6c8ef0f7d07a407cbf342be368f1fa6ce72f\n' +
          'author alice <alice@box> 1767323045 +0000\n' +
          'committer alice <alice@box> 1767323045 +0000\n\n' +
          'first\n\nCtx-Type: delta\nCtx-Format: claude-code-v1\nCtx-Session: s-1\nCtx-Template: test-agent\n',
      );
      expect(git(store, ['cat-file', 'blob', 'main~1:meta.json'])).toBe(
        '{"artifact":"blake3:e2bb6f0f55265bd65610f321eb0e79324f478e4372646eb51f38b1fa540e08ba","artifact_size":60,' +
          '"checkpoint":"explicit","created_at":"2026-01-02T03:04:05.678Z","format":"claude-code-v1","machine":"box",' +
          '"message_count":1,"principal":"alice","session_id":"s-1","summary":"first","template":"test-agent",' +
          '"token_count":1,"type":"delta","v":1}\n',
      );
    }
  });

  it('follow the repo’s token estimator: chars/4 when ctx.tokenCount says so; an unknown one writes nothing', () => {
    const store = newStore();
    git(store, ['config', 'ctx.tokenCount', 'chars/4']);
    expect(put(store, 'main', 'hello', ['--summary', 'first'])).toMatchObject({ stdout: 'ctx-771997308e9f\n', code: 0, stderr: '' });
    expect(JSON.parse(git(store, ['cat-file', 'blob', 'main:meta.json'])).token_count).toBe(2);
    git(store, ['config', 'ctx.tokenCount', 'words']);
    const before = refSnapshot(store) + objectCount(store);
    expect(put(store, 'main', 'again')).toMatchObject({ code: 2, stdout: '', stderr: "ctx: unknown token estimator 'words' (cl100k_base, chars/4)\n" });
    expect(refSnapshot(store) + objectCount(store)).toBe(before);
  });

  it('resolve from full ids, prefixes, bare hex, NAME~N and branches', () => {
    const store = newStore();
    put(store, 'main', 'hello', ['--summary', 'first']);
    put(store, 'main', 'again');
    const full = 'ctx-618d3283723b';
    for (const spec of [full, 'ctx-618d', '618d3283', 'main~1', 'main^']) {
      const shown = ctx(store, ['show', spec, '--json'], { env });
      expect(shown.code).toBe(0);
      expect(JSON.parse(shown.stdout).id.startsWith(full)).toBe(true);
    }
    expect(ctx(store, ['show', 'main~2'], { env })).toMatchObject({ code: 4, stderr: 'ctx: main~2: the chain has only 2 commits\n' });
  });

  it('fork: both chains share the parent and materialize independently', () => {
    const store = newStore();
    put(store, 'alice/auth-fix', 'one');
    const base = put(store, 'alice/auth-fix', 'two').stdout.trim();
    expect(ctx(store, ['fork', base, 'review/finding-1'], { env })).toMatchObject({ code: 0, stdout: `review/finding-1\t${base}\n` });
    expect(ctx(store, ['fork', base, 'review/finding-1'], { env })).toMatchObject({ code: 1, stderr: 'ctx: branch review/finding-1 already exists\n' });
    put(store, 'alice/auth-fix', 'three-a');
    put(store, 'review/finding-1', 'three-b');
    const parentOf = (b: string) => git(store, ['rev-parse', `${b}~1`]).trim();
    expect(parentOf('alice/auth-fix')).toBe(parentOf('review/finding-1'));
    expect(`ctx-${parentOf('review/finding-1').slice(0, 12)}`).toBe(base);
    expect(ctx(store, ['materialize', 'alice/auth-fix'], { env }).stdout).toBe(line('one') + line('two') + line('three-a'));
    expect(ctx(store, ['materialize', 'review/finding-1'], { env }).stdout).toBe(line('one') + line('two') + line('three-b'));
    expect(ctx(store, ['materialize', 'review/finding-1', '--stop', base], { env }).stdout).toBe(line('two') + line('three-b'));
    const fork = ctx(store, ['fork', 'alice/auth-fix~2'], { env });
    expect(fork.stdout).toMatch(/^fork\/[0-9a-f]{12}\tctx-[0-9a-f]{12}\n$/);
    expect(fsck(store)).toEqual({ code: 0, output: '' });
  });
});
