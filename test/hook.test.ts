// `ctx hook claude-code` as Claude Code runs it: a transcript that grows, a Stop after each step.
import { execFileSync } from 'node:child_process';
import { appendFileSync, copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CORPUS, ROOT, corpusFiles, ctx, ctxAsync, describeCorpus, fsck, git, newStore, objectCount, refSnapshot, tempDir } from './helpers.js';

const ENV = { CTX_PRINCIPAL: 'hook', CTX_MACHINE: 'ci', CTX_NOW: '2026-01-02T03:04:05.678Z' };
const RANDLEE_ID = '967e501d-aa48-4eab-a21f-b17058bd78f0';
const RANDLEE = join(CORPUS, 'claude-code', 'randlee__claude-history__simple-967e501d-session.jsonl');

function hookInput(session: string, transcript: string, event = 'Stop', extra: Record<string, unknown> = {}) {
  return JSON.stringify({ session_id: session, transcript_path: transcript, hook_event_name: event, cwd: join(transcript, '..'), ...extra });
}

const hook = (store: string, session: string, transcript: string, event = 'Stop') =>
  ctx(store, ['hook', 'claude-code'], { input: hookInput(session, transcript, event), env: ENV });

const hookLog = (store: string) => (existsSync(join(store, 'ctx', 'hook.log')) ? readFileSync(join(store, 'ctx', 'hook.log'), 'utf8') : '');

/** Deterministic cut points, most of them mid-line. */
function cutsOf(size: number, seed: number, n = 3): number[] {
  let x = seed * 2654435761;
  const cuts = new Set<number>();
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    cuts.add(Math.floor((x / 2147483648) * size));
  }
  return [...[...cuts].sort((a, b) => a - b), size];
}

describeCorpus('ctx hook claude-code', () => {
  it('replays every corpus transcript growing in steps: --stop root is the file, byte for byte', async () => {
    const store = newStore();
    const files = corpusFiles('claude-code');
    const dir = tempDir();
    const replay = async (file: string, i: number) => {
      const bytes = readFileSync(file);
      const session = `replay-${i}`;
      const transcript = join(dir, `${session}.jsonl`);
      writeFileSync(transcript, '');
      let at = 0;
      for (const cut of cutsOf(bytes.length, i + 1)) {
        appendFileSync(transcript, bytes.subarray(at, cut));
        at = cut;
        const r = await ctxAsync(store, ['hook', 'claude-code'], { input: hookInput(session, transcript), env: ENV });
        expect([r.code, r.stdout, r.stderr]).toEqual([0, '', '']);
      }
      return { bytes, session };
    };
    // two transcripts at a time: one per core
    const results: { bytes: Buffer; session: string }[] = [];
    for (let i = 0; i < files.length; i += 2) results.push(...(await Promise.all(files.slice(i, i + 2).map((f, k) => replay(f, i + k)))));
    expect(hookLog(store)).toBe('');
    for (const [i, { bytes, session }] of results.entries()) {
      const root = ctx(store, ['materialize', `claude/${session}`, '--stop', 'root'], { env: ENV });
      if (bytes.length === 0) {
        expect(root.code, basename(files[i])).toBe(4); // nothing to capture: no branch
        continue;
      }
      expect(root.code, basename(files[i])).toBe(0);
      expect(root.bytes.equals(bytes), basename(files[i])).toBe(true);
    }
    expect(fsck(store)).toEqual({ code: 0, output: '' });
    const verified = ctx(store, ['verify', '--all'], { env: ENV });
    expect(verified.stdout + verified.stderr).toMatch(/^ok \d+ commits\n$/);
  }, 120_000);

  it("turns the randlee session's compaction into a compaction commit, with model and usage in source", () => {
    const store = newStore();
    const bytes = readFileSync(RANDLEE);
    const transcript = join(tempDir(), `${RANDLEE_ID}.jsonl`);
    // cut right after the compact_boundary line: the compaction waits for its summary line
    const boundary = bytes.indexOf('"subtype":"compact_boundary"');
    const afterBoundary = bytes.indexOf(10, boundary) + 1;
    writeFileSync(transcript, bytes.subarray(0, afterBoundary));
    expect(hook(store, RANDLEE_ID, transcript).code).toBe(0);
    appendFileSync(transcript, bytes.subarray(afterBoundary));
    expect(hook(store, RANDLEE_ID, transcript, 'SessionEnd').code).toBe(0);
    expect(hookLog(store)).toBe('');
    const branch = `claude/${RANDLEE_ID}`;
    const types = git(store, ['log', '--format=%(trailers:key=Ctx-Type,valueonly)', branch]).split('\n').filter(Boolean);
    expect(types.filter((t) => t === 'compaction')).toHaveLength(1);
    // the default materialization starts at the compaction: the boundary, then its summary
    const tip = ctx(store, ['materialize', branch], { env: ENV });
    expect(JSON.parse(tip.stdout.split('\n')[0]).subtype).toBe('compact_boundary');
    expect(JSON.parse(tip.stdout.split('\n')[1]).isCompactSummary).toBe(true);
    const meta = JSON.parse(git(store, ['show', `${branch}:meta.json`]));
    expect(meta).toMatchObject({ template: 'claude-code', principal: 'hook', machine: 'ci', session_id: RANDLEE_ID, checkpoint: 'session_end' });
    expect(meta.source).toMatchObject({ file: `${RANDLEE_ID}.jsonl` });
    const all = git(store, ['log', '--format=%H', branch]).split('\n').filter(Boolean);
    const withUsage = all.map((c) => JSON.parse(git(store, ['show', `${c}:meta.json`])).source).filter((s) => s.usage);
    expect(withUsage.length).toBeGreaterThan(0);
    expect(withUsage[0].model).toMatch(/^claude-/);
    expect(withUsage[0].usage.output_tokens).toBeGreaterThan(0);
  }, 60_000);

  it('finds the store from the hook cwd, not the process cwd, and creates <cwd>/.ctx when there is none', () => {
    const project = tempDir();
    const sub = join(project, 'src', 'deep');
    mkdirSync(sub, { recursive: true });
    const transcript = join(tempDir(), 's1.jsonl');
    copyFileSync(join(CORPUS, 'claude-code', 'kvsankar__agent-history__real_sessions-claude-session-01.jsonl'), transcript);
    const input = JSON.stringify({ session_id: 's1', transcript_path: transcript, hook_event_name: 'Stop', cwd: sub });
    const elsewhere = tempDir();
    const r = ctx(join(elsewhere, 'unused'), ['hook', 'claude-code'], { input, env: { ...ENV, CTX_STORE: undefined }, cwd: elsewhere });
    expect([r.code, r.stdout, r.stderr]).toEqual([0, '', '']);
    expect(existsSync(join(sub, '.ctx', 'HEAD'))).toBe(true);
    expect(git(join(sub, '.ctx'), ['rev-parse', 'claude/s1'])).toMatch(/^[0-9a-f]{40}/);
    // a store further up is found from a deeper cwd
    rmSync(join(sub, '.ctx'), { recursive: true });
    const up = newStore();
    const proj2 = join(up, '..', 'a', 'b');
    mkdirSync(proj2, { recursive: true });
    const r2 = ctx(up, ['hook', 'claude-code'], { input: JSON.stringify({ session_id: 's2', transcript_path: transcript, hook_event_name: 'Stop', cwd: proj2 }), env: { ...ENV, CTX_STORE: undefined }, cwd: elsewhere });
    expect(r2.code).toBe(0);
    expect(git(up, ['rev-parse', 'claude/s2'])).toMatch(/^[0-9a-f]{40}/);
  });

  it('re-derives the offset from the repo when the derived state is gone or stale', () => {
    const store = newStore();
    const bytes = readFileSync(RANDLEE);
    const transcript = join(tempDir(), 'x.jsonl');
    writeFileSync(transcript, bytes.subarray(0, 700_000));
    expect(hook(store, 'x', transcript).code).toBe(0);
    rmSync(join(store, 'ctx'), { recursive: true });
    appendFileSync(transcript, bytes.subarray(700_000, 1_500_000));
    expect(hook(store, 'x', transcript).code).toBe(0);
    // stale: the state names a tip the branch no longer has
    const state = join(store, 'ctx', 'hooks', 'x.json');
    writeFileSync(state, JSON.stringify({ ...JSON.parse(readFileSync(state, 'utf8')), tip: '0'.repeat(40), offset: 3 }));
    appendFileSync(transcript, bytes.subarray(1_500_000));
    expect(hook(store, 'x', transcript).code).toBe(0);
    expect(hookLog(store)).toBe('');
    expect(ctx(store, ['materialize', 'claude/x', '--stop', 'root']).bytes.equals(bytes)).toBe(true);
  });

  describe('never breaks the agent: exit 0, one line in hook.log, nothing half written, the next call catches up', () => {
    const setup = () => {
      const store = newStore();
      const bytes = readFileSync(RANDLEE);
      const transcript = join(tempDir(), 'f.jsonl');
      const [a, b] = [bytes.indexOf(10, 400_000) + 1, bytes.indexOf(10, 800_000) + 1];
      writeFileSync(transcript, bytes.subarray(0, a));
      expect(hook(store, 'f', transcript).code).toBe(0);
      appendFileSync(transcript, bytes.subarray(a, b));
      return { store, bytes, transcript, before: refSnapshot(store), objects: objectCount(store) };
    };
    const caughtUp = (store: string, transcript: string) => {
      const r = hook(store, 'f', transcript);
      expect([r.code, r.stdout, r.stderr]).toEqual([0, '', '']);
      expect(ctx(store, ['materialize', 'claude/f', '--stop', 'root']).bytes.equals(readFileSync(transcript))).toBe(true);
      expect(fsck(store).code).toBe(0);
    };

    it('a missing transcript', () => {
      const { store, transcript, before, objects } = setup();
      renameSync(transcript, `${transcript}.away`);
      const r = hook(store, 'f', transcript);
      expect([r.code, r.stdout, r.stderr]).toEqual([0, '', '']);
      expect(hookLog(store)).toMatch(/^\S+Z\tStop\tf\ttranscript not found: .*f\.jsonl\n$/);
      expect([refSnapshot(store), objectCount(store)]).toEqual([before, objects]);
      renameSync(`${transcript}.away`, transcript);
      caughtUp(store, transcript);
    });

    it('a lock held by another writer', () => {
      const { store, transcript, before, objects } = setup();
      const lock = join(store, 'refs', 'heads', 'claude', 'f.lock');
      writeFileSync(lock, `ctx-lock pid=${process.pid} boot=- start=-\n`); // held by a live process (this one)
      const r = hook(store, 'f', transcript);
      expect([r.code, r.stdout, r.stderr]).toEqual([0, '', '']);
      expect(hookLog(store).split('\n').filter(Boolean)).toEqual([expect.stringMatching(/\tStop\tf\tclaude\/f is locked by another writer/)]);
      expect([refSnapshot(store), objectCount(store)]).toEqual([before, objects]);
      rmSync(lock);
      caughtUp(store, transcript);
    });

    it('another hook capturing the same session', () => {
      const { store, transcript, before, objects } = setup();
      writeFileSync(join(store, 'ctx', 'hooks', 'f.lock'), `ctx-lock pid=${process.pid} boot=- start=-\n`); // held by a live process (this one)
      expect(hook(store, 'f', transcript).code).toBe(0);
      expect(hookLog(store)).toMatch(/another ctx hook is capturing this session/);
      expect([refSnapshot(store), objectCount(store)]).toEqual([before, objects]);
      rmSync(join(store, 'ctx', 'hooks', 'f.lock'));
      caughtUp(store, transcript);
    });

    it('an unreadable repo', () => {
      const { store, transcript, before, objects } = setup();
      renameSync(join(store, 'objects'), join(store, 'objects.away'));
      writeFileSync(join(store, 'objects'), 'not a directory');
      const r = hook(store, 'f', transcript);
      expect([r.code, r.stdout, r.stderr]).toEqual([0, '', '']);
      expect(hookLog(store).split('\n').filter(Boolean)).toHaveLength(1);
      rmSync(join(store, 'objects'));
      renameSync(join(store, 'objects.away'), join(store, 'objects'));
      expect([refSnapshot(store), objectCount(store)]).toEqual([before, objects]);
      caughtUp(store, transcript);
    });

    it('bad input on stdin, or a store that cannot be made', () => {
      const store = newStore();
      const r = ctx(store, ['hook', 'claude-code'], { input: 'not json' });
      expect([r.code, r.stdout]).toEqual([0, '']);
      const file = join(tempDir(), 'plain-file');
      writeFileSync(file, 'x');
      const r2 = ctx(file, ['hook', 'claude-code'], { input: hookInput('s', RANDLEE) });
      expect([r2.code, r2.stdout]).toEqual([0, '']);
      expect(r2.stderr).toMatch(/^ctx hook: \S+Z\tStop\ts\t/);
    });
  });

  it('a transcript that shrank or was rewritten starts a fork branch; the original chain stays', () => {
    const store = newStore();
    const bytes = readFileSync(RANDLEE);
    const transcript = join(tempDir(), 'g.jsonl');
    writeFileSync(transcript, bytes.subarray(0, bytes.indexOf(10, 1_400_000) + 1));
    expect(hook(store, 'g', transcript).code).toBe(0);
    const original = git(store, ['rev-parse', 'claude/g']).trim();
    const originalRoot = ctx(store, ['materialize', 'claude/g', '--stop', 'root']).bytes;
    // shrink to where claude/g~3 ends, then grow with other lines
    const kept = JSON.parse(git(store, ['show', 'claude/g~3:meta.json'])).source;
    const keep = kept.offset + kept.length;
    truncateSync(transcript, keep);
    appendFileSync(transcript, bytes.subarray(bytes.indexOf(10, 1_500_000) + 1, bytes.indexOf(10, 1_600_000) + 1));
    const r = hook(store, 'g', transcript);
    expect([r.code, r.stdout, r.stderr]).toEqual([0, '', '']);
    expect(git(store, ['rev-parse', 'claude/g']).trim()).toBe(original);
    expect(ctx(store, ['materialize', 'claude/g', '--stop', 'root']).bytes.equals(originalRoot)).toBe(true);
    expect(ctx(store, ['materialize', 'claude/g.fork-1', '--stop', 'root']).bytes.equals(readFileSync(transcript))).toBe(true);
    // the fork starts at a commit of the original chain
    expect(git(store, ['merge-base', 'claude/g', 'claude/g.fork-1'])).toBe(git(store, ['rev-parse', 'claude/g~3']));
    // the fork goes on growing
    appendFileSync(transcript, bytes.subarray(bytes.indexOf(10, 1_600_000) + 1, bytes.indexOf(10, 1_700_000) + 1));
    expect(hook(store, 'g', transcript).code).toBe(0);
    expect(ctx(store, ['materialize', 'claude/g.fork-1', '--stop', 'root']).bytes.equals(readFileSync(transcript))).toBe(true);
    // a rewrite of bytes just before the offset (the last 4 KiB are checked on every call), same length: also a fork
    const now = readFileSync(transcript);
    const lastLine = now.lastIndexOf(10, now.length - 2) + 1;
    for (let at = now.length - 2; at > now.length - 4000; at--) {
      if (now[at] < 0x61 || now[at] > 0x79) continue;
      now[at]++;
      try {
        JSON.parse(now.subarray(lastLine).toString('utf8'));
        break;
      } catch {
        now[at]--;
      }
    }
    expect(now.equals(readFileSync(transcript))).toBe(false);
    // noticed when the file grows next (a call with nothing new reads nothing)
    writeFileSync(transcript, Buffer.concat([now, bytes.subarray(bytes.indexOf(10, 1_700_000) + 1, bytes.indexOf(10, 1_750_000) + 1)]));
    expect(hook(store, 'g', transcript).code).toBe(0);
    expect(ctx(store, ['materialize', 'claude/g.fork-2', '--stop', 'root']).bytes.equals(readFileSync(transcript))).toBe(true);
    expect(hookLog(store)).toMatch(/transcript shrank: started claude\/g\.fork-1 at ctx-/);
    expect(fsck(store).code).toBe(0);
  });

  it('captures subagent files on their own branches, forked from the commit that spawned them', () => {
    const store = newStore();
    const project = tempDir();
    const main = join(project, `${RANDLEE_ID}.jsonl`);
    const subdir = join(project, RANDLEE_ID, 'subagents');
    mkdirSync(subdir, { recursive: true });
    const agents = ['aae161c', 'acompact-a94287', 'aprompt_suggestion-aafb27'];
    const agentBytes = agents.map((a) => readFileSync(join(CORPUS, 'claude-code', `randlee__claude-history__simple-967e501d-subagents-agent-${a}.jsonl`)));
    const mainBytes = readFileSync(RANDLEE);
    // two steps: half of everything, then the rest
    writeFileSync(main, mainBytes);
    agents.forEach((a, i) => writeFileSync(join(subdir, `agent-${a}.jsonl`), agentBytes[i].subarray(0, agentBytes[i].length >> 1)));
    // an old-layout agent file of another session, next to the transcript: not ours
    copyFileSync(join(CORPUS, 'claude-code', 'iansherr__claude-code-log__-Users-dain-workspace-coderabbit-review-helper__agent-668b5ac2.jsonl'), join(project, 'agent-668b5ac2.jsonl'));
    expect(hook(store, RANDLEE_ID, main).code).toBe(0);
    agents.forEach((a, i) => appendFileSync(join(subdir, `agent-${a}.jsonl`), agentBytes[i].subarray(agentBytes[i].length >> 1)));
    expect(hook(store, RANDLEE_ID, main).code).toBe(0);
    expect(hookLog(store)).toBe('');
    const branches = git(store, ['for-each-ref', '--format=%(refname:short)', 'refs/heads/']).split('\n').filter(Boolean).sort();
    expect(branches).toEqual([`claude/${RANDLEE_ID}`, ...agents.map((a) => `claude/${RANDLEE_ID}.agent-${a}`)].sort());
    for (const [i, a] of agents.entries()) {
      const branch = `claude/${RANDLEE_ID}.agent-${a}`;
      const root = ctx(store, ['materialize', branch, '--stop', 'root']).bytes;
      // the main chain up to the spawn point, then every byte of the agent's own file
      expect(root.subarray(root.length - agentBytes[i].length).equals(agentBytes[i])).toBe(true);
      const spawn = git(store, ['merge-base', branch, `claude/${RANDLEE_ID}`]).trim();
      expect(root.subarray(0, root.length - agentBytes[i].length).equals(ctx(store, ['materialize', spawn, '--stop', 'root']).bytes)).toBe(true);
    }
    // aae161c was started by a Task tool_use: its spawn commit holds that assistant line
    const resultLine = mainBytes.toString('utf8').split('\n').find((l) => l.includes('"agentId":"aae161c"') && l.includes('toolUseResult'))!;
    const spawner = JSON.parse(resultLine).sourceToolAssistantUUID as string;
    const spawn = git(store, ['merge-base', `claude/${RANDLEE_ID}.agent-aae161c`, `claude/${RANDLEE_ID}`]).trim();
    expect(git(store, ['show', `${spawn}:delta.jsonl`])).toContain(`"uuid":"${spawner}"`);
  }, 60_000);

  it('does nothing for events it does not capture', () => {
    const store = newStore();
    const before = refSnapshot(store);
    const r = ctx(store, ['hook', 'claude-code'], { input: hookInput('n', RANDLEE, 'SessionStart', { source: 'startup' }) });
    expect([r.code, r.stdout, r.stderr]).toEqual([0, '', '']);
    expect(refSnapshot(store)).toBe(before);
  });
});

describe('ctx hook claude-code: a Stop before Claude Code has written the turn', () => {
  // fixtures/claude-code/conversation.jsonl: its first turn ends with the assistant's text on line 18
  const lines = readFileSync(join(ROOT, 'fixtures', 'claude-code', 'conversation.jsonl'), 'utf8').split(/(?<=\n)/);
  const turn = lines.slice(0, 18).join('');
  const lastLine = lines[17];
  const lastText = (JSON.parse(lastLine).message.content as { type: string; text?: string }[]).filter((b) => b.type === 'text').map((b) => b.text).join('\n').trim();
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  it("waits for the line holding the hook input's last_assistant_message, and the turn's commit ends with it", async () => {
    const store = newStore();
    const transcript = join(tempDir(), 'late.jsonl');
    // Claude Code flushes its transcript every 100 ms: the turn's last line is not there yet when Stop runs
    writeFileSync(transcript, turn.slice(0, -lastLine.length));
    const lock = join(store, 'ctx', 'hooks', 'late.lock');
    let code: number | undefined;
    const run = ctxAsync(store, ['hook', 'claude-code'], { input: hookInput('late', transcript, 'Stop', { last_assistant_message: lastText, stop_hook_active: false }), env: ENV }).then((r) => ((code = r.code), r));
    // the hook holds the session's lock while it captures: from then on it reads the transcript
    while (!existsSync(lock) && code === undefined) await sleep(10);
    // half a second on, the file touched meanwhile as a busy transcript is (a hook that read it at once has captured without the line)
    for (let i = 0; i < 10; i++) {
      await sleep(50);
      utimesSync(transcript, new Date(), new Date(Date.now() + i));
    }
    appendFileSync(transcript, lastLine);
    expect(await run).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(hookLog(store)).toBe('');
    expect(ctx(store, ['materialize', 'claude/late', '--stop', 'root'], { env: ENV }).bytes.equals(Buffer.from(turn))).toBe(true);
    // the same commits, to the id, as a Stop that found the turn whole: its answer is not split off into a commit of its own
    const whole = newStore();
    const written = join(tempDir(), 'late.jsonl');
    writeFileSync(written, turn);
    expect(ctx(whole, ['hook', 'claude-code'], { input: hookInput('late', written, 'Stop', { last_assistant_message: lastText, stop_hook_active: false }), env: ENV })).toMatchObject({ code: 0, stderr: '' });
    expect(git(store, ['log', '--format=%H %s', 'claude/late'])).toBe(git(whole, ['log', '--format=%H %s', 'claude/late']));
  }, 60_000);

  it('captures what is there when the line never comes (a second after the file goes quiet), and exits 0', async () => {
    const store = newStore();
    const transcript = join(tempDir(), 'never.jsonl');
    writeFileSync(transcript, turn.slice(0, -lastLine.length));
    const r = await ctxAsync(store, ['hook', 'claude-code'], { input: hookInput('never', transcript, 'Stop', { last_assistant_message: 'a message the transcript never holds' }), env: ENV });
    expect([r.code, r.stdout, r.stderr]).toEqual([0, '', '']);
    expect(hookLog(store)).toBe('');
    expect(ctx(store, ['materialize', 'claude/never', '--stop', 'root'], { env: ENV }).bytes.equals(Buffer.from(turn.slice(0, -lastLine.length)))).toBe(true);
  }, 60_000);

  it('passes over the lines after the assistant line, and a FIFO named as the transcript does not hang it', async () => {
    const store = newStore();
    const dir = tempDir();
    const transcript = join(dir, 'done.jsonl');
    // the turn whole, then a line Claude Code writes after it (its title: fixtures/claude-code/newer-line-types.jsonl): no wait, the same capture
    const title = readFileSync(join(ROOT, 'fixtures', 'claude-code', 'newer-line-types.jsonl'), 'utf8').split(/(?<=\n)/)[4];
    expect(JSON.parse(title).type).toBe('ai-title');
    writeFileSync(transcript, turn + title);
    const r = await ctxAsync(store, ['hook', 'claude-code'], { input: hookInput('done', transcript, 'Stop', { last_assistant_message: lastText }), env: ENV });
    expect([r.code, r.stdout, r.stderr]).toEqual([0, '', '']);
    expect(ctx(store, ['materialize', 'claude/done', '--stop', 'root'], { env: ENV }).bytes.equals(Buffer.from(turn + title))).toBe(true);
    const fifo = join(dir, 'fifo.jsonl');
    execFileSync('mkfifo', [fifo]);
    const f = await ctxAsync(store, ['hook', 'claude-code'], { input: hookInput('fifo', fifo, 'Stop', { last_assistant_message: lastText }), env: ENV });
    expect(f.code).toBe(0);
    expect(hookLog(store)).toMatch(/^\S+\tStop\tfifo\t.*\n$/);
  }, 60_000);

  it("a SubagentStop whose agent_transcript_path is a FIFO, with an 8 MB last_assistant_message: exit 0, the session's transcript captured whole", async () => {
    const store = newStore();
    const dir = tempDir();
    const transcript = join(dir, 'sub.jsonl');
    writeFileSync(transcript, turn);
    const fifo = join(dir, 'agent.jsonl');
    execFileSync('mkfifo', [fifo]);
    const input = hookInput('sub', transcript, 'SubagentStop', { agent_id: 'a1', agent_type: 'general', agent_transcript_path: fifo, last_assistant_message: 'x'.repeat(8 << 20), stop_hook_active: false });
    const r = await ctxAsync(store, ['hook', 'claude-code'], { input, env: ENV });
    expect([r.code, r.stdout, r.stderr]).toEqual([0, '', '']);
    expect(hookLog(store)).toBe('');
    expect(ctx(store, ['materialize', 'claude/sub', '--stop', 'root'], { env: ENV }).bytes.equals(Buffer.from(turn))).toBe(true);
  }, 60_000);
});
