import { threads } from '../api/read/read.js';
import { shortId } from '../core/ids.js';
import { threadJson } from '../output/records.js';
import { oneLine, plainWidth, shortTime, table, tsvLine, visible } from '../output/style.js';
import { defineCommand } from './command.js';

export default defineCommand({
  name: 'threads',
  summary: "a chain's threads and their last activity, newest first: a status preamble",
  description:
    'The threads (checkpoint --thread) on the chain at ID, each by its last commit, newest first: a table on a terminal, else one TAB-separated line each (thread, commit, time, author, commits, summary); --json gives one record per line.',
  args: [{ name: 'id', description: 'branch or commit whose chain is read', required: true, values: 'branch' }],
  options: [],
  examples: ['ctx threads design-room', 'ctx threads design-room --json'],
  async run(io, [id]: [string]) {
    return io.withRepo(false, (repo) => threads(repo, id));
  },
  print(io, list) {
    if (io.flags.json) return list.forEach((t) => io.json(threadJson(t)));
    const c = io.chalk;
    if (!io.tty || list.length === 0)
      return io.out(list.map((t) => tsvLine([c.green(visible(t.thread)), c.yellow(shortId(t.id.slice(4))), visible(t.created_at), visible(t.author ?? '-'), t.commits, oneLine(t.summary, 1000)])).join(''));
    const rows = list.map((t) => [c.green(visible(t.thread)), c.yellow(shortId(t.id.slice(4))), visible(shortTime(t.created_at)), visible(t.author ?? '-'), String(t.commits), oneLine(t.summary, 60)]);
    io.out(table([['THREAD', 'LAST', 'TIME', 'AUTHOR', 'COMMITS', 'SUMMARY'].map((h) => c.bold(h)), ...rows], plainWidth));
  },
});
