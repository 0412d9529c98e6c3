// Picks the object engine: the git binary when it is on PATH, else isomorphic-git.
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { UsageError } from '../errors/index.js';
import type { Engine } from './engine.js';
import { createGitEngine } from './engine-git.js';
import { createIsogitEngine } from './engine-isogit.js';
import { promisorRemote, withBackfill } from './partial.js';

/** Whether an executable `git` is on PATH; looked up on disk, since spawning costs milliseconds. */
export function gitOnPath(env: NodeJS.ProcessEnv = process.env): boolean {
  const names = process.platform === 'win32' ? ['git.exe', 'git.cmd', 'git'] : ['git'];
  for (const dir of (env.PATH ?? env.Path ?? '').split(delimiter)) {
    if (dir === '') continue;
    for (const name of names) {
      try {
        const file = join(dir, name);
        if (!statSync(file).isFile()) continue;
        accessSync(file, constants.X_OK);
        return true;
      } catch {
        // not here; try the next entry
      }
    }
  }
  return false;
}

export function createEngine(gitdir: string, name: 'auto' | 'git' | 'isogit'): Engine {
  const engine = pick(gitdir, name);
  // a partial clone's missing blobs come from its promisor remote, in batches (git fetches them)
  const remote = promisorRemote(gitdir);
  return remote && gitOnPath() ? withBackfill(engine, gitdir, remote) : engine;
}

function pick(gitdir: string, name: 'auto' | 'git' | 'isogit'): Engine {
  if (name === 'isogit') return createIsogitEngine(gitdir);
  if (gitOnPath()) return createGitEngine(gitdir);
  if (name === 'git') throw new UsageError('engine git needs the git binary on PATH');
  return createIsogitEngine(gitdir);
}
