// Transport through the git binary: every URL kind, git's credential helpers, one `push --atomic`.
import { RemoteError } from '../../errors/index.js';
import { gitEnv, spawnGit } from '../git-process.js';
import { refs } from '../refs.js';
import { redact, type Remote } from './remotes.js';
import { syncedRefs, type FetchRejection, type PushGlob, type PushResult, type PushUpdate, type Transport, type TransportOptions } from './transport-interface.js';

interface GitRun {
  code: number;
  stdout: string;
  stderr: string;
}

export function createGitTransport(gitdir: string, remote: Remote, opts: TransportOptions): Transport {
  const env = gitEnv(gitdir, opts.env);
  // no terminal to ask on: fail instead of waiting for a password nobody can type
  if (!process.stdin.isTTY) env.GIT_TERMINAL_PROMPT ??= '0';

  function git(args: string[], tee: boolean): Promise<GitRun> {
    return new Promise((done, fail) => {
      const p = spawnGit(args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      p.stdout!.on('data', (b: Buffer) => (stdout += b.toString('utf8')));
      p.stderr!.on('data', (b: Buffer) => {
        const text = b.toString('utf8');
        stderr += text;
        if (tee) process.stderr.write(redact(text));
      });
      p.on('error', (e) => fail(new RemoteError(`cannot run git: ${e.message}`)));
      p.on('close', (code) => done({ code: code ?? 1, stdout, stderr }));
    });
  }

  const failure = (what: string, r: GitRun) => {
    const lines = r.stderr.split(/[\r\n]+/).filter((l) => /^(fatal|error|remote: error|ERROR)/i.test(l.trim()));
    const text = (lines.length ? lines : r.stderr.split('\n').filter((l) => l.trim())).slice(0, 3).join('; ') || `exit ${r.code}`;
    return new RemoteError(`${what} ${remote.name} (${redact(remote.url)}) failed: ${redact(text.replace(/^(fatal|error): /i, ''))}`);
  };

  return {
    name: 'git',

    async list() {
      const r = await git(['ls-remote', remote.name], false);
      if (r.code !== 0) throw failure('listing', r);
      return syncedRefs(
        remote,
        r.stdout
          .split('\n')
          .filter((l) => l.includes('\t'))
          .map((l) => {
            const [oid, ref] = l.split('\t');
            return [ref, oid] as [string, string];
          }),
      );
    },

    async push(updates, globs = []) {
      if (updates.length === 0) return [];
      const specs = pushSpecs(updates, globs);
      const flags = ['--porcelain', ...(opts.progress ? ['--progress'] : [])];
      let r = await git(['push', '--atomic', ...flags, remote.name, ...specs], opts.progress);
      // a server without atomic pushes still gets a fast-forward-only push, ref by ref
      if (r.code !== 0 && /does not support --atomic/.test(r.stderr)) r = await git(['push', ...flags, remote.name, ...specs], opts.progress);
      const results = parsePorcelain(r.stdout);
      if (results.size === 0 && r.code !== 0) throw failure('push to', r);
      return updates.map((u): PushResult => results.get(u.dst) ?? { dst: u.dst, ok: r.code === 0, reason: r.code === 0 ? undefined : 'not reported by git' });
    },

    async fetch() {
      const specs = refs.fetchSpecs(remote.name);
      const args = ['fetch', '--no-tags', '--no-write-fetch-head', ...(opts.progress ? ['--progress'] : []), remote.name, specs.heads, specs.notes, specs.tags];
      const r = await git(args, opts.progress);
      const rejected = parseFetchRejections(r.stderr, remote.name);
      if (r.code !== 0 && rejected.length === 0) throw failure('fetch from', r);
      return rejected;
    },
  };
}

// git matches each explicit refspec against every ref (quadratic: 1,000 new branches cost it seconds of CPU); a glob is one pass
const GLOB_FROM = 64;

/** The refspecs of a push: one glob per namespace given (its exception as a negative refspec) once there are many updates, else ref by ref. */
function pushSpecs(updates: readonly PushUpdate[], globs: readonly PushGlob[]): string[] {
  const use = updates.length >= GLOB_FROM ? globs : [];
  const covered = (ref: string) => use.some((g) => ref.startsWith(g.prefix) && !(g.except && ref.startsWith(g.except)));
  return [
    ...use.flatMap((g) => [`${g.prefix}*:${g.prefix}*`, ...(g.except ? [`^${g.except}*`] : [])]),
    ...updates.filter((u) => !(u.src === u.dst && covered(u.src))).map((u) => `${u.src}:${u.dst}`),
  ];
}

/** `git push --porcelain`: `<flag>\t<src>:<dst>\t<summary>` per ref; `!` is a rejection. */
function parsePorcelain(stdout: string): Map<string, PushResult> {
  const out = new Map<string, PushResult>();
  for (const line of stdout.split('\n')) {
    const m = /^([ +\-*!=])\t([^\t]*):([^\t]*)\t(.*)$/.exec(line);
    if (!m) continue;
    const ok = m[1] !== '!';
    out.set(m[3], { dst: m[3], ok, reason: ok ? undefined : m[4].replace(/^\[(remote )?rejected\]\s*/, '').replace(/^\((.*)\)$/, '$1') || m[4] });
  }
  return out;
}

/** ` ! [rejected]   v1   -> v1  (would clobber existing tag)` lines of `git fetch`. */
function parseFetchRejections(stderr: string, remote: string): FetchRejection[] {
  const out: FetchRejection[] = [];
  for (const line of stderr.split(/[\r\n]+/)) {
    const m = /^\s*! \[[^\]]*\]\s+(\S+)\s+->\s+(\S+)\s+\((.*)\)\s*$/.exec(line);
    if (!m) continue;
    const dst = m[2];
    const ref = dst.startsWith('refs/') ? dst : /tag/.test(m[3]) ? refs.tag(dst) : `refs/remotes/${dst.startsWith(`${remote}/`) ? dst : `${remote}/${dst}`}`;
    out.push({ ref, reason: m[3] });
  }
  return out;
}
