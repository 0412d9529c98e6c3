// Export to the real `claude` CLI: a captured session with a /compact, exported and resumed with
// `claude -p --resume`, must send the model what Claude Code's own resume sends; a Codex chain
// exported to Claude Code resumes with its tool calls as tool_use/tool_result.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { encodeProjectDir } from '../src/runtimes/claude-code/paths.js';
import { claudeEnv, conversation, describeClaude, runClaude, toolThenText, transcripts, type ClaudeEnv } from './claude-cli.js';
import { CORPUS, FIXTURES, ctx, git, itCorpus, tempDir } from './helpers.js';
import { startMockApi, type MockApi } from './mock-anthropic-api.js';

let api: MockApi;
beforeAll(async () => {
  api = await startMockApi(toolThenText());
});
afterAll(() => api?.close());

const lines = (bytes: Buffer | string) => bytes.toString().split('\n').filter(Boolean).map((l) => JSON.parse(l));

describeClaude('ctx export claude-code, resumed by the real claude CLI (2.1.332)', () => {
  it('a session in a project whose encoded path is over 200 characters: captured with its /compact, exported 0600 where claude looks; the resume sends what claude’s own resume sends; its capture forks from the exported commit', async () => {
    const root = tempDir();
    const dir = join(root, ...Array.from({ length: 5 }, (_, i) => `deeply-nested-project-directory-${i}-${'x'.repeat(20)}`));
    mkdirSync(dir, { recursive: true });
    execFileSync('git', ['init', '-q', dir]);
    expect(encodeProjectDir(dir).length).toBeGreaterThan(200);
    const store = join(dir, '.ctx');
    const c: ClaudeEnv = claudeEnv(root, api.url);
    const env = { CLAUDE_CONFIG_DIR: c.config, HOME: c.home };
    expect(ctx(store, ['init', store]).code).toBe(0);
    expect(ctx(store, ['hooks', 'install', 'claude-code'], { cwd: dir, env }).code).toBe(0);

    expect((await runClaude(c, dir, ['-p', 'say a word', '--allowedTools', 'Bash'])).code).toBe(0);
    const [t] = transcripts(c);
    // Claude Code's own directory for the long path is the one ctx computes
    expect(t.dir).toBe(encodeProjectDir(dir));
    expect((await runClaude(c, dir, ['-p', '--resume', t.session, '/compact'])).code).toBe(0);
    const branch = `claude/${t.session}`;
    expect(ctx(store, ['materialize', branch, '--stop', 'root']).bytes.equals(readFileSync(t.file))).toBe(true);
    const boundary = lines(readFileSync(t.file)).find((l) => l.subtype === 'compact_boundary');
    const kept: string[] = boundary.compactMetadata.preservedMessages.uuids;
    expect(kept.length).toBeGreaterThan(0);
    expect(git(store, ['log', '--format=%B', branch])).toContain('Ctx-Type: compaction');

    const tip = git(store, ['rev-parse', branch]).trim();
    const exp = ctx(store, ['export', 'claude-code', branch, '--json'], { cwd: dir, env });
    expect(exp.code).toBe(0);
    const rec = JSON.parse(exp.stdout);
    expect(rec.path).toBe(join(c.config, 'projects', encodeProjectDir(dir), `${rec.session_id}.jsonl`));
    expect(rec.branch).toBe(`claude/${rec.session_id}`);
    expect(statSync(rec.path).mode & 0o777).toBe(0o600);
    const exported = lines(readFileSync(rec.path));
    // boundary, summary, then the kept lines from before the compaction
    expect(exported[0].subtype).toBe('compact_boundary');
    expect(exported[1].isCompactSummary).toBe(true);
    expect(exported.slice(2, 2 + kept.length).map((l) => l.uuid)).toEqual(kept);
    const exportedBytes = statSync(rec.path).size;
    // the default materialization is what the export holds, but for its sessionId and forkedFrom
    const plain = (ls: Record<string, unknown>[]) => ls.map(({ sessionId, forkedFrom, ...rest }) => rest);
    for (const args of [[branch], [branch, '--json']]) {
      const m = ctx(store, ['materialize', ...args]);
      const bytes = args.includes('--json') ? Buffer.from(JSON.parse(m.stdout).content) : m.bytes;
      expect(plain(lines(bytes))).toEqual(plain(exported));
    }

    expect((await runClaude(c, dir, ['-p', '--resume', rec.session_id, 'next', '--allowedTools', 'Bash'])).code).toBe(0);
    const fromExport = conversation(api.turns()[api.turns().length - 2]);
    expect((await runClaude(c, dir, ['-p', '--resume', t.session, 'next', '--allowedTools', 'Bash'])).code).toBe(0);
    const fromOwn = conversation(api.turns()[api.turns().length - 2]);
    expect(fromExport).toEqual(fromOwn);
    expect(fromExport[1]).toEqual({ role: 'assistant', content: [{ type: 'text', text: 'answer 1' }] });
    expect(fromExport[fromExport.length - 1].content.at(-1)).toEqual({ type: 'text', text: 'next' });

    // the resumed session is captured on claude/<new id>, forked from the exported commit
    const resumed = rec.branch;
    const first = git(store, ['rev-list', '--reverse', `${tip}..${resumed}`]).split('\n')[0];
    expect(git(store, ['rev-parse', `${first}^`]).trim()).toBe(tip);
    const after = git(store, ['cat-file', 'blob', `${first}:delta.jsonl`]);
    expect(readFileSync(rec.path).subarray(exportedBytes, exportedBytes + Buffer.byteLength(after)).toString()).toBe(after);
  }, 180_000);

  it('an export of the tip, the root, tip~1 and a pre-compaction commit, each resumed into a new session file (--fork-session): captured on claude/<new id> forked from the exported commit, holding the new file past its copied lines', async () => {
    const root = tempDir();
    const dir = join(root, 'project');
    mkdirSync(dir);
    execFileSync('git', ['init', '-q', dir]);
    const store = join(dir, '.ctx');
    const c = claudeEnv(root, api.url);
    const env = { CLAUDE_CONFIG_DIR: c.config, HOME: c.home };
    expect(ctx(store, ['init', store]).code).toBe(0);
    expect(ctx(store, ['hooks', 'install', 'claude-code'], { cwd: dir, env }).code).toBe(0);
    expect((await runClaude(c, dir, ['-p', 'say a word', '--allowedTools', 'Bash'])).code).toBe(0);
    const [t] = transcripts(c);
    expect((await runClaude(c, dir, ['-p', '--resume', t.session, 'two', '--allowedTools', 'Bash'])).code).toBe(0);
    expect((await runClaude(c, dir, ['-p', '--resume', t.session, '/compact'])).code).toBe(0);
    expect((await runClaude(c, dir, ['-p', '--resume', t.session, 'three', '--allowedTools', 'Bash'])).code).toBe(0);
    const branch = `claude/${t.session}`;
    const rootCommit = git(store, ['rev-list', '--max-parents=0', branch]).trim();
    const preCompaction = git(store, ['log', '--format=%H', '--grep=^two$', branch]).trim();
    expect(preCompaction).toMatch(/^[0-9a-f]{40}$/);
    for (const spec of [branch, rootCommit, `${branch}~1`, preCompaction]) {
      const exported = git(store, ['rev-parse', spec]).trim();
      const rec = JSON.parse(ctx(store, ['export', 'claude-code', spec, '--json'], { cwd: dir, env }).stdout);
      const before = new Set(transcripts(c).map((x) => x.session));
      const r = await runClaude(c, dir, ['-p', '--resume', rec.session_id, '--fork-session', 'next', '--allowedTools', 'Bash']);
      expect(r.code).toBe(0);
      const fresh = transcripts(c).filter((x) => !before.has(x.session));
      expect(fresh).toHaveLength(1);
      const [n] = fresh;
      const bytes = readFileSync(n.file);
      const ls = bytes.toString().split('\n').filter(Boolean).map((l) => JSON.parse(l));
      // Claude Code's copies keep the export's forkedFrom, commit included
      const copies = ls.filter((l) => l.forkedFrom?.commit !== undefined);
      expect(copies.length).toBeGreaterThan(0);
      expect(new Set(copies.map((l) => l.forkedFrom.commit))).toEqual(new Set([`ctx-${exported}`]));
      const last = bytes.toString().split('\n').findLastIndex((l) => l.includes('"forkedFrom":{') && l.includes(`"commit":"ctx-${exported}"`));
      const copiedEnd = Buffer.byteLength(bytes.toString().split('\n').slice(0, last + 1).join('\n') + '\n');
      const forked = `claude/${n.session}`;
      const added = git(store, ['rev-list', '--reverse', `${exported}..${forked}`]).split('\n').filter(Boolean);
      expect(added.length).toBeGreaterThan(0);
      expect(git(store, ['rev-parse', `${added[0]}^`]).trim()).toBe(exported);
      const held = added.map((oid) => git(store, ['cat-file', 'blob', `${oid}:delta.jsonl`])).join('');
      expect(held).toBe(bytes.subarray(copiedEnd).toString());
    }
  }, 300_000);

  it('a Codex chain exported to claude-code resumes with its tool calls as tool_use/tool_result', async () => {
    const root = tempDir();
    const dir = join(root, 'todo');
    mkdirSync(dir);
    const store = join(root, '.ctx');
    const c = claudeEnv(root, api.url);
    expect(ctx(store, ['init', store]).code).toBe(0);
    const rollout = join(FIXTURES, 'codex', 'rollout-2025-11-20T09-00-00-0a1b2c3d-4e5f-7a8b-9c0d-1e2f3a4b5c6d.jsonl');
    const imp = JSON.parse(ctx(store, ['import', 'codex', rollout, '--json']).stdout);
    const exp = ctx(store, ['export', 'claude-code', imp.branch, '--stop', 'root', '--json'], { cwd: dir, env: { CLAUDE_CONFIG_DIR: c.config, HOME: c.home } });
    expect(exp.code).toBe(0);
    const rec = JSON.parse(exp.stdout);
    expect(rec.path).toBe(join(c.config, 'projects', encodeProjectDir(dir), `${rec.session_id}.jsonl`));
    const r = await runClaude(c, dir, ['-p', '--resume', rec.session_id, 'next', '--allowedTools', 'Bash']);
    expect(r.code).toBe(0);
    const sent = conversation(api.turns()[api.turns().length - 2]);
    expect(sent.slice(0, 5)).toEqual([
      // the prompt alone: Codex's environment context is Codex's own, not carried into Claude Code
      { role: 'user', content: [{ type: 'text', text: 'Add a --done flag to todo list.' }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'call_a1', name: 'shell', input: { command: ['rg', '-n', 'def list', 'src'] } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_a1', content: expect.stringContaining('src/cli.py:12:def list(args)') }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Added `--done`: it lists only finished items.' }] },
      { role: 'user', content: [{ type: 'text', text: 'Now write tests for it.' }] },
    ]);
    expect(sent[sent.length - 1].content.at(-1)).toEqual({ type: 'text', text: 'next' });
  }, 120_000);

  itCorpus('a Gemini CLI chat exported to claude-code resumes with its tool calls as tool_use/tool_result', async () => {
    const root = tempDir();
    const dir = join(root, 'gemini-test');
    mkdirSync(dir);
    const store = join(root, '.ctx');
    const c = claudeEnv(root, api.url);
    expect(ctx(store, ['init', store]).code).toBe(0);
    const imp = JSON.parse(ctx(store, ['import', 'gemini-cli', join(CORPUS, 'gemini-cli', 'jnarowski__agentcmd__session-2025-10-29T10-36-453aa339.json'), '--json']).stdout);
    const rec = JSON.parse(ctx(store, ['export', 'claude-code', imp.branch, '--json'], { cwd: dir, env: { CLAUDE_CONFIG_DIR: c.config, HOME: c.home } }).stdout);
    expect((await runClaude(c, dir, ['-p', '--resume', rec.session_id, 'next', '--allowedTools', 'Bash'])).code).toBe(0);
    const sent = conversation(api.turns()[api.turns().length - 2]);
    expect(sent.slice(0, 3)).toEqual([
      { role: 'user', content: [{ type: 'text', text: "Change 'Hello' to 'Goodbye' in /tmp/gemini-test/created.txt\n\n\n" }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'read_file-1761734225259-ef6c719c767c', name: 'read_file', input: { absolute_path: '/private/tmp/gemini-test/created.txt' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'read_file-1761734225259-ef6c719c767c', content: 'Hello from Gemini CLI' }] },
    ]);
    expect(sent[sent.length - 1].content.at(-1)).toEqual({ type: 'text', text: 'next' });
  }, 120_000);
});
