// What push, fetch and pull share and what a push that finds nothing to send needs: the remote, its
// transport and the report. Kept small: an up-to-date `ctx push` loads this and push.ts, nothing else.
import { getRemote, redact, type Remote } from '../../store/sync/remotes.js';
import { openTransport, type Transport } from '../../store/sync/transport.js';
import type { RepoContext } from '../repo/repo-context.js';
import type { RefReport, SyncOptions, SyncReport } from './sync-types.js';

export const report = (remote: Remote, t: Transport, list: RefReport[]): SyncReport => ({
  remote: remote.name,
  url: redact(remote.url),
  transport: t.name,
  refs: list,
  ok: list.every((r) => r.ok),
});

export async function open(ctx: RepoContext, name: string | undefined, opts: SyncOptions) {
  const remote = getRemote(ctx.gitdir, name);
  const t = await openTransport(ctx.gitdir, remote, ctx.engine, ctx.refs, { env: opts.env ?? process.env, progress: opts.progress ?? false, onProgress: opts.onProgress });
  return { remote, t };
}

/** refs/heads/x and refs/tags/x as x, for hints. */
export const shortRef = (ref: string) => ref.replace(/^refs\/(heads|tags)\//, '');
