import { addRemote, listRemotes, redact, removeRemote } from '../store/sync/remotes.js';
import { refs } from '../store/refs.js';
import { UsageError } from '../errors/index.js';
import type { Cli } from '../cli/context.js';
import type { RepoContext } from '../api/repo-context.js';

export async function run(cli: Cli, action: string | undefined, name: string | undefined, url: string | undefined) {
  return cli.withRepo(action === 'add', (repo) => remote(cli, repo, action, name, url));
}

async function remote(cli: Cli, repo: RepoContext, action: string | undefined, name: string | undefined, url: string | undefined) {
  const gitdir = repo.gitdir;
  if (action === 'add') {
    if (!name || !url) throw new UsageError('remote add needs NAME and URL');
    const r = addRemote(gitdir, name, url);
    if (cli.flags.json) return cli.json({ v: 1, name: r.name, url: redact(r.url) });
    return cli.out(`${r.name}\t${redact(r.url)}\n`);
  }
  if (action === 'remove' || action === 'rm') {
    if (!name) throw new UsageError('remote remove needs NAME');
    const r = removeRemote(gitdir, name);
    // as `git remote remove`: its tracking refs go too (the commits stay until gc)
    const notes = repo.refs.read(refs.remoteNotes(r.name));
    for (const t of [...repo.refs.list(refs.remotePrefix(r.name)), ...(notes ? [{ ref: refs.remoteNotes(r.name), oid: notes }] : [])]) repo.refs.delete(t.ref, t.oid);
    if (cli.flags.json) return cli.json({ v: 1, removed: r.name, url: redact(r.url) });
    return cli.out(`removed ${r.name}\n`);
  }
  if (action !== undefined && action !== 'list') throw new UsageError(`unknown remote action '${action}' (add, remove, list)`);
  const all = listRemotes(gitdir);
  if (cli.flags.json) return all.forEach((r) => cli.json({ v: 1, name: r.name, url: redact(r.url) }));
  cli.out(all.map((r) => `${r.name}\t${redact(r.url)}\n`).join(''));
}
