import { addRemote, redact, deleteRemote, remotes, type Remote } from '../api/sync/remote-config.js';
import { UsageError } from '../errors/index.js';
import { remoteJson, remoteRemovedJson } from '../output/records.js';
import { plainWidth, table, tsvLine, visible } from '../output/style.js';
import { defineCommand } from './command.js';
import { unknownName } from '../core/nearest.js';

type Result = { added: Remote } | { removed: Remote } | { list: Remote[] };

export default defineCommand({
  name: 'remote',
  summary: 'list, add or remove git remotes of the store',
  args: [
    { name: 'action', description: 'list (default), add or remove', values: ['list', 'add', 'remove'] },
    { name: 'name', description: 'remote name', values: 'remote' },
    { name: 'url', description: 'URL for add: https://…, ssh://…, host:path or a local path' },
  ],
  options: [],
  examples: ['ctx remote add origin https://git.example.com/team/agent-context.git', 'ctx remote', 'ctx remote remove origin'],
  async run(io, [action, name, url]: [string | undefined, string | undefined, string | undefined]): Promise<Result> {
    // before the store is opened (`add` makes one)
    if (action !== undefined && !['add', 'remove', 'rm', 'list'].includes(action)) throw new UsageError(unknownName('action', action, ['add', 'remove', 'list'], `unknown remote action '${action}' (add, remove, list)`, { closed: true }));
    return io.withRepo(action === 'add', async (repo) => {
      if (action === 'add') {
        if (!name || !url) throw new UsageError('remote add needs NAME and URL');
        return { added: addRemote(repo, name, url) };
      }
      if (action === 'remove' || action === 'rm') {
        if (!name) throw new UsageError('remote remove needs NAME');
        return { removed: deleteRemote(repo, name) };
      }
      if (action !== undefined && action !== 'list') throw new UsageError(`unknown remote action '${action}' (add, remove, list)`);
      return { list: remotes(repo) };
    });
  },
  print(io, r) {
    if ('added' in r) {
      if (io.flags.json) return io.json(remoteJson(r.added.name, redact(r.added.url)));
      return io.out(tsvLine([r.added.name, redact(r.added.url)]));
    }
    if ('removed' in r) {
      if (io.flags.json) return io.json(remoteRemovedJson(r.removed.name, redact(r.removed.url)));
      return io.out(`removed ${visible(r.removed.name)}\n`);
    }
    if (io.flags.json) return r.list.forEach((x) => io.json(remoteJson(x.name, redact(x.url))));
    if (!io.tty || r.list.length === 0) return io.out(r.list.map((x) => tsvLine([x.name, redact(x.url)])).join(''));
    const c = io.chalk;
    io.out(table([['REMOTE', 'URL'].map((h) => c.bold(h)), ...r.list.map((x) => [c.green(visible(x.name)), visible(redact(x.url))])], plainWidth));
  },
});
