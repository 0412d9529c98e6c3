import { currentOf } from '../api/capture/resolve.js';
import { fullId } from '../core/ids.js';
import { currentJson } from '../output/records.js';
import { defineCommand } from './command.js';

export default defineCommand({
  name: 'current',
  summary: "the tip of a session's branch, e.g. for a ticket's context_id; exits 4 when no branch holds it",
  description:
    "Prints the id (ctx-<40 hex>) of the tip of the branch whose tip commit has meta.json session_id SESSION, whichever runtime or command wrote it. " +
    'When several do (subagents, forks of a rewritten transcript), the one with the newest created_at; --json lists them all.',
  args: [],
  options: [{ flags: '--session <id>', description: 'the session (default: $CTX_SESSION)' }],
  examples: ['ctx current --session "$SESSION"', 'ctx current --session "$SESSION" --json'],
  async run(io, _args: [], opts: { session?: string }) {
    return io.withRepo(false, (repo) => currentOf(repo, opts.session ?? repo.defaults.session));
  },
  print(io, r) {
    if (io.flags.json) return io.json(currentJson(r));
    io.out(`${fullId(r.oid)}\n`);
  },
});
