import { summarize } from '../api/summarize.js';
import { shortId } from '../core/ids.js';
import { CtxError, UsageError } from '../errors/index.js';
import { progress } from '../output/progress.js';
import type { Cli } from '../cli/context.js';

interface Flags {
  command: string;
  all?: boolean;
  missing?: boolean;
  materialized?: boolean;
  jobs?: string;
  principal?: string;
}

export async function run(cli: Cli, id: string | undefined, flags: Flags) {
  if (id !== undefined && flags.all) throw new UsageError('give an id or --all, not both');
  if (flags.jobs !== undefined && !/^[1-9]\d*$/.test(flags.jobs)) throw new UsageError(`--jobs takes a whole number of at least 1, not '${flags.jobs}'`);
  const bar = await progress('summarizing');
  const outcomes = await cli
    .withRepo(false, (repo) =>
      summarize(repo, {
        command: flags.command,
        spec: id,
        missing: flags.missing,
        materialized: flags.materialized,
        jobs: flags.jobs === undefined ? 1 : Number(flags.jobs),
        principal: flags.principal,
        onProgress: (done, total) => bar.update(`${done}/${total}`),
      }),
    )
    .finally(() => bar.done());
  for (const o of outcomes) {
    if (cli.flags.json) cli.json({ v: 1, ...o });
    else if (o.status === 'annotated') cli.out(`${shortId(o.id.slice(4))}\t${o.summary}\n`);
    else cli.note(`${shortId(o.id.slice(4))}: failed: ${o.error}`);
  }
  const failed = outcomes.filter((o) => o.status === 'failed').length;
  cli.note(`${outcomes.length - failed} annotated, ${failed} failed`);
  if (failed) throw new CtxError(`${failed} of ${outcomes.length} commits were not summarized: the command failed`, { hint: 'fix the command and run again with --missing' });
}
