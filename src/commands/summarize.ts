import { summarize } from '../api/write/summarize.js';
import { shortId } from '../core/ids.js';
import { CtxError, UsageError } from '../errors/index.js';
import { summaryJson } from '../output/records.js';
import { tsvLine } from '../output/style.js';
import { defineCommand } from './command.js';
import { ANNOTATOR_OPTION } from './metadata-flags.js';

interface Flags {
  command: string;
  all?: boolean;
  missing?: boolean;
  materialized?: boolean;
  jobs?: string;
  principal?: string;
}

export default defineCommand({
  name: 'summarize',
  summary: 'run a command over commits and annotate each with its output as summary',
  args: [{ name: 'id', description: 'a branch or commit: its chain (default: every branch)', values: 'branch' }],
  options: [
    { flags: '--command <cmd>', description: "shell command: the commit's delta on stdin, the summary on stdout (first line, 200 characters)", required: true },
    { flags: '--all', description: 'every branch' },
    { flags: '--missing', description: 'only commits without a summary (annotated or in meta.json)' },
    { flags: '--materialized', description: 'the whole context at the commit on stdin instead of its delta' },
    { flags: '--jobs <n>', description: 'commands run at once (default 1)' },
    ANNOTATOR_OPTION,
  ],
  examples: ["ctx summarize alice/auth-fix --missing --command 'head -c 200'", "ctx summarize --all --missing --command 'wc -l' --jobs 4 --json"],
  async run(io, [id]: [string | undefined], flags: Flags) {
    if (id !== undefined && flags.all) throw new UsageError('give an id or --all, not both');
    if (flags.jobs !== undefined && !/^[1-9]\d*$/.test(flags.jobs)) throw new UsageError(`--jobs takes a whole number of at least 1, not '${flags.jobs}'`);
    const bar = io.progress('summarizing', 'commits');
    return io
      .withRepo(false, (repo) =>
        summarize(repo, {
          command: flags.command,
          spec: id,
          missing: flags.missing,
          materialized: flags.materialized,
          jobs: flags.jobs === undefined ? 1 : Number(flags.jobs),
          principal: flags.principal,
          onProgress: (done, total) => bar.update(done, total),
        }),
      )
      .finally(() => bar.done());
  },
  print(io, outcomes) {
    for (const o of outcomes) {
      if (io.flags.json) io.json(summaryJson(o));
      else if (o.status === 'annotated') io.out(tsvLine([shortId(o.id.slice(4)), o.summary ?? '']));
      else io.note(`${shortId(o.id.slice(4))}: failed: ${o.error}`);
    }
    const failed = outcomes.filter((o) => o.status === 'failed').length;
    io.note(`${outcomes.length - failed} annotated, ${failed} failed`);
  },
  failure(outcomes) {
    const failed = outcomes.filter((o) => o.status === 'failed').length;
    if (failed) return new CtxError(`${failed} of ${outcomes.length} commits were not summarized: the command failed`, { hint: 'fix the command and run again with --missing' });
  },
});
