// A commit's root subtree by name (its `state/`) or a file of its root tree (its meta.json), read
// cheaply: the parent of a new commit is almost always loose (the previous write left it so), and
// inflating a few small files in-process spares the write path a git process. Packed objects go
// through the engine.
import type { Engine, GitObject } from './engine.js';
import { readLoose } from './loose-objects.js';
import { parseCommit, parseTree } from './objects.js';

async function readObject(gitdir: string, engine: Engine, oid: string): Promise<GitObject | null> {
  return readLoose(gitdir, oid) ?? engine.readObject(oid);
}

/** The id of the tree at `name` in `commit`'s root tree, or null when there is none. */
export async function subtreeOf(gitdir: string, engine: Engine, commit: string, name: string): Promise<string | null> {
  const c = await readObject(gitdir, engine, commit);
  if (c?.type !== 'commit') return null;
  const t = await readObject(gitdir, engine, parseCommit(c.data).tree);
  return t?.type === 'tree' ? subtreeIn(t.data, name) : null;
}

/** The id of the subtree at `name` in a tree object's bytes, or null when there is none. */
export function subtreeIn(tree: Uint8Array, name: string): string | null {
  const e = parseTree(tree).find((x) => x.name === name);
  return e && e.mode === '40000' ? e.oid : null;
}

/** The blob at `name` in `commit`'s root tree when commit, tree and blob are all loose; undefined otherwise (ask the engine). */
export function looseRootFile(gitdir: string, commit: string, name: string): GitObject | undefined {
  const c = readLoose(gitdir, commit);
  if (c?.type !== 'commit') return undefined;
  const t = readLoose(gitdir, parseCommit(c.data).tree);
  if (t?.type !== 'tree') return undefined;
  const e = parseTree(t.data).find((x) => x.name === name);
  const blob = e && e.mode !== '40000' ? readLoose(gitdir, e.oid) : null;
  return blob?.type === 'blob' ? blob : undefined;
}
