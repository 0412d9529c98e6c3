// Finding, creating and opening the context repo: the CLI's way into the store without importing it.
import { resolve } from 'node:path';
import { initRepo, locateStore, requireStore, type StoreLocation } from '../../store/repo.js';
import { checkStoreTrust } from '../../store/trust.js';
import { RepoContext, type RepoOptions } from './repo-context.js';

export interface OpenRepoOptions {
  /** --store, else $CTX_STORE, else the nearest `.ctx/` upward, else `./.ctx` */
  store?: string;
  engine?: RepoOptions['engine'];
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** make the repo when it is not there (`created` says so) */
  create?: boolean;
}

export function locateRepo(opts: OpenRepoOptions): StoreLocation {
  return locateStore(opts.store, opts.env ?? process.env, opts.cwd ?? process.cwd());
}

/** The context repo, opened; a NotFoundError when there is none and `create` is not set. */
export function openRepo(opts: OpenRepoOptions): { repo: RepoContext; created: boolean } {
  const loc = locateRepo(opts);
  if (loc.exists) checkStoreTrust(loc.gitdir, opts.env ?? process.env);
  const created = !loc.exists && Boolean(opts.create) && initRepo(loc.gitdir);
  const gitdir = opts.create ? loc.gitdir : requireStore(loc);
  return { repo: new RepoContext(gitdir, { env: opts.env, engine: opts.engine }), created };
}

/** `ctx init [PATH]`: a bare repo at PATH (relative to cwd); false when one was there. */
export function initStore(path: string, cwd: string = process.cwd()): { gitdir: string; created: boolean } {
  const gitdir = resolve(cwd, path);
  return { gitdir, created: initRepo(gitdir) };
}
