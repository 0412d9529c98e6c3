import { auditState } from '../api/state/state.js';
import { shortId } from '../core/ids.js';
import { auditJson } from '../output/records.js';
import { tsvLine } from '../output/style.js';
import { defineCommand } from './command.js';

export default defineCommand({
  name: 'audit',
  summary: 'who wrote which state keys, when, in which commit: every state write of a chain, newest first',
  description: 'One line per state write: commit, time, agent, operation, keys written. --json: one record per write with the diff per namespace.',
  args: [{ name: 'branch', description: 'commit id, branch, tag or NAME~N', required: true, values: 'branch' }],
  options: [],
  examples: ['ctx audit design-room', 'ctx audit design-room --json | jq -r .agent | sort | uniq -c'],
  async run(io, [branch]: [string]) {
    return io.withRepo(false, (repo) => auditState(repo, branch));
  },
  print(io, entries) {
    if (io.flags.json) return entries.forEach((e) => io.json(auditJson(e)));
    io.out(entries.map((e) => tsvLine([shortId(e.id.slice(4)), e.created_at, e.state.agent, e.state.op, e.state.keys.join(',')])).join(''));
  },
});
