// Annotations: JSON Lines notes on refs/notes/ctx. Our own code, since isomorphic-git's notes
// break once native git has fanned the notes tree out (ab/cdef…); we read both layouts.
import type { Engine, GitObject, Signature, TreeFile } from './engine.js';
import { parseCommit, parseTree } from './objects.js';
import { refs, type RefStore } from './refs.js';
import { ConflictError } from '../errors/index.js';
import { shortId } from '../core/ids.js';
import { StoreDamage, UnreadableObject } from './damage.js';

/** Note blob id per annotated commit id, from every level of a (possibly fanned-out) notes tree. */
async function noteIndex(engine: Engine, tree: string, prefix = '', out = new Map<string, { oid: string; path: string }>()) {
  const t = await readNotesObject(engine, tree, prefix ? `its subtree ${prefix}` : 'its tree');
  if (t?.type !== 'tree') throw new StoreDamage(refs.notes, `${prefix ? `its subtree ${prefix}` : 'its tree'} ${tree.slice(0, 12)} ${t ? `is a ${t.type}` : 'is missing'}`);
  for (const e of parseTree(t.data)) {
    const path = prefix ? `${prefix}/${e.name}` : e.name;
    if (e.mode === '40000') await noteIndex(engine, e.oid, path, out);
    else out.set(path.replace(/\//g, ''), { oid: e.oid, path });
  }
  return out;
}

/** An object of the notes: one git cannot read is damage of refs/notes/ctx, named as `what`. */
async function readNotesObject(engine: Engine, oid: string, what: string) {
  try {
    return await engine.readObject(oid);
  } catch (e) {
    if (e instanceof UnreadableObject) throw new StoreDamage(refs.notes, `${what} ${oid.slice(0, 12)} cannot be read, the object store is damaged`, { cause: e });
    throw e;
  }
}

/** The note index of a notes commit. */
export async function notesIndexAt(engine: Engine, commit: string) {
  const c = await readNotesObject(engine, commit, 'its commit');
  if (c?.type !== 'commit') throw new StoreDamage(refs.notes, `points at ${commit.slice(0, 12)}, which ${c ? `is a ${c.type}, not a commit` : 'is missing'}`);
  return noteIndex(engine, parseCommit(c.data).tree);
}

/** Where a commit's note goes: `ab/cdef…` when the tree is fanned out (native git's layout), else flat. */
export function notePath(oid: string, fanned: boolean): string {
  return fanned ? `${oid.slice(0, 2)}/${oid.slice(2)}` : oid;
}

async function currentNotes(engine: Engine, refStore: RefStore) {
  const tip = refStore.read(refs.notes);
  return { tip, index: tip ? await notesIndexAt(engine, tip) : new Map<string, { oid: string; path: string }>() };
}

/** The note text of each given commit that has one. */
export async function readNotes(engine: Engine, refStore: RefStore, oids: readonly string[]): Promise<Map<string, string>> {
  const { index } = await currentNotes(engine, refStore);
  const wanted = oids.filter((o) => index.has(o));
  return new Map(await noteTexts(engine, index, wanted));
}

/** The note texts of `commits`, each in `index`: one pipelined read; a missing or unreadable note is damage of refs/notes/ctx. */
async function noteTexts(engine: Engine, index: Map<string, { oid: string }>, commits: readonly string[]): Promise<[string, string][]> {
  const specs = commits.map((o) => index.get(o)!.oid);
  let blobs: (GitObject | null)[];
  try {
    blobs = await engine.readObjects(specs);
  } catch (e) {
    if (!(e instanceof UnreadableObject)) throw e;
    const on = commits[specs.indexOf(e.spec)];
    throw new StoreDamage(refs.notes, `the note on ${on ? shortId(on) : e.spec.slice(0, 12)} cannot be read, the object store is damaged`, { cause: e });
  }
  return commits.map((o, i) => {
    const b = blobs[i];
    if (b?.type !== 'blob') throw new StoreDamage(refs.notes, `the note on ${shortId(o)} is missing`);
    return [o, Buffer.from(b.data).toString('utf8')];
  });
}

/** Append JSON lines to a commit's note: a new notes commit, then a compare-and-swap of the ref. */
export async function appendNote(engine: Engine, refStore: RefStore, target: string, lines: string, who: Signature): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    const { tip, index } = await currentNotes(engine, refStore);
    const prev = index.get(target);
    const before = prev ? (await noteTexts(engine, index, [target]))[0][1] : '';
    const text = before + (before === '' || before.endsWith('\n') ? '' : '\n') + lines;
    // keep the layout native git chose for existing notes; new notes go where git would look first
    const fanned = [...index.values()].some((n) => n.path.includes('/'));
    const files: TreeFile[] = [...index].filter(([k]) => k !== target).map(([, n]) => ({ path: n.path, oid: n.oid }));
    files.push({ path: prev?.path ?? notePath(target, fanned), data: Buffer.from(text) });
    // the other notes come from the tree just read: however many links there are, no git process writes them
    const [commit] = await engine.writeCommits([{ files, parents: tip ? [tip] : [], author: who, committer: who, message: "Notes added by 'ctx annotate'\n" }], { known: true });
    try {
      refStore.update(refs.notes, commit, tip);
      return;
    } catch (e) {
      // annotations only append, so a concurrent annotate is merged by trying again on the new tip
      if (!(e instanceof ConflictError) || attempt >= 20) throw e;
    }
  }
}
