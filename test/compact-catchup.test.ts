// `ctx compact` catches up first: transcript bytes the chain does not hold yet (a live session the hook
// follows, or a file named with --transcript) are checkpointed as the hook would, then compacted.
import { appendFileSync, existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { corpusBytes, ctx, describeCorpus, fsck, git, newStore, objectCount, refSnapshot, tempDir } from './helpers.js';

const ENV = { CTX_PRINCIPAL: 'hook', CTX_MACHINE: 'ci', CTX_NOW: '2026-01-02T03:04:05.678Z' };
// a session of eight prompts, so a catch-up makes several commits
const SESSION = '03eb5929-52b3-4b13-ada3-b93ae35806b8';
const BYTES = corpusBytes('claude-code', `iansherr__claude-code-log__-experiments-ideas__${SESSION}.jsonl`);
const BRANCH = `claude/${SESSION}`;
const COMPACT = ['--policy', 'summarize', '--keep-turns', '2'];

/** The end of the line holding byte `at`: cuts at line boundaries only. */
const lineEnd = (at: number) => BYTES.indexOf(10, at) + 1;
const CUT1 = lineEnd(Math.floor(BYTES.length * 0.3));
const CUT2 = lineEnd(Math.floor(BYTES.length * 0.6));

function hook(store: string, transcript: string, event = 'Stop') {
  const input = JSON.stringify({ session_id: SESSION, transcript_path: transcript, hook_event_name: event, cwd: join(transcript, '..') });
  const r = ctx(store, ['hook', 'claude-code'], { input, env: ENV });
  expect([r.code, r.stdout, r.stderr]).toEqual([0, '', '']);
  expect(existsSync(join(store, 'ctx', 'hook.log'))).toBe(false);
}

/** A store whose hook captured the transcript up to `cut`; the transcript file, grown to `to`. */
function captured(cut: number, to: number) {
  const store = newStore();
  const transcript = join(tempDir(), `${SESSION}.jsonl`);
  writeFileSync(transcript, BYTES.subarray(0, cut));
  hook(store, transcript);
  appendFileSync(transcript, BYTES.subarray(cut, to));
  return { store, transcript, before: tip(store, BRANCH) };
}

const tip = (store: string, branch: string) => git(store, ['rev-parse', branch]).trim();
/** Newest first: each first-parent commit from `branch` down to (not including) `stop`, as `ctx-<hex> ctx-<parent>`. */
function links(store: string, branch: string, stop: string): string[][] {
  return git(store, ['log', '--first-parent', '--format=%H %P', `${stop}..${branch}`])
    .split('\n')
    .filter(Boolean)
    .map((l) => l.split(' ').slice(0, 2).map((h) => `ctx-${h}`));
}
const state = (store: string) => JSON.parse(readFileSync(join(store, 'ctx', 'hooks', `${SESSION}.json`), 'utf8'));
const artifactOf = (store: string, id: string) => Buffer.from(git(store, ['show', `${id.slice(4)}:delta.jsonl`]), 'utf8');
const meta = (store: string, id: string) => JSON.parse(git(store, ['show', `${id.slice(4)}:meta.json`]));

describeCorpus('ctx compact catches up with the transcript first', () => {
  it('a live session: the bytes the hook has not captured yet become commits before the compaction; --stop root is the whole file', () => {
    const { store, transcript, before } = captured(CUT1, BYTES.length);
    const r = ctx(store, ['--json', 'compact', BRANCH, ...COMPACT], { env: ENV });
    expect(r.code, r.stderr).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(Object.keys(j)).toEqual(['v', 'id', 'branch', 'parent', 'format', 'compacted', 'caught_up', 'messages_before', 'messages_after', 'tokens_before', 'tokens_after', 'stages']);
    expect(j.caught_up.length).toBe(6); // the prompts after the cut, one commit each, as the hook splits them
    // the chain: old tip ← catch-up commits, oldest first ← the compaction
    const chain = links(store, BRANCH, before).reverse();
    expect(chain).toEqual([...j.caught_up, j.id].map((id: string, i: number, all: string[]) => [id, i === 0 ? `ctx-${before}` : all[i - 1]]));
    expect(j.parent).toBe(j.caught_up[j.caught_up.length - 1]);
    expect(j.compacted.slice(-j.caught_up.length)).toEqual(j.caught_up);
    expect(r.stderr.split('\n').filter((l) => l.startsWith('caught up ')).map((l) => l.split(' ')[2])).toEqual(j.caught_up.map((id: string) => id.slice(0, 16)));
    expect(r.stderr).toContain(`caught up ${j.caught_up[0].slice(0, 16)} from ${transcript}: `);
    // the catch-up commits hold the new bytes, in order, and say where in the file they came from
    expect(Buffer.concat(j.caught_up.map((id: string) => artifactOf(store, id))).equals(BYTES.subarray(CUT1))).toBe(true);
    expect(meta(store, j.caught_up[0])).toMatchObject({ type: 'delta', checkpoint: 'compaction', template: 'claude-code', session_id: SESSION, source: { file: `${SESSION}.jsonl`, offset: CUT1 } });
    expect(ctx(store, ['materialize', BRANCH, '--stop', 'root']).bytes.equals(BYTES)).toBe(true);
    // the compacted context ends with the transcript's last line: the caught-up turn was kept
    const compacted = ctx(store, ['materialize', BRANCH]).stdout.split('\n').filter(Boolean);
    expect(`${compacted[compacted.length - 1]}\n`).toBe(BYTES.subarray(BYTES.lastIndexOf(10, BYTES.length - 2) + 1).toString('utf8'));
    expect(fsck(store)).toEqual({ code: 0, output: '' });
    expect(ctx(store, ['verify', BRANCH]).code).toBe(0);
  });

  it('catches up exactly as a PreCompact hook call would: the same commits, byte for byte', () => {
    const a = captured(CUT1, BYTES.length);
    const j = JSON.parse(ctx(a.store, ['--json', 'compact', BRANCH, ...COMPACT], { env: ENV }).stdout);
    const b = captured(CUT1, BYTES.length);
    hook(b.store, b.transcript, 'PreCompact');
    expect(links(b.store, BRANCH, b.before).map(([id]) => id).reverse()).toEqual(j.caught_up);
  });

  it('the hook state follows the compaction: the next hook call extends it, and the root walk still gives every byte', () => {
    const { store, transcript } = captured(CUT1, CUT2);
    const j = JSON.parse(ctx(store, ['--json', 'compact', BRANCH, ...COMPACT], { env: ENV }).stdout);
    expect(ctx(store, ['materialize', BRANCH, '--stop', 'root']).bytes.equals(BYTES.subarray(0, CUT2))).toBe(true);
    expect(state(store)).toMatchObject({ branch: BRANCH, tip: j.id.slice(4), offset: CUT2, transcript, session: SESSION });
    appendFileSync(transcript, BYTES.subarray(CUT2));
    hook(store, transcript);
    const after = links(store, BRANCH, j.id.slice(4));
    expect(after.length).toBe(3);
    expect(after[after.length - 1][1]).toBe(j.id);
    expect(ctx(store, ['materialize', BRANCH, '--stop', 'root']).bytes.equals(BYTES)).toBe(true);
    // nothing new: a second compaction catches up nothing and compacts the tip
    const again = JSON.parse(ctx(store, ['--json', 'compact', BRANCH, ...COMPACT], { env: ENV }).stdout);
    expect([again.caught_up, again.parent]).toEqual([[], `ctx-${tip(store, `${BRANCH}~1`)}`]);
    expect(fsck(store)).toEqual({ code: 0, output: '' });
  });

  it('with the state gone, the hook re-derives its offset through the compaction', () => {
    const { store, transcript } = captured(CUT1, CUT2);
    expect(ctx(store, ['compact', BRANCH, ...COMPACT], { env: ENV }).code).toBe(0);
    rmSync(join(store, 'ctx', 'hooks', `${SESSION}.json`));
    appendFileSync(transcript, BYTES.subarray(CUT2));
    hook(store, transcript);
    expect(ctx(store, ['materialize', BRANCH, '--stop', 'root']).bytes.equals(BYTES)).toBe(true);
  });

  it('--transcript: an imported session that kept growing; what the chain holds is its root walk, a prefix of the file', () => {
    const store = newStore();
    const file = join(tempDir(), 'grown.jsonl');
    writeFileSync(file, BYTES.subarray(0, CUT1));
    expect(ctx(store, ['import', 'claude-code', file, '-b', 'imp'], { env: ENV }).code).toBe(0);
    appendFileSync(file, BYTES.subarray(CUT1));
    const before = tip(store, 'imp');
    const r = ctx(store, ['--json', 'compact', 'imp', '--transcript', file, ...COMPACT], { env: ENV });
    expect(r.code, r.stderr).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j.caught_up.length).toBe(6); // the prompts after the cut, one commit each, as the hook splits them
    expect(links(store, 'imp', before).reverse()).toEqual([...j.caught_up, j.id].map((id: string, i: number, all: string[]) => [id, i === 0 ? `ctx-${before}` : all[i - 1]]));
    expect(Buffer.concat(j.caught_up.map((id: string) => artifactOf(store, id))).equals(BYTES.subarray(CUT1))).toBe(true);
    // the new commits carry the imported chain's session and continue its source ranges
    expect(meta(store, j.caught_up[0])).toMatchObject({ checkpoint: 'compaction', session_id: SESSION, source: { file: 'grown.jsonl', offset: CUT1 } });
    expect(ctx(store, ['materialize', 'imp', '--stop', 'root']).bytes.equals(BYTES)).toBe(true);
    // no hook state is made for a chain no hook follows
    expect(existsSync(join(store, 'ctx', 'hooks')) ? readdirSync(join(store, 'ctx', 'hooks')) : []).toEqual([]);
    // the file holds nothing more: the next compaction catches up nothing, through the synthetic one
    const again = JSON.parse(ctx(store, ['--json', 'compact', 'imp', '--transcript', file, ...COMPACT], { env: ENV }).stdout);
    expect([again.caught_up, again.parent]).toEqual([[], j.id]);
    expect(fsck(store)).toEqual({ code: 0, output: '' });
  });

  describe('a transcript that does not extend the chain', () => {
    const unchanged = (store: string, f: () => void) => {
      const [refsBefore, objectsBefore] = [refSnapshot(store), objectCount(store)];
      f();
      expect([refSnapshot(store), objectCount(store)]).toEqual([refsBefore, objectsBefore]);
    };

    it('--transcript naming another file, a shorter one or none at all: a one-line error, nothing written', () => {
      const store = newStore();
      const file = join(tempDir(), 'imp.jsonl');
      writeFileSync(file, BYTES.subarray(0, CUT2));
      expect(ctx(store, ['import', 'claude-code', file, '-b', 'imp'], { env: ENV }).code).toBe(0);
      const changed = Buffer.from(BYTES);
      changed[10] ^= 1;
      const cases: [Buffer, number, string][] = [
        [changed, 1, `ctx: ${file} is not an extension of imp: its first ${CUT2} bytes are not the chain's`],
        [BYTES.subarray(0, CUT1), 1, `ctx: ${file} is not an extension of imp: its first ${CUT2} bytes are not the chain's`],
      ];
      for (const [bytes, code, stderr] of cases) {
        writeFileSync(file, bytes);
        unchanged(store, () => {
          const r = ctx(store, ['compact', 'imp', '--transcript', file, ...COMPACT], { env: ENV });
          expect([r.code, r.stdout, r.stderr]).toEqual([code, '', `${stderr}\n`]);
        });
      }
      unchanged(store, () => {
        const r = ctx(store, ['compact', 'imp', '--transcript', join(file, '..', 'gone.jsonl'), ...COMPACT], { env: ENV });
        expect([r.code, r.stderr]).toEqual([4, `ctx: no such file: ${join(file, '..', 'gone.jsonl')}\n`]);
      });
    });

    it('a hook chain whose transcript was rewritten: an error with --transcript; without it, the tip is compacted as it is and no fork is made', () => {
      const { store, transcript } = captured(CUT1, CUT1);
      // within the 4 KiB before the captured offset, which every hook call checks
      const rewritten = Buffer.from(BYTES);
      rewritten[CUT1 - 100] ^= 1;
      writeFileSync(transcript, rewritten);
      unchanged(store, () => {
        const r = ctx(store, ['compact', BRANCH, '--transcript', transcript, ...COMPACT], { env: ENV });
        expect([r.code, r.stdout, r.stderr]).toEqual([1, '', `ctx: ${transcript} is not an extension of ${BRANCH}: the transcript changed\n`]);
      });
      const before = tip(store, BRANCH);
      // the captured part is short: only with one turn kept is there anything to summarize
      const r = ctx(store, ['--json', 'compact', BRANCH, '--policy', 'summarize', '--keep-turns', '1'], { env: ENV });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toContain(`${transcript} is not an extension of ${BRANCH}: the transcript changed: compacting ${BRANCH} as it is\n`);
      expect(JSON.parse(r.stdout)).toMatchObject({ caught_up: [], parent: `ctx-${before}` });
      expect(git(store, ['for-each-ref', '--format=%(refname)', 'refs/heads']).trim()).toBe(`refs/heads/${BRANCH}`);
    });

    it('another hook capturing the session: exit 3, nothing written; an old state without its transcript: compacted as it is, with a hint', () => {
      const { store } = captured(CUT1, CUT2);
      const lock = join(store, 'ctx', 'hooks', `${SESSION}.lock`);
      writeFileSync(lock, `ctx-lock pid=${process.pid} boot=- start=-\n`); // held by a live process (this one)
      unchanged(store, () => {
        const r = ctx(store, ['compact', BRANCH, ...COMPACT], { env: ENV });
        expect([r.code, r.stderr.split('\n')[0]]).toEqual([3, `ctx: a ctx hook is capturing session ${SESSION}`]);
      });
      rmSync(lock);
      const { transcript: _, session: __, ...old } = state(store);
      writeFileSync(join(store, 'ctx', 'hooks', `${SESSION}.json`), JSON.stringify(old));
      const r = ctx(store, ['--json', 'compact', BRANCH, ...COMPACT], { env: ENV });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toContain(`the hook state of ${BRANCH} was written before ctx recorded transcript paths: give --transcript FILE to catch up first\n`);
      expect(JSON.parse(r.stdout).caught_up).toEqual([]);
    });
  });
});
