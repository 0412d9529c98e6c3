// A context commit on disk: meta.json plus one artifact (a blob, or a subtree of chunks).
import { CtxError, IntegrityError } from '../errors/index.js';
import { META_VERSION, artifactName, commitMessage, commitPerson, encodeMeta, type Meta } from '../core/meta.js';
import { shortId } from '../core/ids.js';
import type { CommitSpec, Engine, TreeFile } from './engine.js';
import { parseCommit, parseTree, type ParsedCommit } from './objects.js';

export const DEFAULT_MAX_BLOB = 32 * 1024 * 1024;
const ARTIFACT = /^(delta|summary|snapshot)\.[^/]+$/;

export interface StoredCommit {
  oid: string;
  commit: ParsedCommit;
  meta: Meta;
  /** the artifact's tree entry name, e.g. `delta.jsonl` */
  artifactPath: string;
  /** whether the artifact is a subtree of chunks */
  chunked: boolean;
}

/** Tree files and commit for a context commit; artifacts above `maxBlob` are split into chunks. */
export function commitSpec(meta: Meta, artifact: Uint8Array, ext: string, parent: string | { index: number } | null, maxBlob: number): CommitSpec {
  const name = artifactName(meta.type, ext);
  const files: TreeFile[] = [{ path: 'meta.json', data: Buffer.from(encodeMeta(meta)) }];
  if (artifact.length > maxBlob) {
    for (let i = 0, n = 0; i < artifact.length; i += maxBlob, n++)
      files.push({ path: `${name}/${String(n).padStart(4, '0')}`, data: artifact.subarray(i, i + maxBlob) });
  } else files.push({ path: name, data: artifact });
  const person = commitPerson(meta);
  return { files, parents: parent === null ? [] : [parent], author: person, committer: person, message: commitMessage(meta) };
}

/** Reads many context commits' objects in two pipelined passes (commits+trees, then meta blobs). */
export async function readStoredCommits(engine: Engine, oids: readonly string[]): Promise<StoredCommit[]> {
  const objs = await engine.readObjects(oids);
  const commits = objs.map((o, i) => {
    if (!o || o.type !== 'commit') throw new CtxError(`${shortId(oids[i])} is not a commit`);
    return parseCommit(o.data);
  });
  const trees = await engine.readObjects(commits.map((c) => c.tree));
  const metaSpecs: string[] = [];
  const layout = trees.map((t, i) => {
    if (!t) throw new IntegrityError(`${shortId(oids[i])}: tree ${commits[i].tree} is missing`);
    const entries = parseTree(t.data);
    const meta = entries.find((e) => e.name === 'meta.json');
    const art = entries.find((e) => ARTIFACT.test(e.name));
    if (!meta) throw new IntegrityError(`${shortId(oids[i])}: not a context commit (no meta.json)`);
    metaSpecs.push(meta.oid);
    return { artifactPath: art?.name ?? '', chunked: art?.mode === '40000' };
  });
  const metas = await engine.readObjects(metaSpecs);
  return oids.map((oid, i) => ({ oid, commit: commits[i], meta: parseMetaBlob(oid, metas[i]?.data), ...layout[i] }));
}

function parseMetaBlob(oid: string, data: Uint8Array | undefined): Meta {
  if (!data) throw new IntegrityError(`${shortId(oid)}: meta.json is missing`);
  return parseMeta(oid, data);
}

/** meta.json bytes → Meta; a version this build does not know is an integrity failure. */
export function parseMeta(oid: string, data: Uint8Array): Meta {
  let meta: Meta;
  try {
    meta = JSON.parse(Buffer.from(data).toString('utf8')) as Meta;
  } catch {
    throw new IntegrityError(`${shortId(oid)}: meta.json is not JSON`);
  }
  if (meta === null || typeof meta !== 'object' || meta.v !== META_VERSION)
    throw new IntegrityError(`${shortId(oid)}: unknown meta.json version ${JSON.stringify((meta as Meta | null)?.v)}`);
  return meta;
}

/** Artifact bytes of many commits, in order, chunks reassembled. */
export async function readArtifacts(engine: Engine, commits: readonly { oid: string; artifactPath: string }[]): Promise<Uint8Array[]> {
  const objs = await engine.readObjects(commits.map((c) => `${c.oid}:${c.artifactPath}`));
  const out: Uint8Array[] = [];
  for (let i = 0; i < commits.length; i++) {
    const o = objs[i];
    if (!commits[i].artifactPath || !o) throw new IntegrityError(`${shortId(commits[i].oid)}: artifact is missing`);
    if (o.type === 'blob') {
      out.push(o.data);
      continue;
    }
    const chunks = parseTree(o.data).sort((a, b) => Number(a.name) - Number(b.name));
    const blobs = await engine.readObjects(chunks.map((c) => c.oid));
    if (blobs.some((b) => !b)) throw new IntegrityError(`${shortId(commits[i].oid)}: an artifact chunk is missing`);
    out.push(Buffer.concat(blobs.map((b) => b!.data)));
  }
  return out;
}
