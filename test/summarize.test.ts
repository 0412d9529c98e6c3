// `ctx summarize`: a command's output as summary annotations, for exactly the commits without one.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CORPUS, FIXED_ENV, ctx, itCorpus, newStore } from './helpers.js';

const BIG = join(CORPUS, 'claude-code', 'randlee__claude-history__simple-967e501d-session.jsonl');
const records = (out: string) => out.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l));
const line = (text: string) => JSON.stringify({ role: 'user', content: text });

/** Three commits in openai-chat-v1; the middle one has a summary. */
function chain(): string {
  const s = newStore();
  const put = (text: string, summary?: string) =>
    // --summary '': no summary (a checkpoint without one derives it from the messages)
    expect(ctx(s, ['checkpoint', '-b', 'main', '--format', 'openai-chat-v1', '--summary', summary ?? ''], { env: FIXED_ENV, input: `[${line(text)}]` }).code).toBe(0);
  put('first message, long enough to cut');
  put('second', 'already summarized');
  put('third FAIL here');
  return s;
}

describe('ctx summarize', () => {
  it('annotates exactly the commits without a summary; a failing command is recorded and skipped; a rerun with --missing finishes the job', () => {
    const s = chain();
    // fails on the third commit's delta
    const cmd = 'x=$(cat); case "$x" in *FAIL*) echo broken >&2; exit 7;; esac; printf %s "$x" | head -c 20';
    const r = ctx(s, ['--json', 'summarize', 'main', '--missing', '--command', cmd], { env: FIXED_ENV });
    expect(r.code).toBe(1);
    const out = records(r.stdout);
    expect(out.map((o) => o.status)).toEqual(['annotated', 'failed']);
    expect(out[0].summary).toBe('[{"role":"user","con');
    expect(out[1].error).toBe('exit 7: broken');
    expect(r.stderr).toContain('"message":"1 of 2 commits were not summarized: the command failed"');
    const log = records(ctx(s, ['--json', 'log', 'main']).stdout);
    expect(log.map((c) => c.summary)).toEqual(['', 'already summarized', '[{"role":"user","con']);
    // resumable: only the failed one is left
    const again = ctx(s, ['--json', 'summarize', '--missing', '--command', 'wc -c | tr -d " "'], { env: FIXED_ENV });
    expect(again.code, again.stderr).toBe(0);
    expect(records(again.stdout).map((o) => [o.id, o.summary])).toEqual([[log[0].id, String(`[${line('third FAIL here')}]`.length)]]);
    const done = ctx(s, ['--json', 'summarize', '--all', '--missing', '--command', 'false'], { env: FIXED_ENV });
    expect([done.code, done.stdout]).toEqual([0, '']);
  });

  it('without --missing every commit is summarized; --materialized gives the whole context', () => {
    const s = chain();
    const r = ctx(s, ['summarize', 'main', '--materialized', '--command', 'wc -c | tr -d " "', '--jobs', '3'], { env: FIXED_ENV });
    expect(r.code, r.stderr).toBe(0);
    const sizes = r.stdout.trim().split('\n').map((l) => Number(l.split('\t')[1]));
    const whole = (spec: string) => ctx(s, ['materialize', spec]).bytes.length;
    expect(sizes).toEqual([whole('main~2'), whole('main~1'), whole('main')]);
    expect(ctx(s, ['summarize', 'main', '--all', '--command', 'cat']).code).toBe(2);
    expect(ctx(s, ['summarize', '--command', 'cat', '--jobs', '0']).code).toBe(2);
  });

  itCorpus('a corpus session: every commit has a derived summary, so --missing finds none; --all redoes all 14 with 4 jobs', () => {
    const s = newStore();
    expect(ctx(s, ['import', 'claude-code', BIG, '-b', 'big'], { env: FIXED_ENV }).code).toBe(0);
    const before = records(ctx(s, ['--json', 'log', 'big']).stdout);
    expect([before.length, before.filter((c) => c.summary === '').length]).toEqual([14, 0]);
    expect(ctx(s, ['--json', 'summarize', '--all', '--missing', '--jobs', '4', '--command', 'head -c 20'], { env: FIXED_ENV })).toMatchObject({ code: 0, stdout: '' });
    const r = ctx(s, ['--json', 'summarize', '--all', '--jobs', '4', '--command', 'head -c 20'], { env: FIXED_ENV });
    expect(r.code, r.stderr).toBe(0);
    expect(records(r.stdout).map((o) => o.id).sort()).toEqual(before.map((c) => c.id).sort());
    const after = records(ctx(s, ['--json', 'log', 'big']).stdout);
    expect(after.filter((c) => c.summary.startsWith('{"')).length).toBe(14);
  });
});
