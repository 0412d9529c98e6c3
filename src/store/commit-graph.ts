// Walking commit parents: fast-forward checks, "commits new to the remote", a notes merge's base.
import type { Engine } from './engine.js';
import { parseCommit } from './objects.js';

/** Commits reachable from `tips` (all parents), stopping at `stop` (not included); breadth first, one batch per level. */
export async function reachable(engine: Engine, tips: readonly string[], stop: ReadonlySet<string> = new Set(), until?: (oid: string) => boolean): Promise<string[]> {
  const seen = new Set<string>();
  let level = tips.filter((t) => !stop.has(t));
  const out: string[] = [];
  while (level.length) {
    level = level.filter((o) => !seen.has(o));
    level.forEach((o) => seen.add(o));
    const objs = await engine.readObjects(level);
    const next: string[] = [];
    for (let i = 0; i < level.length; i++) {
      const o = objs[i];
      if (!o || o.type !== 'commit') continue;
      out.push(level[i]);
      if (until?.(level[i])) return out;
      for (const p of parseCommit(o.data).parents) if (!stop.has(p) && !seen.has(p)) next.push(p);
    }
    level = next;
  }
  return out;
}

/** Whether `ancestor` is `descendant` or one of its ancestors (false when either is missing here). */
export async function isAncestor(engine: Engine, ancestor: string, descendant: string): Promise<boolean> {
  if (ancestor === descendant) return true;
  if (!(await hasObject(engine, ancestor))) return false;
  let found = false;
  await reachable(engine, [descendant], new Set(), (o) => (found = o === ancestor));
  return found;
}

export async function hasObject(engine: Engine, oid: string): Promise<boolean> {
  return (await engine.readObject(oid)) !== null;
}
