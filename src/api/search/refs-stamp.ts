// A stamp of the files that hold the branches (packed-refs, and every loose ref under refs/heads and
// refs/remotes): inode, size and times, never their contents. The search index keeps the stamp it
// last read the refs under; the same stamp means the same refs, so a warm search lists none of them
// (a team store's 100,000 packed refs cost more to read than the search itself). Git and ctx replace
// a ref file by rename (a new inode) and an edit in place changes its times: any change shows.
import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, type BigIntStats } from 'node:fs';
import { join } from 'node:path';

/**
 * The stamp of the refs (`all`) and of packed-refs alone (`packed`), and the latest change time among
 * those files and their directories (`newest`, ns); null when the refs cannot be stamped (a link or a
 * special file where a ref could be: read them the slow way).
 */
export function refsStamp(gitdir: string): { all: string; packed: string; newest: bigint } | null {
  const h = createHash('sha256');
  let newest = 0n;
  const stat = (rel: string): BigIntStats | undefined => {
    const st = lstatSync(join(gitdir, rel), { bigint: true, throwIfNoEntry: false });
    if (st && st.ctimeNs > newest) newest = st.ctimeNs;
    return st;
  };
  const text = (rel: string, st: BigIntStats) => `${rel} ${st.ino} ${st.size} ${st.mtimeNs} ${st.ctimeNs}\n`;
  const line = (rel: string, st: BigIntStats) => h.update(text(rel, st));
  const packed = stat('packed-refs');
  if (packed && !packed.isFile()) return null;
  if (packed) line('packed-refs', packed);
  const walk = (rel: string): boolean => {
    let names: string[];
    try {
      names = readdirSync(join(gitdir, rel)).sort();
    } catch (e) {
      return (e as NodeJS.ErrnoException).code === 'ENOENT';
    }
    for (const n of names) {
      // a writer's lock is not a ref (a search reading the refs skips it too)
      if (n.endsWith('.lock')) continue;
      const child = `${rel}/${n}`;
      const st = stat(child);
      if (!st) continue; // deleted since the listing: stamped as the refs without it
      if (st.isDirectory()) {
        if (!walk(child)) return false;
      } else if (st.isFile()) line(child, st);
      else return false;
    }
    return true;
  };
  for (const top of ['refs', 'refs/heads', 'refs/remotes']) {
    const st = stat(top);
    if (st && !st.isDirectory()) return null;
  }
  if (!walk('refs/heads') || !walk('refs/remotes')) return null;
  return { all: h.digest('hex'), packed: packed ? text('packed-refs', packed) : 'none', newest };
}
