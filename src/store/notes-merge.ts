// Merging annotations fetched from a remote into refs/notes/ctx: per annotated commit, the sorted
// union of both notes' JSON lines (git's `notes merge -s cat_sort_uniq`), as a commit with both parents.
import type { Engine, Signature, TreeFile } from './engine.js';
import { notePath, notesIndexAt } from './notes.js';
import { refs, type RefStore } from './refs.js';
import { isAncestor } from './commit-graph.js';
import { ConflictError } from '../errors/index.js';

export interface NotesMerge {
  status: 'up to date' | 'fast-forward' | 'merged';
  old: string | null;
  new: string | null;
}

export async function mergeNotes(engine: Engine, refStore: RefStore, theirsRef: string, who: Signature, message: string): Promise<NotesMerge> {
  for (let attempt = 0; ; attempt++) {
    const ours = refStore.read(refs.notes);
    const theirs = refStore.read(theirsRef);
    try {
      if (theirs === null || ours === theirs || (ours !== null && (await isAncestor(engine, theirs, ours)))) return { status: 'up to date', old: ours, new: ours };
      if (ours === null || (await isAncestor(engine, ours, theirs))) {
        refStore.update(refs.notes, theirs, ours);
        return { status: 'fast-forward', old: ours, new: theirs };
      }
      const files = await unionTree(engine, ours, theirs);
      const [commit] = await engine.writeCommits([{ files, parents: [ours, theirs], author: who, committer: who, message }]);
      refStore.update(refs.notes, commit, ours);
      return { status: 'merged', old: ours, new: commit };
    } catch (e) {
      // an annotate landed meanwhile: merge again from the new tip
      if (!(e instanceof ConflictError) || attempt >= 10) throw e;
    }
  }
}

async function unionTree(engine: Engine, ours: string, theirs: string): Promise<TreeFile[]> {
  const [a, b] = [await notesIndexAt(engine, ours), await notesIndexAt(engine, theirs)];
  // keep native git's fanned-out layout when either side has it
  const fanned = [...a.values(), ...b.values()].some((n) => n.path.includes('/'));
  const files: TreeFile[] = [];
  const both: string[] = [];
  for (const key of new Set([...a.keys(), ...b.keys()])) {
    const x = a.get(key);
    const y = b.get(key);
    if (x && y && x.oid !== y.oid) both.push(key);
    else files.push({ path: notePath(key, fanned), oid: (x ?? y)!.oid });
  }
  const blobs = await engine.readObjects(both.flatMap((k) => [a.get(k)!.oid, b.get(k)!.oid]));
  both.forEach((key, i) => {
    const lines = [blobs[2 * i], blobs[2 * i + 1]].flatMap((o) => Buffer.from(o?.data ?? []).toString('utf8').split('\n')).filter((l) => l !== '');
    const union = [...new Set(lines)].sort((p, q) => (p < q ? -1 : p > q ? 1 : 0));
    files.push({ path: notePath(key, fanned), data: Buffer.from(union.join('\n') + '\n') });
  });
  return files;
}
