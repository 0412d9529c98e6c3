// `ctx remote`: the store's git remotes, with URLs redacted for printing.
import { refs } from '../../store/refs.js';
import { addRemote as add, listRemotes, redact, removeRemote, type Remote } from '../../store/sync/remotes.js';
import type { RepoContext } from '../repo/repo-context.js';

export { redact, type Remote };

export function remotes(repo: RepoContext): Remote[] {
  return listRemotes(repo.gitdir);
}

export function addRemote(repo: RepoContext, name: string, url: string): Remote {
  return add(repo.gitdir, name, url);
}

/** As `git remote remove`: its tracking refs and notes go too (the commits stay until gc). */
export function deleteRemote(repo: RepoContext, name: string): Remote {
  const r = removeRemote(repo.gitdir, name);
  const notes = repo.refs.read(refs.remoteNotes(r.name));
  for (const t of [...repo.refs.list(refs.remotePrefix(r.name)), ...(notes ? [{ ref: refs.remoteNotes(r.name), oid: notes }] : [])]) repo.refs.delete(t.ref, t.oid);
  return r;
}
