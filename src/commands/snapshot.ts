import { snapshot, type SnapshotStop } from '../api/write/write.js';
import { shortId } from '../core/ids.js';
import { writtenJson } from '../output/records.js';
import { defineCommand } from './command.js';

export default defineCommand({
  name: 'snapshot',
  summary: "store a branch's whole context as a snapshot commit on top of it",
  description:
    "Add a snapshot commit to BRANCH: the context at its tip, materialized for --stop, stored whole. A later materialize (resume) walks back at most to it and reads it plus the deltas after it; --stop root passes over snapshots and still gives every original byte. Each snapshot stores a whole copy of the context in the repo; git config ctx.autoSnapshot N makes one after any write that leaves more than N commits since the last compaction or snapshot.",
  args: [{ name: 'branch', description: 'the branch to snapshot', required: true, values: 'branch' }],
  options: [{ flags: '--stop <stop>', description: 'the materialization it stands for: compaction (default) or root', choices: ['compaction', 'root'], default: 'compaction' }],
  examples: ['ctx snapshot alice/auth-fix', 'ctx snapshot alice/auth-fix --stop root --json'],
  async run(io, [branch]: [string], flags: { stop: SnapshotStop }) {
    return { branch, written: await io.withRepo(false, (repo) => snapshot(repo, branch, flags.stop)) };
  },
  print(io, { branch, written }) {
    if (io.flags.json) return io.json(writtenJson(written, branch));
    io.out(`${shortId(written.oid)}\n`);
  },
});
