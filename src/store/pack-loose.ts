// Packing loose objects without git on PATH: isomorphic-git writes one pack of every loose object
// and its index, then the loose copies go. No deltas and no pruning (git does those): this only
// stops a store written without git from taking a file per object. One packer at a time.
import * as fs from 'node:fs';
import { join } from 'node:path';
import { derivedDir } from './derived.js';
import { loadIsogit } from './engine-isogit.js';
import { tryLock } from './lock-owner.js';
import { looseObjects, packIndexObjects } from './object-ids.js';

/** Packs at or over this many are folded into the next one, as `git gc --auto` does past gc.autoPackLimit. */
const FOLD_PACKS = 16;

/**
 * Pack the loose objects in-process (`foldPacks`: and every pack's objects, into one); returns how
 * many loose objects were packed (0: none, or another packer is at work). The pack is written and
 * indexed in a scratch directory, then moved in pack first, index last: a reader uses a pack only
 * once its index is there, and finds each object loose until then.
 */
export async function packLooseInProcess(gitdir: string, opts: { foldPacks?: boolean } = {}): Promise<number> {
  const scratch = derivedDir(gitdir);
  const release = tryLock(join(scratch, 'pack.lock'), scratch);
  if (!release) return 0;
  const packs = join(gitdir, 'objects', 'pack');
  fs.mkdirSync(packs, { recursive: true });
  const tmp = fs.mkdtempSync(join(packs, 'tmp_pack_ctx-'));
  try {
    const oids = looseObjects(gitdir);
    // many packs make every lookup slower: past FOLD_PACKS (or when asked) their objects go into the new one too
    const old = fs.readdirSync(packs).filter((n) => n.endsWith('.idx') && !fs.existsSync(join(packs, n.replace(/\.idx$/, '.keep'))));
    const folded = opts.foldPacks || old.length >= FOLD_PACKS ? old : [];
    if (oids.length === 0 && folded.length < 2) return 0;
    const all = [...new Set([...oids, ...folded.flatMap((n) => packIndexObjects(join(packs, n)))])];
    const git = await loadIsogit();
    const { packfile, filename } = await git.packObjects({ fs, gitdir, oids: all });
    const pack = join(tmp, filename);
    fs.writeFileSync(pack, packfile!);
    await git.indexPack({ fs, dir: tmp, gitdir, filepath: filename });
    const idx = filename.replace(/\.pack$/, '.idx');
    fs.renameSync(pack, join(packs, filename));
    fs.renameSync(join(tmp, idx), join(packs, idx));
    const gone = oids.map((oid) => join(gitdir, 'objects', oid.slice(0, 2), oid.slice(2)));
    // an old pack goes index first: a reader stops using a pack once its index is gone
    for (const n of folded) if (n !== idx) gone.push(join(packs, n), join(packs, n.replace(/\.idx$/, '.pack')));
    for (const path of gone) {
      try {
        fs.unlinkSync(path);
      } catch {
        // gone already: another packer's git, or a prune
      }
    }
    return oids.length;
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
    release();
  }
}
