import { describeProblem, verify } from '../api/maintain/verify.js';
import { IntegrityError } from '../errors/index.js';
import { verifyJson } from '../output/records.js';
import { defineCommand } from './command.js';

export default defineCommand({
  name: 'verify',
  summary: "check every artifact's BLAKE3, the meta schema and chain sanity",
  args: [{ name: 'id', description: 'chain to check (default: every branch)', values: 'branch' }],
  options: [{ flags: '--all', description: 'every branch' }],
  examples: ['ctx verify --all', 'ctx verify alice/auth-fix --json'],
  async run(io, [id]: [string | undefined], flags: { all?: boolean }) {
    return io.withRepo(false, (repo) => verify(repo, flags.all ? undefined : id));
  },
  print(io, report) {
    if (io.flags.json) return io.json(verifyJson(report));
    if (report.problems.length === 0) return io.out(`ok ${report.commits} commits\n`);
    for (const p of report.problems.slice(1)) io.note(`ctx: ${describeProblem(p)}`);
  },
  failure(report) {
    if (report.problems.length) return new IntegrityError(describeProblem(report.problems[0]));
  },
});
