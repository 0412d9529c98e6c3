// After a write: pack the loose objects once there are more than `ctx.autoPack` (git's `gc --auto`
// estimate: one directory read per write; git runs only when over, and in the background).
import { gitOnPath } from '../store/engine-select.js';
import { autoPack, tooManyLoose } from '../store/gc.js';
import type { RepoContext } from './repo-context.js';

export async function packIfLoose(ctx: RepoContext): Promise<void> {
  if (!tooManyLoose(ctx.gitdir, ctx.autoPack) || !gitOnPath()) return;
  await autoPack(ctx.gitdir, ctx.autoPack);
}
