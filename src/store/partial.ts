// A partial clone (`ctx clone --filter=blob:none`): the blobs a read asks for that are not here yet
// are fetched from the promisor remote in ONE `git fetch` per read, as git's own lazy fetch does
// for a single object (promisor-remote.c), instead of one round trip per object.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RemoteError } from '../errors/index.js';
import type { Engine, GitObject } from './engine.js';
import { parseGitConfig } from './config-parse.js';
import { gitEnv, spawnGitSync } from './git-process.js';
import { parseCommit, parseTree } from './objects.js';
import { missingObjects } from './object-ids.js';

/** The promisor remote of a partial clone (`extensions.partialClone`), or null for a whole store. */
export function promisorRemote(gitdir: string): string | null {
  let text: string;
  try {
    text = readFileSync(join(gitdir, 'config'), 'utf8');
  } catch {
    return null;
  }
  if (!/partialclone/i.test(text)) return null; // the usual store: no parse
  const found = parseGitConfig(text).entries.filter(([k]) => k === 'extensions.partialclone');
  const name = found.at(-1)?.[1];
  return name && /^[A-Za-z0-9][A-Za-z0-9._/-]*$/.test(name) ? name : null;
}

const HEX = /^[0-9a-f]{40}$/;

/**
 * Fetch `oids` from the promisor remote in one request, as git's lazy fetch does for one object.
 * A terminal gets a line saying what is fetched and git's progress; anything else, nothing.
 */
export function fetchObjects(gitdir: string, remote: string, oids: readonly string[], env: NodeJS.ProcessEnv = process.env): void {
  if (!oids.length) return;
  const tty = process.stderr.isTTY === true;
  if (tty) process.stderr.write(`ctx: fetching ${oids.length} ${oids.length === 1 ? 'object' : 'objects'} from ${remote} (partial clone)\n`);
  const args = ['-c', 'fetch.negotiationAlgorithm=noop', 'fetch', remote, '--no-tags', '--no-write-fetch-head', '--recurse-submodules=no', '--filter=blob:none', tty ? '--progress' : '--quiet', '--stdin'];
  const r = spawnGitSync(args, { env: gitEnv(gitdir, env), input: `${oids.join('\n')}\n`, encoding: 'utf8', stdio: ['pipe', 'ignore', tty ? 'inherit' : 'pipe'], maxBuffer: 1 << 26 });
  if (r.status === 0) return;
  const why = (r.stderr ?? '').split('\n').find((l) => /^(fatal|error)/.test(l.trim()))?.trim() ?? `git fetch exited ${r.status ?? r.signal}`;
  throw new RemoteError(`this is a partial clone and ${oids.length} ${oids.length === 1 ? 'object' : 'objects'} it needs could not be fetched from ${remote} (${why}): reach ${remote} and retry, or read what is here (log, show, branch, sessions)`);
}

/** `engine`, whose reads first fetch, in one batch, the blobs this partial clone lacks: named by id, or as `<tree or commit>:<name>`. */
export function withBackfill(engine: Engine, gitdir: string, remote: string): Engine {
  const ensure = async (specs: readonly string[]) => {
    const ids = [...specs.filter((s) => HEX.test(s)), ...(await namedBlobs(engine, specs))];
    fetchObjects(gitdir, remote, missingObjects(gitdir, [...new Set(ids)]));
  };
  const readObjects = async (specs: readonly string[]): Promise<(GitObject | null)[]> => (await ensure(specs), engine.readObjects(specs));
  return Object.assign(Object.create(engine) as Engine, {
    readObjects,
    readObject: async (oid: string) => (await readObjects([oid]))[0],
    ...(engine.readEach ? { readEach: async (specs: readonly string[], each: (i: number, obj: GitObject | null) => void) => (await ensure(specs), engine.readEach!(specs, each)) } : {}),
  });
}

const NAMED = /^([0-9a-f]{40}):([^/\n]+)$/;

/**
 * The blob ids of `<tree or commit>:<name>` specs, read off their trees (a partial clone has every
 * tree). meta.json is left out: the clone and every fetch bring it, and a listing names thousands.
 */
async function namedBlobs(engine: Engine, specs: readonly string[]): Promise<string[]> {
  const named = specs.map((s) => NAMED.exec(s)).filter((m): m is RegExpExecArray => m !== null && m[2] !== 'meta.json');
  if (!named.length) return [];
  const holders = [...new Set(named.map((m) => m[1]))];
  const objs = await engine.readObjects(holders);
  const treeOf = new Map<string, string>();
  const commits: [string, string][] = [];
  holders.forEach((h, i) => {
    const o = objs[i];
    if (o?.type === 'tree') treeOf.set(h, h);
    else if (o?.type === 'commit') commits.push([h, parseCommit(o.data).tree]);
  });
  for (const [h, t] of commits) treeOf.set(h, t);
  const trees = [...new Set(treeOf.values())];
  const read = await engine.readObjects(trees);
  const entries = new Map(trees.map((t, i) => [t, read[i]?.type === 'tree' ? parseTree(read[i]!.data) : []]));
  return named.flatMap((m) => {
    const e = entries.get(treeOf.get(m[1]) ?? '')?.find((x) => x.name === m[2]);
    return e && e.mode !== '40000' ? [e.oid] : [];
  });
}
