// Gemini CLI chats: one snapshot commit per saved chat, byte-exact (pretty-printed, no trailing
// newline); a later save of the same chat adds a snapshot on top; an identical one writes nothing.
import { readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { expect, it } from 'vitest';
import { ENGINES, corpusFiles, ctx, describeCorpus, fsck, git, newStore, objectCount, refSnapshot, tempDir } from './helpers.js';

const ENV = { CTX_PRINCIPAL: 'corpus', CTX_MACHINE: 'ci', CTX_NOW: '2026-01-02T03:04:05.678Z' };
const files = corpusFiles('gemini-cli', '.json');
const SESSIONS: Record<string, string> = {
  'jnarowski__agentcmd__session-2025-10-27T19-55-981c87cb.json': '981c87cb-90ef-4c7f-948d-23173ff43e4e',
  'jnarowski__agentcmd__session-2025-10-29T10-36-453aa339.json': '453aa339-7d2b-4709-a41a-b0b73beaff85',
};
const SMALL = files.find((f) => basename(f).includes('453aa339'))!;

/** The same chat saved again by Gemini after one more exchange: the whole file rewritten. */
function laterSave(dir: string): string {
  const chat = JSON.parse(readFileSync(SMALL, 'utf8'));
  chat.messages.push({ id: 'u-2', timestamp: '2025-10-29T10:40:00.000Z', type: 'user', content: 'Now change it back.' });
  chat.lastUpdated = '2025-10-29T10:40:00.000Z';
  const file = join(dir, basename(SMALL));
  writeFileSync(file, JSON.stringify(chat, null, 2));
  return file;
}

describeCorpus.each(ENGINES)('gemini-cli import with the %s engine', (engine) => {
  const env = { ...ENV, CTX_ENGINE: engine };

  it('imports every chat as one snapshot and materializes --stop root byte-identical', () => {
    expect(files.map((f) => basename(f)).sort()).toEqual(Object.keys(SESSIONS).sort());
    const store = newStore();
    for (const file of files) {
      const session = SESSIONS[basename(file)];
      const imported = ctx(store, ['import', 'gemini-cli', file], { env });
      expect([imported.code, imported.stderr]).toEqual([0, '']);
      expect(imported.stdout).toMatch(new RegExp(`^gemini/${session}\tctx-[0-9a-f]{12}\t1 commits\n$`));
      const root = ctx(store, ['materialize', `gemini/${session}`, '--stop', 'root', '--verify'], { env });
      expect(root.code).toBe(0);
      expect(root.bytes.equals(readFileSync(file))).toBe(true);
      const [rec] = ctx(store, ['log', `gemini/${session}`, '--json'], { env }).stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
      expect(rec).toMatchObject({ type: 'snapshot', format: 'gemini-cli-chat-v1', message_count: JSON.parse(readFileSync(file, 'utf8')).messages.length });
    }
    expect(fsck(store)).toEqual({ code: 0, output: '' });
    expect(ctx(store, ['verify', '--all'], { env }).stdout).toMatch(/^ok 2 commits\n$/);
  });

  it('adds a later save of the chat as a snapshot on top; an identical save writes nothing', () => {
    const store = newStore();
    const branch = `gemini/${SESSIONS[basename(SMALL)]}`;
    expect(ctx(store, ['import', 'gemini-cli', SMALL], { env }).code).toBe(0);
    const before = [refSnapshot(store), objectCount(store)];
    const again = ctx(store, ['import', 'gemini-cli', SMALL], { env });
    expect([again.code, again.stderr]).toEqual([0, `${branch} already holds this chat: nothing written\n`]);
    expect(again.stdout).toMatch(/\t0 commits\n$/);
    expect([refSnapshot(store), objectCount(store)]).toEqual(before);

    const later = laterSave(tempDir());
    expect(ctx(store, ['import', 'gemini-cli', later], { env }).stdout).toMatch(/\t1 commits\n$/);
    const log = ctx(store, ['log', branch, '--json'], { env }).stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
    expect(log.map((r) => [r.type, r.summary])).toEqual([
      ['snapshot', 'Now change it back.'],
      ['snapshot', "Change 'Hello' to 'Goodbye' in /tmp/gemini-test/created.txt"],
    ]);
    expect(ctx(store, ['materialize', branch, '--stop', 'root'], { env }).bytes.equals(readFileSync(later))).toBe(true);
    expect(ctx(store, ['materialize', `${branch}~1`, '--stop', 'root'], { env }).bytes.equals(readFileSync(SMALL))).toBe(true);
    expect(fsck(store)).toEqual({ code: 0, output: '' });
  });

  it('refuses a file that is not a chat, writing nothing', () => {
    const store = newStore();
    const bad = join(tempDir(), 'session.json');
    writeFileSync(bad, '{"sessionId":"x"}');
    const r = ctx(store, ['import', 'gemini-cli', bad], { env });
    expect([r.code, r.stderr]).toEqual([2, `ctx: ${bad} is not a Gemini CLI session (line 1 has no known type)\n`]);
    expect(refSnapshot(store)).toBe('');
  });
});

describeCorpus('the two engines', () => {
  it('write identical commit ids for every chat', () => {
    const tips = ENGINES.map((engine) => {
      const store = newStore();
      return files.map((file) => {
        const r = ctx(store, ['import', 'gemini-cli', file], { env: { ...ENV, CTX_ENGINE: engine } });
        expect(r.code).toBe(0);
        return git(store, ['rev-parse', `gemini/${SESSIONS[basename(file)]}`]).trim();
      });
    });
    expect(tips[1]).toEqual(tips[0]);
  });
});
