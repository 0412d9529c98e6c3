// `ctx clone`: a store from a remote in one step: init, `origin` as `ctx remote add` writes it, fetch,
// then one local branch per remote branch (as `git clone --bare`), so log and branch read it at once.
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { ConflictError, RemoteError, UsageError } from '../../errors/index.js';
import { gitOnPath } from '../../store/engine-select.js';
import { gitEnv, spawnGitSync } from '../../store/git-process.js';
import { initRepo } from '../../store/repo.js';
import { refs } from '../../store/refs.js';
import { RepoContext, type RepoOptions } from '../repo/repo-context.js';
import { addRemote } from './remote-config.js';
import { fetch, moveBranches, type SyncOptions, type SyncReport } from './sync.js';

export interface CloneOptions extends SyncOptions {
  /** git's partial clone filter: blob:none or blob:limit=N[kmg] (needs the git binary) */
  filter?: string;
  engine?: RepoOptions['engine'];
  cwd?: string;
}

export interface CloneResult {
  gitdir: string;
  filter: string | null;
  /** the fetch and the branches made, as pull reports them */
  report: SyncReport;
}

const FILTER = /^blob:(none|limit=\d+[kmg]?)$/;

export async function clone(url: string, dir: string, opts: CloneOptions = {}): Promise<CloneResult> {
  const env = opts.env ?? process.env;
  if (opts.filter !== undefined && !FILTER.test(opts.filter)) throw new UsageError(`unsupported --filter '${opts.filter}' (blob:none or blob:limit=N)`);
  if (opts.filter !== undefined && !gitOnPath(env)) throw new UsageError('--filter needs the git binary on PATH (a partial clone is git\'s); clone without it');
  const gitdir = resolve(opts.cwd ?? process.cwd(), dir);
  if (existsSync(gitdir) && (!statSync(gitdir).isDirectory() || readdirSync(gitdir).length > 0)) throw new ConflictError(`${dir} exists and is not empty: clone into a new or empty directory`);
  const made = !existsSync(gitdir);
  initRepo(gitdir);
  let repo = new RepoContext(gitdir, { env, engine: opts.engine });
  try {
    addRemote(repo, 'origin', url);
    if (opts.filter) {
      promisor(gitdir, opts.filter, env);
      // opened again: a partial clone's engine fetches the blobs it reads in batches
      await repo.close();
      repo = new RepoContext(gitdir, { env, engine: opts.engine });
    }
    const fetched = await fetch(repo, 'origin', { ...opts, fresh: true });
    const names = repo.refs.list(refs.remotePrefix('origin')).map((r) => r.ref.slice(refs.remotePrefix('origin').length));
    const report = await moveBranches(repo, fetched, names, true);
    await repo.close();
    return { gitdir, filter: opts.filter ?? null, report };
  } catch (e) {
    await repo.close().catch(() => {});
    // nothing left behind: a failed clone is no half store
    if (made) rmSync(gitdir, { recursive: true, force: true });
    else for (const f of readdirSync(gitdir)) rmSync(resolve(gitdir, f), { recursive: true, force: true });
    throw e;
  }
}

/** What `git clone --filter` writes: origin becomes a promisor remote whose fetches apply the filter. */
function promisor(gitdir: string, filter: string, env: NodeJS.ProcessEnv): void {
  for (const [k, v] of [
    ['core.repositoryformatversion', '1'],
    ['extensions.partialClone', 'origin'],
    ['remote.origin.promisor', 'true'],
    ['remote.origin.partialclonefilter', filter],
  ]) {
    const r = spawnGitSync(['config', k, v], { env: gitEnv(gitdir, env), encoding: 'utf8' });
    if (r.status !== 0) throw new RemoteError(`cannot configure the partial clone: ${r.stderr.trim()}`);
  }
}
