// Whether a search opens the index at all: in a store of a few dozen commits, walking the chains
// costs less than loading SQLite's WebAssembly (bench: about 100 commits break even, 0.1 s of CPU
// more with the index on a store of one commit). The store's size is told by its objects, counted
// up to a bound (store/object-ids.ts: loose ones by name, packed ones from each pack index's header).
import { objectsOver } from '../../store/object-ids.js';
import type { RepoContext } from '../repo/repo-context.js';

/** Objects up to which the chain walk answers (about 4 a commit: commit, tree, artifact, meta.json). */
export const WALK_MAX_OBJECTS = 256;

/** Whether grep and files ask the index: it is on, and the store holds more than WALK_MAX_OBJECTS objects (CTX_INDEX_ALWAYS=1: whatever its size). */
export function indexWorthIt(ctx: RepoContext): boolean {
  return ctx.searchIndex && (ctx.indexAlways || objectsOver(ctx.gitdir, WALK_MAX_OBJECTS));
}
