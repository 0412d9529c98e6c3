import { sessions } from '../api/sync/saves.js';
import { shortId } from '../core/ids.js';
import { sessionJson } from '../output/records.js';
import { oneLine, plainWidth, shortTime, table, tsvLine, visible } from '../output/style.js';
import { defineCommand } from './command.js';

export default defineCommand({
  name: 'sessions',
  summary: 'saved sessions, newest first',
  description: 'List the saved sessions (ctx save) of the store, fetched ones included, newest first: a table on a terminal, else one TAB-separated line each (name, commit, time, branch, message count, description); --json gives one record per line.',
  args: [],
  options: [],
  examples: ['ctx sessions', 'ctx sessions --json'],
  async run(io) {
    return io.withRepo(false, (repo) => sessions(repo));
  },
  print(io, list) {
    if (io.flags.json) return list.forEach((s) => io.json(sessionJson(s)));
    const c = io.chalk;
    const count = (n: number | null) => (n === null ? '?' : String(n));
    if (!io.tty || list.length === 0)
      return io.out(list.map((s) => tsvLine([c.green(visible(s.name)), c.yellow(shortId(s.id.slice(4))), visible(s.saved_at), visible(s.branch), count(s.message_count), oneLine(s.description, 200)])).join(''));
    const rows = list.map((s) => [c.green(visible(s.name)), c.yellow(shortId(s.id.slice(4))), visible(shortTime(s.saved_at)), visible(s.branch), count(s.message_count), oneLine(s.description, 60)]);
    io.out(table([['NAME', 'COMMIT', 'SAVED', 'BRANCH', 'MESSAGES', 'DESCRIPTION'].map((h) => c.bold(h)), ...rows], plainWidth));
  },
});
