// After a write: pack the loose objects once there are more than `ctx.autoPack` (git's `gc --auto`
// estimate: one directory read per write; git runs only when over, and in the background). Without
// git on PATH, ctx packs them itself (no deltas, no pruning).
import { gitOnPath } from '../../store/engine-select.js';
import { autoPack, gcRunning, tooManyLoose, tooManyPacks } from '../../store/gc.js';
import { packLooseInProcess } from '../../store/pack-loose.js';
import type { RepoContext } from './repo-context.js';

export async function packIfLoose(ctx: RepoContext, opts: { packs?: boolean } = {}): Promise<void> {
  // `packs`: the write made a pack of its own; many of them are folded as loose objects are packed
  const packs = opts.packs === true && ctx.autoPack > 0 && tooManyPacks(ctx.gitdir);
  if (!packs && !tooManyLoose(ctx.gitdir, ctx.autoPack)) return;
  if (gitOnPath()) return gcRunning(ctx.gitdir) ? undefined : autoPack(ctx.gitdir, ctx.autoPack);
  try {
    await packLooseInProcess(ctx.gitdir, { foldPacks: packs });
  } catch {
    // packing is an optimisation: the write it follows has succeeded
  }
}
