import { fork } from '../api/write/branch-ops.js';
import { shortId } from '../core/ids.js';
import { forkJson } from '../output/records.js';
import { tsvLine } from '../output/style.js';
import { defineCommand } from './command.js';

export default defineCommand({
  name: 'fork',
  summary: 'a new branch at any commit',
  args: [
    { name: 'id', description: 'commit to fork from', required: true, values: 'branch' },
    { name: 'name', description: 'new branch (default: fork/<12 hex>)' },
  ],
  options: [],
  examples: ['ctx fork alice/auth-fix~2 review/finding-1', 'ctx fork alice/auth-fix --json'],
  async run(io, [id, name]: [string, string | undefined]) {
    return io.withRepo(false, (repo) => fork(repo, id, name));
  },
  print(io, made) {
    if (io.flags.json) return io.json(forkJson(made.branch, made.oid));
    io.out(tsvLine([made.branch, shortId(made.oid)]));
  },
});
