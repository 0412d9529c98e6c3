// `ctx import claude-code` of a large transcript reads it a line at a time and writes it a segment
// at a time; what it stores must not change: the same commit ids as the import that read the file
// whole, every byte back from `materialize --stop root`, on both engines. (Memory: npm run bench large.)
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importSession } from '../src/api/capture/sessions.js';
import { RepoContext } from '../src/api/repo/repo-context.js';
import { FIXTURES, corpusFiles, ctx, describeCorpus, fsck, git, itCorpus, newStore, tempDir } from './helpers.js';

const ENV = { CTX_PRINCIPAL: 'alice', CTX_MACHINE: 'box', CTX_NOW: '2026-01-02T03:04:05.678Z' };
const MIB = 1024 * 1024;

/**
 * A ~20 MB transcript: three tool results of ~6.5 MB (chunked at ctx.maxBlobSize 4 MiB) full of
 * multi-byte characters, so reads of 1 MiB blocks end inside characters and inside lines; a
 * compaction; a last line without its newline.
 */
function bigTranscript(): Buffer {
  const big = (i: number) => `${'ünïcødé € 😀 word '.repeat(Math.ceil((6.5 * MIB) / 27))}${i}`;
  const line = (o: object) => `${JSON.stringify({ sessionId: 'big-1', timestamp: '2026-01-02T00:00:00.000Z', ...o })}\n`;
  const result = (i: number) => line({ type: 'user', uuid: `r${i}`, message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `t${i}`, content: big(i) }] } });
  const text =
    line({ type: 'user', uuid: 'p0', message: { role: 'user', content: 'read the big file\nsecond line' } }) +
    line({ type: 'assistant', uuid: 'a0', message: { role: 'assistant', content: [{ type: 'tool_use', id: 't0', name: 'Read', input: {} }] } }) +
    result(0) +
    line({ type: 'user', uuid: 'p1', message: { role: 'user', content: `${'a long first line '.repeat(10)}` } }) +
    result(1) +
    line({ type: 'system', subtype: 'compact_boundary', uuid: 'b0' }) +
    line({ type: 'user', uuid: 's0', isCompactSummary: true, message: { role: 'user', content: 'summary' } }) +
    line({ type: 'user', uuid: 'p2', message: { role: 'user', content: 'and again' } }) +
    result(2);
  return Buffer.from(text.slice(0, -1));
}

/** ~3 MB of short lines (three prompts, each followed by progress lines): many lines straddle a 1 MiB block. */
function shortLines(): Buffer {
  let text = '';
  for (let i = 0; i < 30_000; i++) {
    const o = i % 10_000 === 0 ? { type: 'user', uuid: `p${i}`, message: { role: 'user', content: `prompt ${i}` } } : { type: 'progress', uuid: `g${i}`, data: 'é'.repeat(i % 89) };
    text += `${JSON.stringify(o)}\n`;
  }
  return Buffer.from(text);
}
const SHORT_TIP = '1762dd4a79ba6cb14981630bbc78de4d009e77e8';

// The tip of this file's chain as the import that read the file whole wrote it.
const BIG_TIP = '34ac1a8655b5761b92b8942ff2f543c190e3dcb2';

function importAndCheck(file: string, env: Record<string, string>, config: string[][] = [], whole = true) {
  const store = newStore();
  for (const c of config) git(store, ['config', ...c]);
  const r = ctx(store, ['import', 'claude-code', file, '-b', 'big'], { env: { ...ENV, ...env } });
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  if (whole) {
    const back = ctx(store, ['materialize', 'big', '--stop', 'root'], { env: ENV });
    expect(back.code).toBe(0);
    expect(back.bytes.equals(readFileSync(file))).toBe(true);
  }
  return { store, tip: git(store, ['rev-parse', 'big']).trim(), commits: git(store, ['rev-list', '--count', 'big']).trim() };
}

function bigFile(): string {
  const file = join(tempDir(), 'big.jsonl');
  writeFileSync(file, bigTranscript());
  return file;
}

describe('ctx import claude-code of a 20 MB transcript with chunked artifacts', () => {
  it('the git engine stores every byte under the same commit ids as before, artifacts in 4 MiB chunks', () => {
    const { store, tip, commits } = importAndCheck(bigFile(), { CTX_ENGINE: 'git' }, [['ctx.maxBlobSize', String(4 * MIB)]]);
    expect([tip, commits]).toEqual([BIG_TIP, '4']);
    const chunks = git(store, ['ls-tree', '-r', '--name-only', `${tip}~3`]).trim().split('\n');
    expect(chunks).toEqual(['delta.jsonl/0000', 'delta.jsonl/0001', 'meta.json']);
    expect(fsck(store).code).toBe(0);
  });

  it('a transcript of short lines, many across 1 MiB read blocks, keeps its ids and bytes', () => {
    const file = join(tempDir(), 'short.jsonl');
    writeFileSync(file, shortLines());
    const { tip, commits } = importAndCheck(file, { CTX_ENGINE: 'git' });
    expect([tip, commits]).toEqual([SHORT_TIP, '3']);
  });

  it('isomorphic-git (no git on PATH) writes the same commits', () => {
    const empty = join(tempDir(), 'bin');
    mkdirSync(empty);
    const { store } = importAndCheck(bigFile(), { PATH: empty }, [['ctx.maxBlobSize', String(4 * MIB)]]);
    expect(git(store, ['rev-parse', 'big']).trim()).toBe(BIG_TIP);
  });
});

// The tips the import that read the file whole gave these files (file name → tip).
const COMPACTED_TIP = 'e518d33a71725d0450cb94fddbbd14112c8be7e9';
const TIPS: Record<string, string> = {
  'Crazytieguy__alignment-hive__6f2580aa-3095-45b7-8d4e-dd8cac7eeffe.jsonl': '2a846e4e760f74788d0b9b29a4f2ed356371c4d9',
  'd-kimuson__claude-code-viewer__5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl': 'fe1f317fc4eede68d67196ac956baa46b293a4ed',
  'd-kimuson__claude-code-viewer__fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl': '969f70da2c89c6c26eb5bc2b3b0f8b1ac1ae8de0',
  'iansherr__claude-code-log__-Users-dain-workspace-claude-code-log-sample__0d3a8e6f-290f-4105-a327-a2496e5e2a83.jsonl': '604cad20edd6076017a551108795446a9dd910b4',
  'iansherr__claude-code-log__-Users-dain-workspace-claude-code-log-sample__37f83ec9-f2ea-42a9-925e-0d5c105cb6e8.jsonl': 'fc5d77b47831e6ca199faf75fd9ca8faf1e08105',
  'iansherr__claude-code-log__-Users-dain-workspace-claude-code-log-sample__4e27c414-a885-46a0-b5c8-d58e1417377d.jsonl': 'c4cb0de035e0e9ead40def70ffbd01b4c16762bb',
  'iansherr__claude-code-log__-Users-dain-workspace-claude-code-log-sample__fe869ecb-c176-478f-9734-7e4b8ef12cff.jsonl': 'ebedced6b9b49cce5117b8a39ec76f742b27b439',
  'iansherr__claude-code-log__-Users-dain-workspace-coderabbit-review-helper__agent-668b5ac2.jsonl': '61bd4d1ca468756cb35a1cefda4c5107ea53d63c',
  'iansherr__claude-code-log__-Users-dain-workspace-coderabbit-review-helper__cb2e607c-c758-415a-8b45-c49e4631906a.jsonl': '481393111e4128180fd530c1cede109cf8f1bd58',
  'iansherr__claude-code-log__-experiments-ideas__03eb5929-52b3-4b13-ada3-b93ae35806b8.jsonl': 'e6b0bb8296225ae05ced352b58fc5cdc57385393',
  'iansherr__claude-code-log__-experiments-worktrees__ef958aa1-0e93-49f0-bb71-150f63befcd1.jsonl': '604c9ed8884c467d665497a057ce068488d7999b',
  'iansherr__claude-code-log__-experiments-worktrees__ef958aa1-0e93-49f0-bb71-150f63befcd1__subagents__agent-a4ca7529859c158c2.jsonl': '257d53ce3551154e9aae4e72063940296482cc29',
  'jnarowski__agentcmd__full-session-five.jsonl': 'f03f5be9bf77c3f5062f7fa327c03a4dab8c1f5e',
  'kvsankar__agent-history__real_sessions-claude-session-01.jsonl': '6be51ae9b10f61ce116d4c2e609d0a9d8e79c1d0',
  'randlee__claude-history__simple-967e501d-session.jsonl': '72c3c6ae13686e8bfb41902c748b58b03714e176',
  'randlee__claude-history__simple-967e501d-subagents-agent-aae161c.jsonl': '57ac384ce35fe24fb3957d1646c5982ae66d76d4',
  'randlee__claude-history__simple-967e501d-subagents-agent-acompact-a94287.jsonl': '4f8b79f8bcae9c50bbb9cde1fac5720d86a4ee7b',
  'randlee__claude-history__simple-967e501d-subagents-agent-aprompt_suggestion-aafb27.jsonl': '2376aa10f34c53357f3e71576289972bb2278f61',
};

describe('ctx import claude-code keeps the commit ids of earlier imports', () => {
  it('fixtures/claude-code/compacted-session.jsonl', () => {
    const file = join(FIXTURES, 'claude-code', 'compacted-session.jsonl');
    expect(importAndCheck(file, {}).tip).toBe(COMPACTED_TIP);
  });
});

// In one process, into one store: the ids are those of the CLI's import (`importSession` is what it runs).
describeCorpus('ctx import claude-code keeps the commit ids of earlier imports of the corpus', () => {
  itCorpus('every Claude Code transcript of the corpus', async () => {
    const repo = new RepoContext(newStore(), { env: { ...ENV, CTX_ENGINE: 'git' } });
    try {
      const got: Record<string, string> = {};
      const files = corpusFiles('claude-code');
      for (const [i, file] of files.entries()) {
        try {
          got[basename(file)] = (await importSession(repo, 'claude-code', file, { branch: `f${i}` })).commits.at(-1)!.oid;
        } catch (e) {
          got[basename(file)] = (e as Error).message;
        }
      }
      const empty = files.find((f) => TIPS[basename(f)] === undefined)!;
      // the corpus's empty file: refused, as before
      expect(got).toEqual({ ...TIPS, [basename(empty)]: `nothing to import: ${empty} is empty` });
    } finally {
      await repo.close();
    }
  });
});
