// Which context repo, creating one, and reading its `ctx.*` config keys.
import { appendFileSync, existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { IntegrityError, NotFoundError, UsageError } from '../errors/index.js';
import { readConfigFile } from './config-files.js';
import { lastValues, parseGitConfig } from './config-parse.js';
import { gitOnPath } from './engine-select.js';
import { gitEnv, spawnGitSync } from './git-process.js';

export interface StoreLocation {
  gitdir: string;
  exists: boolean;
}

export function isContextRepo(path: string): boolean {
  return existsSync(join(path, 'HEAD')) && existsSync(join(path, 'objects')) && existsSync(join(path, 'refs'));
}

/**
 * --store, else $CTX_STORE (both relative to `cwd`, as git's --git-dir), else the nearest `.ctx/` walking
 * up from `searchFrom` (a hook's project directory; default `cwd`), else `.ctx` there.
 */
export function locateStore(explicit: string | undefined, env: NodeJS.ProcessEnv, cwd: string, searchFrom: string = cwd): StoreLocation {
  const given = explicit ?? (env.CTX_STORE || undefined);
  if (given) {
    const gitdir = resolve(cwd, given);
    return { gitdir, exists: isContextRepo(gitdir) };
  }
  const from = resolve(cwd, searchFrom);
  for (let dir = from; ; dir = dirname(dir)) {
    if (isContextRepo(join(dir, '.ctx'))) return { gitdir: join(dir, '.ctx'), exists: true };
    if (dirname(dir) === dir) break;
  }
  return { gitdir: join(from, '.ctx'), exists: false };
}

export function requireStore(loc: StoreLocation): string {
  if (!loc.exists) {
    if (existsSync(loc.gitdir)) throw new NotFoundError(`${loc.gitdir} is not a context repository`);
    throw new NotFoundError(`no context store found (looked for ${loc.gitdir}): run ctx init, or pass --store PATH`, { hint: 'run ctx init, or pass --store PATH' });
  }
  return loc.gitdir;
}

/** Create a bare repo at `gitdir`, as `git init --bare` would. Returns false when one was there. */
export function initRepo(gitdir: string): boolean {
  if (isContextRepo(gitdir)) return false;
  if (existsSync(gitdir) && (!statSync(gitdir).isDirectory() || readdirNonEmpty(gitdir)))
    throw new UsageError(`${gitdir} exists and is not a context repository`);
  for (const d of ['objects/info', 'objects/pack', 'refs/heads', 'refs/tags', 'info', 'ctx']) mkdirSync(join(gitdir, d), { recursive: true });
  writeFileSync(join(gitdir, 'config'), '[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = true\n');
  writeFileSync(join(gitdir, 'description'), 'agent-ctx context repository\n');
  // derived data (ctx/) is never pushed; keep native tools from listing it as junk
  writeFileSync(join(gitdir, 'info', 'exclude'), 'ctx/\n');
  writeFileSync(join(gitdir, 'HEAD'), 'ref: refs/heads/main\n');
  excludeFromWorkTree(gitdir);
  return true;
}

function readdirNonEmpty(dir: string): boolean {
  return readdirSync(dir).length > 0;
}

/** Inside a git work tree, `.ctx/` goes into `.git/info/exclude` so the project's git never tracks it. */
function excludeFromWorkTree(gitdir: string) {
  for (let dir = dirname(gitdir); ; dir = dirname(dir)) {
    const dotgit = join(dir, '.git');
    if (existsSync(dotgit)) {
      let common = dotgit;
      if (statSync(dotgit).isFile()) {
        const m = /^gitdir: (.*)$/m.exec(readFileSync(dotgit, 'utf8'));
        if (!m) return;
        common = resolve(dir, m[1].trim());
        const commondir = join(common, 'commondir');
        if (existsSync(commondir)) common = resolve(common, readFileSync(commondir, 'utf8').trim());
      }
      const exclude = join(common, 'info', 'exclude');
      const pattern = `/${relative(dir, gitdir).split('\\').join('/')}/`;
      const before = existsSync(exclude) ? readFileSync(exclude, 'utf8') : '';
      if (before.split('\n').includes(pattern)) return;
      mkdirSync(dirname(exclude), { recursive: true });
      appendFileSync(exclude, `${before === '' || before.endsWith('\n') ? '' : '\n'}${pattern}\n`);
      return;
    }
    if (dirname(dir) === dir) return;
  }
}

/**
 * The repo's own git config, read for `section.key` (git's rules: names case-insensitive), as git reads
 * it: a file git refuses is refused (IntegrityError), and its includes are followed (by git when on PATH).
 */
export function readConfig(gitdir: string): Map<string, string> {
  const file = join(gitdir, 'config');
  const parsed = parseGitConfig(readConfigText(gitdir));
  const includes = parsed.entries.some(([k]) => k === 'include.path' || /^includeif\..*\.path$/.test(k));
  if (!parsed.bad && !includes) return lastValues(parsed.entries);
  if (gitOnPath()) {
    // git is the judge: its values when it reads the file, its own error when it cannot
    const r = spawnGitSync(['config', '--local', '--includes', '--list', '-z'], { env: gitEnv(gitdir), encoding: 'utf8' });
    if (r.status === 0) return listedValues(r.stdout);
    if (parsed.bad) throw badConfig(file, parsed.bad);
    const why = r.stderr.split('\n').find((l) => l.trim() !== '') ?? `git config exited with ${r.status}`;
    throw new IntegrityError(`${file}: ${why.replace(/^(fatal|error): /, '')}; nothing written`);
  }
  const read = readConfigFile(file, process.env);
  if (read.bad) throw badConfig(read.bad.file, read.bad);
  if (read.includeIf) throw new IntegrityError(`${file}: includeIf is read only with git on PATH; nothing written`, { hint: 'install git, or move the included settings into the file' });
  return lastValues(read.entries);
}

/** `git config --list -z`: `key\nvalue` records (a key alone is true). */
function listedValues(out: string): Map<string, string> {
  const values = new Map<string, string>();
  for (const rec of out.split('\0')) {
    if (rec === '') continue;
    const nl = rec.indexOf('\n');
    values.set(nl < 0 ? rec : rec.slice(0, nl), nl < 0 ? 'true' : rec.slice(nl + 1));
  }
  return values;
}

function badConfig(file: string, bad: { line: number; text: string }): IntegrityError {
  return new IntegrityError(bad.line === 0 ? `${file}: ${bad.text}; nothing written` : `${file}: line ${bad.line} is not git config syntax (${bad.text.slice(0, 40)}); nothing written`, {
    hint: 'git config -f <store>/config --list shows what git makes of it',
  });
}

function readConfigText(gitdir: string): string {
  try {
    return readFileSync(join(gitdir, 'config'), 'utf8');
  } catch {
    return '';
  }
}

/** Config text → `section.key` values, and the first line that is not config syntax (git refuses such a file). */
export function parseConfig(text: string): { values: Map<string, string>; bad?: { line: number; text: string } } {
  const { entries, bad } = parseGitConfig(text);
  return { values: lastValues(entries), ...(bad ? { bad } : {}) };
}

/** Before ctx writes the config: a file git cannot read is an integrity failure, and is left as it is. */
export function checkConfig(gitdir: string): void {
  const { bad } = parseConfig(readConfigText(gitdir));
  if (bad) throw badConfig(join(gitdir, 'config'), bad);
}

/** git's integer syntax (1024, 32k, 32m, 1g), within `[min, max]`. */
export function parseConfigSize(key: string, v: string, min = 0, max = Number.MAX_SAFE_INTEGER): number {
  const m = /^(\d+)([kmg]?)$/i.exec(v.trim());
  if (!m) throw new UsageError(`config ${key}: not a size: ${v}`);
  const n = Number(m[1]) * { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 }[m[2].toLowerCase() as '' | 'k' | 'm' | 'g'];
  if (!(n >= min && n <= max)) throw new UsageError(`config ${key}: ${v} is out of range (${sizeText(min)} to ${sizeText(max)})`);
  return n;
}

const sizeText = (n: number) => (n % 1024 ** 3 === 0 ? `${n / 1024 ** 3}g` : n % 1024 ** 2 === 0 ? `${n / 1024 ** 2}m` : n % 1024 === 0 ? `${n / 1024}k` : String(n));
