import { readTranscript } from '../api/read/files.js';
import { compact } from '../api/write/compact.js';
import { parseStages, type Stage } from '../core/compaction.js';
import { shortId } from '../core/ids.js';
import { UsageError } from '../errors/index.js';
import { compactJson } from '../output/records.js';
import { defineCommand } from './command.js';
import { readStdin } from './stdin.js';
import { METADATA_OPTIONS, metadataFields, type MetadataFlags } from './metadata-flags.js';

interface Flags extends Omit<MetadataFlags, 'trigger'> {
  summaryFile?: string;
  summarizer?: string;
  policy?: string;
  budget?: string;
  keepTurns?: string;
  transcript?: string;
}

export default defineCommand({
  name: 'compact',
  summary: 'add a compaction commit: the context at the tip through a compaction policy',
  args: [{ name: 'branch', description: 'the branch to compact', required: true, values: 'branch' }],
  options: [
    { flags: '--summary-file <file>', description: 'the summary that replaces the compacted messages (- for stdin)', values: 'file' },
    { flags: '--summarizer <cmd>', description: 'shell command: the messages to summarize as JSON on stdin, the summary on stdout' },
    {
      flags: '--policy <stages>',
      description: 'comma-separated stages, in order: dedupe, prune-tool-outputs, summarize, truncate (default: summarize)',
      values: ['dedupe', 'prune-tool-outputs', 'summarize', 'truncate', 'dedupe,prune-tool-outputs,summarize,truncate'],
    },
    { flags: '--budget <tokens>', description: 'target tokens: later stages are skipped once under it; truncate needs it' },
    { flags: '--keep-turns <n>', description: 'the latest turns kept as they are (default 2)' },
    { flags: '--transcript <file>', description: 'the Claude Code transcript the branch captures: bytes past the chain are checkpointed first', values: 'file' },
    ...METADATA_OPTIONS,
  ],
  examples: [
    'ctx compact alice/auth-fix --summary-file summary.md',
    'ctx compact alice/auth-fix --policy dedupe,prune-tool-outputs,truncate --budget 50000',
    "ctx compact alice/auth-fix --summarizer 'head -c 2000' --keep-turns 3 --json",
  ],
  async run(io, [branch]: [string], flags: Flags) {
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
    const summaryText = flags.summaryFile === undefined ? undefined : flags.summaryFile === '-' ? (await readStdin()).toString('utf8') : Buffer.from(readTranscript(flags.summaryFile)).toString('utf8');
    const done = await io.withRepo(false, (repo) =>
      compact(repo, branch, {
        fields: metadataFields(flags),
        stages,
        budget: flags.budget === undefined ? undefined : whole('--budget', flags.budget),
        keepTurns: flags.keepTurns === undefined ? undefined : whole('--keep-turns', flags.keepTurns),
        summaryText,
        summarizer: flags.summarizer,
        transcript: flags.transcript,
        note: (line) => io.note(line),
      }),
    );
    for (const w of done.commit?.warnings ?? []) io.note(w);
    return { branch, done };
  },
  print(io, { branch, done }) {
    if (io.flags.json) return io.json(compactJson(done, branch));
    for (const r of done.report) io.note(`${r.stage.padEnd(18)} ${r.skipped ? 'skipped (under budget)' : `${r.changed} changed`}, ${r.messages} messages, ${r.tokens} tokens`);
    if (done.commit) io.out(`${shortId(done.commit.oid)}\n`);
    else io.note(`nothing written: ${branch} is already under the budget (${done.tokensAfter} tokens); every stage was skipped`);
  },
});

function whole(flag: string, s: string): number {
  if (!/^\d+$/.test(s)) throw new UsageError(`${flag} takes a whole number, not '${s}'`);
  return Number(s);
}
