// Which stores ctx opens: git's safe.directory rule (owned by the user running ctx) and, since a
// store that came with a clone can carry a stranger's config, not tracked by the enclosing work tree.
// Trust is granted only by the user's own config (`ctx.safeStore`), never by the store's.
import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { shellQuote } from '../core/shell.js';
import { UntrustedStoreError } from '../errors/index.js';
import { userConfigValues } from './config-files.js';
import { gitOnPath } from './engine-select.js';
import { spawnGitSync } from './git-process.js';

/** Throws UntrustedStoreError, naming how to trust it, unless the store at `gitdir` is the user's own or listed in `ctx.safeStore`. */
export function checkStoreTrust(gitdir: string, env: NodeJS.ProcessEnv): void {
  const why = ownerProblem(gitdir, env) ?? trackedProblem(gitdir, env);
  if (why === null || isSafeListed(gitdir, env)) return;
  throw new UntrustedStoreError(`refusing the store ${gitdir}: ${why}; trust it with: git config --global --add ctx.safeStore ${shellQuote(gitdir)}`);
}

/** git's rule: the store belongs to the user running ctx (under sudo, to the user sudo ran for). */
function ownerProblem(gitdir: string, env: NodeJS.ProcessEnv): string | null {
  const me = process.getuid?.();
  if (me === undefined) return null; // no uids to compare (Windows)
  const owner = statSync(gitdir).uid;
  if (owner === me || (me === 0 && env.SUDO_UID !== undefined && String(owner) === env.SUDO_UID)) return null;
  return `it is owned by uid ${owner}, not by you (uid ${me})`;
}

function trackedProblem(gitdir: string, env: NodeJS.ProcessEnv): string | null {
  const top = workTreeAbove(gitdir);
  if (top === null || !isTracked(top, relative(top, gitdir), env)) return null;
  return `it is tracked by the git repository ${top} (a store that came with a clone can run code)`;
}

/** The nearest directory above `gitdir` holding a `.git` (a work tree's top), or null. */
function workTreeAbove(gitdir: string): string | null {
  for (let dir = dirname(gitdir); ; dir = dirname(dir)) {
    if (existsSync(join(dir, '.git'))) return dir;
    if (dirname(dir) === dir) return null;
  }
}

/**
 * Whether the work tree's index lists a path under `rel`. An index that does not hold the path's bytes
 * does not list it (versions 2 and 3 store paths whole; a split index keeps them elsewhere): then no
 * git starts, which keeps this off the hook's path in the everyday case. Otherwise git ls-files decides
 * (the bytes may be part of a longer path).
 */
function isTracked(top: string, rel: string, env: NodeJS.ProcessEnv): boolean {
  const index = readIndex(top);
  if (index === null) return false;
  const path = Buffer.from(`${rel.split('\\').join('/')}/`);
  const whole = (index.readUInt32BE(4) === 2 || index.readUInt32BE(4) === 3) && !maySplit(index);
  if (whole && !index.includes(path)) return false;
  if (!gitOnPath()) return index.includes(path);
  const clean: NodeJS.ProcessEnv = { ...env, GIT_LITERAL_PATHSPECS: '1' };
  for (const k of ['GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE', 'GIT_COMMON_DIR', 'GIT_OBJECT_DIRECTORY', 'GIT_NAMESPACE']) delete clean[k];
  // SAFE_CONFIG keeps the work tree's fsmonitor and hooks from running; a git that cannot read it says nothing
  const r = spawnGitSync(['-C', top, 'ls-files', '-z', '--', rel], { env: clean, encoding: 'utf8' });
  return r.status === 0 && r.stdout !== '';
}

/**
 * Whether the index may be split: it has a `link` extension, which names a shared index holding
 * the paths. Extensions follow the entries, each a 4-byte name and a 4-byte size, up to the
 * checksum that ends the file (20 bytes, 32 in a SHA-256 repository). Each `link` in the bytes is
 * taken for one unless the sizes read from it do not lead exactly to that checksum: a path holding
 * "link" (src/links/…, a linker) no longer sends every hook to git ls-files; a real one always passes.
 */
function maySplit(index: Buffer): boolean {
  const ends = (q: number) => q === index.length - 20 || q === index.length - 32;
  for (let at = index.indexOf('link', 12); at !== -1; at = index.indexOf('link', at + 1)) {
    let q = at;
    while (q + 8 <= index.length) {
      q += 8 + index.readUInt32BE(q + 4);
      if (ends(q)) return true;
    }
  }
  return false;
}

/** The work tree's index (`.git/index`, or the one a `.git` file's `gitdir:` names), or null without one. */
function readIndex(top: string): Buffer | null {
  try {
    const dotgit = join(top, '.git');
    const gitdirOfTree = statSync(dotgit).isFile() ? resolve(top, /^gitdir: (.*)$/m.exec(readFileSync(dotgit, 'utf8'))?.[1].trim() ?? '') : dotgit;
    const index = readFileSync(join(gitdirOfTree, 'index'));
    return index.length >= 12 && index.subarray(0, 4).toString('latin1') === 'DIRC' ? index : null;
  } catch {
    return null;
  }
}

/** `ctx.safeStore` in the user's config: a store's path (`~/` is home), or `*`; an empty value drops those above it (git's safe.directory). */
function isSafeListed(gitdir: string, env: NodeJS.ProcessEnv): boolean {
  let safe: string[] = [];
  for (const v of userConfigValues(env, 'ctx.safestore')) safe = v === '' ? [] : [...safe, v];
  const real = realOr(gitdir);
  const path = (v: string) => (v.startsWith('~/') ? join(env.HOME || homedir(), v.slice(2)) : resolve(v));
  return safe.some((v) => v === '*' || path(v) === gitdir || realOr(path(v)) === real);
}

function realOr(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

