// `ctx summarize`: run a command over commits and write its output as their summary annotation.
import { spawn } from 'node:child_process';
import { annotate } from './branch-ops.js';
import { materialize } from '../read/materialize.js';
import { artifactOf, commitRecords, type CommitRecord } from '../read/read.js';
import type { RepoContext } from '../repo/repo-context.js';

export interface SummarizeOptions {
  /** a shell command: the commit's delta (or its materialized context) on stdin, the summary on stdout */
  command: string;
  /** a branch or commit: its chain; undefined: every branch */
  spec?: string;
  /** only commits whose summary (annotated, else meta.json) is empty */
  missing?: boolean;
  /** the whole context at the commit on stdin instead of its delta */
  materialized?: boolean;
  /** commands run at once (default 1) */
  jobs?: number;
  principal?: string;
  onProgress?: (done: number, total: number) => void;
}

export interface SummaryOutcome {
  id: string;
  status: 'annotated' | 'failed';
  summary?: string;
  error?: string;
}

/** The longest summary kept: the first line of the output, cut here. */
export const SUMMARY_CHARS = 200;

/** The commits to summarize, oldest first (chain order; by time with every branch). */
export async function summaryTargets(ctx: RepoContext, spec: string | undefined, missing: boolean): Promise<CommitRecord[]> {
  const oids = new Set<string>();
  if (spec !== undefined) (await ctx.firstParents(await ctx.resolve(spec))).forEach((o) => oids.add(o));
  else for (const tip of new Set(ctx.branchTips().values())) (await ctx.firstParents(tip)).forEach((o) => oids.add(o));
  const records = await commitRecords(ctx, [...oids].reverse());
  if (spec === undefined) records.sort((a, b) => a.meta.created_at.localeCompare(b.meta.created_at));
  return missing ? records.filter((r) => r.summary.trim() === '') : records;
}

export async function summarize(ctx: RepoContext, opts: SummarizeOptions): Promise<SummaryOutcome[]> {
  const targets = await summaryTargets(ctx, opts.spec, opts.missing ?? false);
  const outcomes: SummaryOutcome[] = new Array(targets.length);
  let next = 0;
  let done = 0;
  // notes are one ref: annotations are written one at a time, commands run in parallel
  let writes = Promise.resolve();
  const worker = async () => {
    while (next < targets.length) {
      const i = next++;
      const rec = targets[i];
      try {
        const input = opts.materialized ? (await materialize(ctx, rec.id)).bytes : await artifactOf(ctx, rec.id);
        const summary = firstLine(await run(opts.command, input, { CTX_COMMIT: rec.id, CTX_FORMAT: rec.meta.format, CTX_TYPE: rec.meta.type }));
        if (summary === '') throw new Error('the command printed nothing');
        const write = writes.then(() => annotate(ctx, rec.id, { summary, principal: opts.principal }));
        writes = write.then(() => undefined, () => undefined);
        await write;
        outcomes[i] = { id: rec.id, status: 'annotated', summary };
      } catch (e) {
        outcomes[i] = { id: rec.id, status: 'failed', error: (e as Error).message };
      }
      opts.onProgress?.(++done, targets.length);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(opts.jobs ?? 1, targets.length)) }, worker));
  return outcomes;
}

function firstLine(out: string): string {
  const line = out.trim().split('\n')[0]?.trim() ?? '';
  return line.length > SUMMARY_CHARS ? line.slice(0, SUMMARY_CHARS) : line;
}

function run(command: string, input: Uint8Array, env: Record<string, string>): Promise<string> {
  return new Promise((done, fail) => {
    const child = spawn('sh', ['-c', command], { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, ...env } });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.on('error', (e) => fail(e));
    child.on('close', (code) => {
      if (code === 0) return done(Buffer.concat(out).toString('utf8'));
      const why = Buffer.concat(err).toString('utf8').trim().split('\n')[0];
      fail(new Error(`exit ${code}${why ? `: ${why}` : ''}`));
    });
    child.stdin.on('error', () => {}); // a command that does not read all its input
    child.stdin.end(input);
  });
}
