// The work tree holding a directory, found in-process as git's own discovery finds it (a `.git`
// directory or `gitdir:` file in it or above it), so `ctx blame` need not start a `git rev-parse`.
// Only the plain case is answered: anything git would read differently (a ceiling or a file-system
// boundary, a directory that is itself a git directory, another owner, core.worktree, a bare or
// per-worktree config, an odd `.git`) gives null, and the caller asks git, which says what is wrong.
import { existsSync, lstatSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/** Settings that change where git stops looking or what it accepts. */
const ASK_GIT = ['GIT_CEILING_DIRECTORIES', 'GIT_DISCOVERY_ACROSS_FILESYSTEM'];

/** A config that moves the work tree, makes the repository bare, or includes another file (which might). */
const MOVED = /^\s*(worktree\s*=|bare\s*(=\s*(true|yes|on|1)\s*)?$|\[include)/im;

/** The top of the work tree holding `dir`, a real path as `git rev-parse --show-toplevel` prints it; null: not the plain case (git is to be asked). */
export function discoverTop(dir: string, env: NodeJS.ProcessEnv = process.env): string | null {
  if (ASK_GIT.some((k) => env[k] !== undefined)) return null;
  try {
    let d = realpathSync(dir);
    const dev = statSync(d).dev;
    for (;;) {
      const st = statSync(d);
      if (st.dev !== dev || looksLikeGitDir(d)) return null;
      const dotGit = lstatSync(join(d, '.git'), { throwIfNoEntry: false });
      if (dotGit) return plain(d, dotGit.isDirectory() ? join(d, '.git') : dotGit.isFile() ? gitFile(d) : null, st.uid);
      if (dirname(d) === d) return null;
      d = dirname(d);
    }
  } catch {
    return null;
  }
}

/** A directory git would take for a repository itself (a bare one, or inside `.git`). */
const looksLikeGitDir = (d: string) => existsSync(join(d, 'HEAD')) && existsSync(join(d, 'objects'));

/** The git directory a `.git` file names (`gitdir: PATH`, relative to the work tree). */
function gitFile(top: string): string | null {
  const m = /^gitdir: (.+)\n?$/.exec(readFileSync(join(top, '.git'), 'utf8'));
  return m ? resolve(top, m[1]) : null;
}

/** `top`, when nothing about it or its git directory needs git's judgement. */
function plain(top: string, gitdir: string | null, owner: number): string | null {
  if (gitdir === null || !existsSync(join(gitdir, 'HEAD'))) return null;
  // git refuses a repository another user owns (safe.directory): it says so
  if (process.getuid === undefined || owner !== process.getuid() || statSync(gitdir).uid !== owner) return null;
  const common = existsSync(join(gitdir, 'commondir')) ? resolve(gitdir, readFileSync(join(gitdir, 'commondir'), 'utf8').trim()) : gitdir;
  if (existsSync(join(gitdir, 'config.worktree')) || MOVED.test(readFileSync(join(common, 'config'), 'utf8'))) return null;
  return top;
}
