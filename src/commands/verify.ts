import { describeProblem, verify } from '../api/verify.js';
import { IntegrityError } from '../errors/index.js';
import type { Cli } from '../cli/context.js';

export async function run(cli: Cli, id: string | undefined, flags: { all?: boolean }) {
  const report = await cli.withRepo(false, (repo) => verify(repo, flags.all ? undefined : id));
  if (cli.flags.json) cli.json({ v: 1, ok: report.problems.length === 0, commits: report.commits, problems: report.problems });
  if (report.problems.length === 0) {
    if (!cli.flags.json) cli.out(`ok ${report.commits} commits\n`);
    return;
  }
  if (!cli.flags.json) for (const p of report.problems.slice(1)) cli.note(`ctx: ${describeProblem(p)}`);
  throw new IntegrityError(describeProblem(report.problems[0]));
}
