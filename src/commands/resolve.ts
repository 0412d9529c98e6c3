import { resolveAt } from '../api/capture/resolve.js';
import { fullId } from '../core/ids.js';
import { resolvedJson } from '../output/records.js';
import { defineCommand } from './command.js';

export default defineCommand({
  name: 'resolve',
  summary: 'the commit a principal had at a time: the nearest at or before it; exits 4 before the first',
  description:
    'Prints the id (ctx-<40 hex>) of the latest commit by PRINCIPAL whose created_at is at or before TIME, among the commits any branch, tag or remote-tracking branch reaches. ' +
    'Ties and clocks that disagree: the latest created_at wins, then the deeper commit of its chain. A binary search over the timeline kept under <store>/ctx/timeline/, ' +
    'updated by every write and brought up to date when the refs moved otherwise (fetch, fork, another tool).',
  args: [],
  options: [
    { flags: '--principal <name>', description: 'who (meta.json principal, exactly)', required: true },
    { flags: '--at <time>', description: 'ISO 8601 with a zone (2026-11-20T14:03:00Z, +02:00) or a date (its first instant, UTC)', required: true },
    { flags: '--branch <name>', description: "only commits on this branch's chain", values: 'branch' },
  ],
  examples: [
    'ctx resolve --principal alice --at 2026-11-20T14:03:00Z',
    'ctx resolve --principal alice --at 2026-11-20T14:03:00Z --branch alice/auth-fix --json',
  ],
  async run(io, _args: [], opts: { principal: string; at: string; branch?: string }) {
    const q = { principal: opts.principal, at: opts.at, branch: opts.branch };
    return io.withRepo(false, (repo) => resolveAt(repo, q));
  },
  print(io, r) {
    if (io.flags.json) return io.json(resolvedJson(r));
    io.out(`${fullId(r.oid)}\n`);
  },
});
