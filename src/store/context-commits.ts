// A context commit on disk: meta.json plus one artifact (a blob, or a subtree of chunks).
// Reads go to objects by id (commit → tree → blobs), never by path, so git does no lookups twice.
import { IntegrityError } from '../errors/index.js';
import { META_VERSION, artifactName, metaProblems, commitMessage, commitPerson, encodeMeta, type Meta } from '../core/meta.js';
import { shortId } from '../core/ids.js';
import type { ChainLink, CommitSpec, Engine, GitObject, TreeFile } from './engine.js';
import { parseCommit, parseTree, type ParsedCommit, type TreeEntry } from './objects.js';
import { StoreDamage, UnreadableObject } from './damage.js';
import { artifactHash } from '../core/blake3.js';

export const DEFAULT_MAX_BLOB = 32 * 1024 * 1024;
const ARTIFACT = /^(delta|summary|snapshot)\.[^/]+$/;

/** A context commit's metadata and where its artifact is. */
export interface ContextEntry {
  oid: string;
  meta: Meta;
  /** the artifact's tree entry, e.g. `delta.jsonl`; a subtree of chunks when `chunked` */
  artifact: { name: string; oid: string; chunked: boolean } | null;
}

export interface StoredCommit extends ContextEntry {
  commit: ParsedCommit;
}

/** Tree files and commit for a context commit; artifacts above `maxBlob` are split into chunks; `extra`: its `state/` entries. */
export function commitSpec(meta: Meta, artifact: Uint8Array, ext: string, parent: string | { index: number } | null, maxBlob: number, extra: readonly TreeFile[] = []): CommitSpec {
  const name = artifactName(meta.type, ext);
  const files: TreeFile[] = [{ path: 'meta.json', data: Buffer.from(encodeMeta(meta)) }];
  if (artifact.length > maxBlob) {
    for (let i = 0, n = 0; i < artifact.length; i += maxBlob, n++)
      files.push({ path: `${name}/${String(n).padStart(4, '0')}`, data: artifact.subarray(i, i + maxBlob) });
  } else files.push({ path: name, data: artifact });
  files.push(...extra);
  const person = commitPerson(meta);
  return { files, parents: parent === null ? [] : [parent], author: person, committer: person, message: commitMessage(meta) };
}

type TreeLink = Pick<ChainLink, 'oid' | 'tree'>;

/** Objects of context commits, in order; one an engine cannot read is named by its commit: `ctx-…: <part> is damaged`. */
async function readParts(engine: Engine, specs: readonly string[], commits: readonly string[], part: string): Promise<(GitObject | null)[]> {
  try {
    return await engine.readObjects(specs);
  } catch (e) {
    if (!(e instanceof UnreadableObject)) throw e;
    const i = specs.indexOf(e.spec);
    throw i < 0 ? e : new StoreDamage(commits[i], `${part} is damaged`, { cause: e });
  }
}

/** The artifact entry (`delta.*`, `summary.*`, `snapshot.*`) of a commit's tree entries, if any. */
export function artifactEntry(entries: readonly TreeEntry[]): ContextEntry['artifact'] {
  const art = entries.find((e) => ARTIFACT.test(e.name));
  return art ? { name: art.name, oid: art.oid, chunked: art.mode === '40000' } : null;
}
type Layout = { oid: string; meta: string; artifact: ContextEntry['artifact'] };

/** Where meta.json and the artifact are in each commit's tree: one pipelined pass over the trees. */
export async function readLayouts(engine: Engine, links: readonly TreeLink[]): Promise<Layout[]> {
  const trees = await readParts(engine, links.map((l) => l.tree), links.map((l) => l.oid), 'its tree');
  return links.map(({ oid }, i) => {
    const t = trees[i];
    if (!t || t.type !== 'tree') throw new IntegrityError(`${shortId(oid)}: its tree is missing`);
    const { meta, artifacts } = treeLayout(t.data);
    if (!meta) throw new IntegrityError(`${shortId(oid)}: not a context commit (no meta.json)`);
    return { oid, meta, artifact: artifacts[0] ?? null };
  });
}

/** Metadata and artifact location of chain links: trees, then meta blobs, each in one pipelined pass. */
export async function readEntries(engine: Engine, links: readonly TreeLink[]): Promise<ContextEntry[]> {
  const layout = await readLayouts(engine, links);
  const metas = await readParts(engine, layout.map((l) => l.meta), layout.map((l) => l.oid), 'meta.json');
  return layout.map(({ oid, artifact }, i) => {
    const blob = metas[i];
    if (!blob) throw new IntegrityError(`${shortId(oid)}: meta.json is missing`);
    return { oid, meta: parseMeta(oid, blob.data), artifact };
  });
}

/**
 * The meta.json of each link, checked, handed to `pick` with the link's index and its tree's
 * artifact entries as it arrives, so a long chain's metadata is never held whole: its trees in one pipelined pass,
 * then each meta.json by id in another (an object by id costs git no lookup in a tree). A commit whose
 * tree or meta.json is missing or unreadable gets its error instead, for a walk to throw only when
 * the context holds that commit; a damaged object fails the read, naming its commit.
 */
export async function readMetas<T>(engine: Engine, links: readonly TreeLink[], pick: (i: number, meta: Meta, artifacts: readonly Located[]) => T): Promise<(T | IntegrityError)[]> {
  const out: (T | IntegrityError | null)[] = links.map(() => null);
  const metas: string[] = [];
  const at: number[] = [];
  const artifacts: Located[][] = new Array(links.length);
  await eachOf(engine, links.map((l) => l.tree), links.map((l) => l.oid), 'its tree', (i, tree) => {
    const layout = tree?.type === 'tree' ? treeLayout(tree.data) : null;
    if (layout?.meta) {
      at.push(i);
      metas.push(layout.meta);
      artifacts[i] = layout.artifacts;
    } else out[i] = new IntegrityError(`${shortId(links[i].oid)}: ${layout ? 'meta.json' : 'its tree'} is missing`);
  });
  await eachOf(engine, metas, at.map((i) => links[i].oid), 'meta.json', (j, blob) => {
    const i = at[j];
    if (blob?.type !== 'blob') return void (out[i] = new IntegrityError(`${shortId(links[i].oid)}: meta.json is missing`));
    try {
      out[i] = pick(i, parseMeta(links[i].oid, blob.data), artifacts[i]);
    } catch (e) {
      if (!(e instanceof IntegrityError)) throw e;
      out[i] = e;
    }
  });
  return out as (T | IntegrityError)[];
}

/** An artifact entry of a commit's tree: a blob, or a tree of chunks. */
export type Located = NonNullable<ContextEntry['artifact']>;

/**
 * meta.json's blob id and the artifact entries of a context commit's tree, read off its bytes
 * (`<mode> <name>\0<20-byte id>` each) without an object per entry: a walk reads one per commit.
 */
function treeLayout(data: Uint8Array): { meta: string | null; artifacts: Located[] } {
  const buf = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  let meta: string | null = null;
  const artifacts: Located[] = [];
  for (let i = 0; i < buf.length; ) {
    const sp = buf.indexOf(0x20, i);
    const nul = sp < 0 ? -1 : buf.indexOf(0, sp);
    if (nul < 0) break;
    // meta.json, delta.*, summary.*, snapshot.*: the first byte tells most other entries apart (state)
    const c = buf[sp + 1];
    if (c === 0x6d && nul - sp === 10 && buf.toString('latin1', sp + 1, nul) === 'meta.json') meta = buf.toString('hex', nul + 1, nul + 21);
    else if (c === 0x64 || c === 0x73) {
      const name = buf.toString('utf8', sp + 1, nul);
      if (ARTIFACT.test(name)) artifacts.push({ name, oid: buf.toString('hex', nul + 1, nul + 21), chunked: sp - i === 5 && buf[i] === 0x34 });
    }
    i = nul + 21;
  }
  return { meta, artifacts };
}

/** readParts, each object handed over as it arrives (valid during the call) where the engine streams. */
async function eachOf(engine: Engine, specs: readonly string[], commits: readonly string[], part: string, each: (i: number, obj: GitObject | null) => void): Promise<void> {
  if (!engine.readEach) return (await readParts(engine, specs, commits, part)).forEach((o, i) => each(i, o));
  try {
    await engine.readEach(specs, each);
  } catch (e) {
    if (!(e instanceof UnreadableObject)) throw e;
    const i = specs.indexOf(e.spec);
    throw i < 0 ? e : new StoreDamage(commits[i], `${part} is damaged`, { cause: e });
  }
}

/** Whole commits (message, parents) with their entries. */
export async function readStoredCommits(engine: Engine, oids: readonly string[]): Promise<StoredCommit[]> {
  const objs = await readParts(engine, oids, oids, 'the commit');
  const commits = objs.map((o, i) => {
    if (!o) throw new StoreDamage(oids[i], 'the commit is missing');
    if (o.type !== 'commit') throw new StoreDamage(`object ${oids[i]}`, `is a ${o.type}, not a commit`);
    return parseCommit(o.data);
  });
  const entries = await readEntries(engine, oids.map((oid, i) => ({ oid, tree: commits[i].tree })));
  return entries.map((e, i) => ({ ...e, commit: commits[i] }));
}

/** meta.json bytes → Meta; a version this build does not know, or a field of the wrong type, is an integrity failure. */
export function parseMeta(oid: string, data: Uint8Array): Meta {
  let meta: Meta;
  try {
    meta = JSON.parse(Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('utf8')) as Meta;
  } catch {
    throw new IntegrityError(`${shortId(oid)}: meta.json is not JSON`);
  }
  if (meta === null || typeof meta !== 'object' || meta.v !== META_VERSION)
    throw new IntegrityError(`${shortId(oid)}: unknown meta.json version ${JSON.stringify((meta as Meta | null)?.v)}`);
  // fields of the wrong type are refused here, not met as a crash in whoever reads them
  const [problem] = metaProblems(meta);
  if (problem) throw new IntegrityError(`${shortId(oid)}: ${problem}`);
  return meta;
}

/** What a commit's meta.json says of its artifact: what a read of the artifact is checked against. */
export type ArtifactClaim = Pick<Meta, 'artifact' | 'artifact_size'>;

/**
 * The problem with an artifact's bytes against its meta.json, or null: git's reader does not check
 * that an object's bytes hash to its id (a loose file copied over another reads as the other blob).
 */
export function artifactMismatch(oid: string, length: number, digest: string | null, claim: ArtifactClaim): IntegrityError | null {
  if (length !== claim.artifact_size) return new IntegrityError(`${shortId(oid)}: artifact is ${length} bytes, meta.json says ${claim.artifact_size}`);
  if (digest !== null && digest !== claim.artifact) return new IntegrityError(`${shortId(oid)}: artifact does not match its BLAKE3 in meta.json`);
  return null;
}

/** `bytes` when they are the artifact meta.json describes (size, then BLAKE3); an IntegrityError naming the commit when not. */
export async function checkedArtifact(oid: string, bytes: Uint8Array, claim: ArtifactClaim): Promise<Uint8Array> {
  const wrong = artifactMismatch(oid, bytes.length, null, claim) ?? artifactMismatch(oid, bytes.length, await artifactHash(bytes), claim);
  if (wrong) throw wrong;
  return bytes;
}

/** Artifact bytes of many commits, in order, chunks reassembled; checked against meta.json when the entries carry it. */
export function readArtifacts(engine: Engine, entries: readonly (Pick<ContextEntry, 'oid' | 'artifact'> & { meta?: ArtifactClaim })[]): Promise<Uint8Array[]> {
  const missing = entries.find((e) => !e.artifact);
  if (missing) throw new IntegrityError(`${shortId(missing.oid)}: artifact is missing`);
  return readArtifactsAt(engine, entries.map((e) => ({ oid: e.oid, spec: e.artifact!.oid, claim: e.meta })));
}

/** A chunked artifact's tree: its numbered blobs, in order. */
const chunkEntries = (tree: Uint8Array) => parseTree(tree).sort((a, b) => Number(a.name) - Number(b.name));

/** A chunked artifact's chunk blob ids, in order. */
export const chunkIds = (tree: Uint8Array) => chunkEntries(tree).map((c) => c.oid);

/** A chunked artifact's chunks handed to `each` in order, read one at a time: one chunk in memory, not the artifact. */
export async function eachChunk(engine: Engine, commit: string, tree: Uint8Array, each: (chunk: Uint8Array) => void): Promise<void> {
  for (const c of chunkEntries(tree)) {
    const [blob] = await readParts(engine, [c.oid], [commit], 'an artifact chunk');
    if (!blob) throw new IntegrityError(`${shortId(commit)}: an artifact chunk is missing`);
    each(blob.data);
  }
}

/** Artifact bytes by object spec (a blob or chunk-tree id, or `<tree>:<name>`), in order; each with a `claim` is checked against it. */
export async function readArtifactsAt(engine: Engine, items: readonly { oid: string; spec: string; claim?: ArtifactClaim }[]): Promise<Uint8Array[]> {
  const objs = await readParts(engine, items.map((i) => i.spec), items.map((i) => i.oid), 'artifact');
  const out: Uint8Array[] = [];
  for (let i = 0; i < items.length; i++) {
    const o = objs[i];
    if (!o) throw new IntegrityError(`${shortId(items[i].oid)}: artifact is missing`);
    if (o.type === 'blob') {
      out.push(o.data);
      continue;
    }
    const chunks = chunkEntries(o.data);
    const blobs = await readParts(engine, chunks.map((c) => c.oid), chunks.map(() => items[i].oid), 'an artifact chunk');
    if (blobs.some((b) => !b)) throw new IntegrityError(`${shortId(items[i].oid)}: an artifact chunk is missing`);
    out.push(Buffer.concat(blobs.map((b) => b!.data)));
  }
  for (let i = 0; i < items.length; i++) {
    const claim = items[i].claim;
    if (claim) await checkedArtifact(items[i].oid, out[i], claim);
  }
  return out;
}

/**
 * Of `commits` (ids that name commits), those another tool made: no `Ctx-Type:` trailer and no
 * meta.json in the tree (a plain `git commit` on a remote). One with either is a context commit,
 * damaged or not, and is left for its reader to judge.
 */
export async function foreignCommits(engine: Engine, commits: readonly string[]): Promise<Set<string>> {
  const objs = await engine.readObjects(commits);
  const untagged: { oid: string; tree: string }[] = [];
  commits.forEach((oid, i) => {
    const o = objs[i];
    if (o?.type !== 'commit') return;
    const c = parseCommit(o.data);
    if (!/^Ctx-Type: /m.test(c.message)) untagged.push({ oid, tree: c.tree });
  });
  const trees = await engine.readObjects(untagged.map((u) => u.tree));
  return new Set(untagged.filter((_, i) => trees[i]?.type === 'tree' && !treeLayout(trees[i]!.data).meta).map((u) => u.oid));
}
