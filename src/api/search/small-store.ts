// Whether a search opens the index at all: in a store of a few dozen commits, walking the chains
// costs less than loading SQLite's WebAssembly (bench: about 100 commits break even, 0.1 s of CPU
// more with the index on a store of one commit). The store's size is told by its objects, counted
// up to a bound: loose ones by name, packed ones from each pack index's header.
import { closeSync, openSync, readdirSync, readSync } from 'node:fs';
import { join } from 'node:path';
import type { RepoContext } from '../repo/repo-context.js';

/** Objects up to which the chain walk answers (about 4 a commit: commit, tree, artifact, meta.json). */
export const WALK_MAX_OBJECTS = 256;

/** Whether grep and files ask the index: it is on, and the store holds more than WALK_MAX_OBJECTS objects (CTX_INDEX_ALWAYS=1: whatever its size). */
export function indexWorthIt(ctx: RepoContext): boolean {
  return ctx.searchIndex && (ctx.indexAlways || objectsOver(ctx.gitdir, WALK_MAX_OBJECTS));
}

/** Whether the store holds more than `max` objects, counted only as far as needed. */
function objectsOver(gitdir: string, max: number): boolean {
  const objects = join(gitdir, 'objects');
  let n = 0;
  for (const name of list(join(objects, 'pack'))) if (name.endsWith('.idx') && (n += packed(join(objects, 'pack', name))) > max) return true;
  for (const dir of list(objects)) if (/^[0-9a-f]{2}$/.test(dir) && (n += list(join(objects, dir)).length) > max) return true;
  return false;
}

function list(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/** The objects a pack index names (the last entry of its fan-out table; version 2 after an 8-byte header); unreadable: more than any bound. */
function packed(idx: string): number {
  const head = Buffer.alloc(8 + 256 * 4);
  let fd: number | undefined;
  try {
    fd = openSync(idx, 'r');
    if (readSync(fd, head, 0, head.length, 0) !== head.length) return Infinity;
  } catch {
    return Infinity;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  const v2 = head.readUInt32BE(0) === 0xff744f63;
  return head.readUInt32BE((v2 ? 8 : 0) + 255 * 4);
}
