import type { IndexStatus } from '../api/search/search-index.js';
import { UsageError } from '../errors/index.js';
import { indexStatusJson } from '../output/records.js';
import { tsvLine } from '../output/style.js';
import { unknownName } from '../core/nearest.js';
import { defineCommand } from './command.js';

const ACTIONS = ['status', 'rebuild'];
const size = (n: number) => (n < 1024 * 1024 ? `${Math.round(n / 1024)} KiB` : `${(n / 1024 / 1024).toFixed(1)} MiB`);

export default defineCommand({
  name: 'index',
  summary: 'the search index grep and files answer from: show its state, or rebuild it from every ref',
  description:
    'The search index is derived data at <store>/ctx/search/index.sqlite (never pushed): every search brings it up to date with the refs first. ' +
    '`status` (the default) says whether it is there, whether the refs are as it last read them, and what it holds. ' +
    '`rebuild` empties it and reads every commit of every branch again (the next search would rebuild a missing or damaged one by itself).',
  args: [{ name: 'action', description: 'status (default) or rebuild', values: ACTIONS }],
  options: [],
  examples: ['ctx index', 'ctx index rebuild', 'ctx index status --json'],
  async run(io, [action]: [string | undefined]): Promise<IndexStatus> {
    if (action !== undefined && !ACTIONS.includes(action)) throw new UsageError(unknownName('action', action, ACTIONS, `unknown index action '${action}' (status, rebuild)`, { closed: true }));
    // loaded here, as grep loads it: only the index's own chunk carries SQLite
    const { indexStatus } = await import('../api/search/search-index.js');
    return io.withRepo(false, (repo) => indexStatus(repo, { rebuild: action === 'rebuild' }));
  },
  print(io, r) {
    if (io.flags.json) return io.json(indexStatusJson(r));
    if (!r.exists) return io.out(`no search index at ${r.path} (the next grep or files builds it)\n`);
    io.out(tsvLine([r.current ? 'current' : 'behind the refs', `${r.commits} commits`, `${r.refs} refs`, size(r.bytes), r.path]));
  },
});
