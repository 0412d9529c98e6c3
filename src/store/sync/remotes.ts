// Remotes of a context repo: `remote.<name>.url` and its fetch refspecs in the repo's own config.
import { resolve } from 'node:path';
import { NotFoundError, UsageError, AlreadyExistsError } from '../../errors/index.js';
import { checkBranchName, refs } from '../refs.js';
import { readConfig } from '../repo.js';
import { removeSection, writeSection } from '../config-write.js';

export interface Remote {
  name: string;
  url: string;
}

export type UrlKind = 'https' | 'http' | 'ssh' | 'scp-like' | 'git' | 'file' | 'local path' | 'remote helper';

/** What kind of URL git would see: decides the transport without git. */
export function urlKind(url: string): UrlKind {
  // git's `<transport>::<address>`: the program git-remote-<transport> (fd::, ext::, codecommit::…)
  if (/^[A-Za-z0-9+.-]+::/.test(url)) return 'remote helper';
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(url)?.[1].toLowerCase();
  if (scheme === 'https' || scheme === 'http' || scheme === 'ssh' || scheme === 'git' || scheme === 'file') return scheme;
  if (scheme?.includes('ssh')) return 'ssh';
  // git's rule: `host:path` with no slash before the first colon is scp-like ssh
  if (/^[^/:]+:/.test(url) && !/^[a-z]:[\\/]/i.test(url)) return 'scp-like';
  return 'local path';
}

/** `https://user:token@host/x` → `https://user:***@host/x`; applied to every message that may hold a URL. */
export function redact(text: string): string {
  // a scheme starts where no scheme character stands before it: without that, a long run of letters
  // is tried from every position (quadratic: a 100 kB URL took 17 s)
  return text
    .replace(/(?<![a-z0-9+.-])([a-z][a-z0-9+.-]*:\/\/)([^/@\s:]*):([^/@\s]*)@/gi, '$1$2:***@')
    .replace(/(?<![a-z0-9+.-])([a-z][a-z0-9+.-]*:\/\/)([^/@\s:]{16,})@/gi, '$1***@');
}

/** A remote name is one path component under refs/remotes/ and refs/notes/remotes/: git's rules, no "/", at most 255 bytes. */
export function checkRemoteName(name: string): string {
  if (Buffer.byteLength(name) > 255) throw new UsageError(`bad remote name '${name.slice(0, 40)}…': longer than 255 bytes (${Buffer.byteLength(name)})`, { hint: 'choose a shorter name' });
  // a remote's name is a directory under refs/remotes/ and refs/notes/remotes/, never a ref file itself
  checkBranchName(name, 'remote name', { directory: true });
  if (name.includes('/')) throw new UsageError(`bad remote name '${name}': contains "/"`);
  return name;
}

// git's transports that cannot work for ctx: fd:: talks over file descriptors ctx never passes (git
// waits on them forever); ext:: runs a command named in the URL (git itself refuses it by default).
const REFUSED_HELPERS: Record<string, string> = {
  fd: 'git would wait forever on file descriptors ctx never passes',
  ext: 'it runs a command named in the URL',
};

/** Refuses a URL kind no transport can serve, before anything runs: one line naming why. */
export function checkRemoteUrl(url: string): string {
  if (url.trim() === '' || /[\n\0]/.test(url)) throw new UsageError('bad remote URL: empty, or holds a newline or NUL');
  const helper = /^([A-Za-z0-9+.-]+)::/.exec(url)?.[1].toLowerCase();
  if (helper !== undefined && REFUSED_HELPERS[helper])
    throw new UsageError(`unsupported remote URL ${redact(url)}: git's ${helper}:: transport is not supported (${REFUSED_HELPERS[helper]})`, { hint: 'use an https://, ssh:// or local path URL' });
  return url;
}

/** A remote read from the config, checked before a transport opens it (native git may have written it). */
export function checkRemote(remote: Remote): Remote {
  checkRemoteName(remote.name);
  checkRemoteUrl(remote.url);
  return remote;
}

export function listRemotes(gitdir: string): Remote[] {
  const out: Remote[] = [];
  for (const [key, url] of readConfig(gitdir)) {
    const m = /^remote\.(.+)\.url$/.exec(key);
    if (m) out.push({ name: m[1], url });
  }
  return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** The remote to use: the named one, else the only one, else `origin`. */
export function getRemote(gitdir: string, name: string | undefined): Remote {
  const all = listRemotes(gitdir);
  if (name === undefined) {
    if (all.length === 1) return all[0];
    name = 'origin';
  }
  const r = all.find((x) => x.name === name);
  if (!r) {
    throw new NotFoundError(all.length ? `no remote '${name}' (remotes: ${all.map((x) => x.name).join(', ')})` : `no remote '${name}': add it with ctx remote add ${name} URL`, {
      hint: 'ctx remote add NAME URL',
    });
  }
  return r;
}

export function addRemote(gitdir: string, name: string, url: string): Remote {
  checkRemoteName(name);
  checkRemoteUrl(url);
  if (listRemotes(gitdir).some((r) => r.name === name)) throw new AlreadyExistsError(`remote ${name} already exists`);
  // a relative path would mean something else from every other working directory
  if (urlKind(url) === 'local path') url = resolve(url);
  const specs = refs.fetchSpecs(name);
  // heads and notes as fetch refspecs: native `git fetch NAME` and isomorphic-git's fetch (which
  // takes no refspec of its own) then write the same tracking refs ctx fetch does
  writeSection(gitdir, { section: 'remote', subsection: name, entries: [['url', url], ['fetch', specs.heads], ['fetch', specs.notes]] });
  return { name, url };
}

export function removeRemote(gitdir: string, name: string): Remote {
  const r = getRemote(gitdir, name);
  removeSection(gitdir, 'remote', name);
  return r;
}
