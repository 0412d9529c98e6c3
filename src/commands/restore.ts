import { restore } from '../api/sync/saves.js';
import { shortId } from '../core/ids.js';
import { restoredJson } from '../output/records.js';
import { defineCommand } from './command.js';

export default defineCommand({
  name: 'restore',
  summary: "a saved session's context back as a branch's working context, on top of its tip (nothing lost)",
  description:
    "Add a commit to BRANCH (default: the branch the save was made from; made when missing) whose context is the saved one: a compaction holding the saved context, so `ctx materialize BRANCH` gives it and what follows. The tip before stays in the chain (BRANCH~1), and `--stop root` passes over the restore and reads every commit of the branch.",
  args: [{ name: 'name', description: 'the saved session (ctx sessions)', required: true }],
  options: [{ flags: '-b, --branch <branch>', description: 'the branch to restore onto (default: the one saved)', values: 'branch' }],
  examples: ['ctx restore save/ops-bot/20260102-030405', 'ctx restore ops-bot/pre-migration -b ops-bot/retry --json'],
  async run(io, [name]: [string], flags: { branch?: string }) {
    return io.withRepo(false, (repo) => restore(repo, name, { branch: flags.branch }));
  },
  print(io, r) {
    if (io.flags.json) return io.json(restoredJson(r));
    io.note(`restored ${r.session.name} (${r.commit.meta.message_count} messages) on ${r.branch}${r.previous ? `; its previous tip is ${shortId(r.previous)}` : ''}`);
    io.out(`${shortId(r.commit.oid)}\n`);
  },
});
