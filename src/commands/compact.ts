import { readFileSync } from 'node:fs';
import { compact } from '../api/compact.js';
import { parseStages, type Stage } from '../core/compaction.js';
import { fullId, shortId } from '../core/ids.js';
import { UsageError } from '../errors/index.js';
import type { Cli } from '../cli/context.js';
import { metadataFields, type MetadataFlags } from './metadata-flags.js';

interface Flags extends Omit<MetadataFlags, 'trigger'> {
  summaryFile?: string;
  summarizer?: string;
  policy?: string;
  budget?: string;
  keepTurns?: string;
  transcript?: string;
}

export async function run(cli: Cli, branch: string, flags: Flags) {
  if (flags.summaryFile === undefined && flags.summarizer === undefined && flags.policy === undefined)
    throw new UsageError('give --summary-file FILE, --summarizer CMD or --policy STAGES');
  if (flags.summaryFile !== undefined && flags.summarizer !== undefined) throw new UsageError('give --summary-file or --summarizer, not both');
  let stages: Stage[] = ['summarize'];
  if (flags.policy !== undefined) {
    try {
      stages = parseStages(flags.policy);
    } catch (e) {
      throw new UsageError((e as Error).message);
    }
    if (stages.length === 0) throw new UsageError('--policy takes stages: dedupe,prune-tool-outputs,summarize,truncate');
  }
  const summaryText = flags.summaryFile === undefined ? undefined : readFileSync(flags.summaryFile === '-' ? 0 : flags.summaryFile, 'utf8');
  const done = await cli.withRepo(false, (repo) =>
    compact(repo, branch, {
      fields: metadataFields(flags),
      stages,
      budget: flags.budget === undefined ? undefined : whole('--budget', flags.budget),
      keepTurns: flags.keepTurns === undefined ? undefined : whole('--keep-turns', flags.keepTurns),
      summaryText,
      summarizer: flags.summarizer,
      transcript: flags.transcript,
      note: (line) => cli.note(line),
    }),
  );
  const commit = done.commit;
  for (const w of commit?.warnings ?? []) cli.note(w);
  if (cli.flags.json)
    return cli.json({
      v: 1,
      id: commit && fullId(commit.oid),
      branch,
      parent: commit && (commit.parent === null ? null : fullId(commit.parent)),
      format: done.format,
      compacted: done.from,
      caught_up: done.caughtUp.map((c) => fullId(c.oid)),
      messages_before: done.messagesBefore,
      messages_after: done.messagesAfter,
      tokens_before: done.tokensBefore,
      tokens_after: done.tokensAfter,
      stages: done.report,
    });
  for (const r of done.report) cli.note(`${r.stage.padEnd(18)} ${r.skipped ? 'skipped (under budget)' : `${r.changed} changed`}, ${r.messages} messages, ${r.tokens} tokens`);
  if (commit) cli.out(`${shortId(commit.oid)}\n`);
  else cli.note(`nothing written: ${branch} is already under the budget (${done.tokensAfter} tokens); every stage was skipped`);
}

function whole(flag: string, s: string): number {
  if (!/^\d+$/.test(s)) throw new UsageError(`${flag} takes a whole number, not '${s}'`);
  return Number(s);
}
