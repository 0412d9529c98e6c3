// What a partial clone brings beyond commits and trees: every commit's meta.json and summary, and
// the annotations, in one fetch, so log, show, branch and sessions read from it without the remote.
import { parseTree } from '../../store/objects.js';
import { run } from '../../store/git-process.js';
import { missingObjects } from '../../store/object-ids.js';
import { fetchObjects } from '../../store/partial.js';
import { refs } from '../../store/refs.js';
import type { RepoContext } from '../repo/repo-context.js';

/** The blobs a clone brings although its filter leaves blobs out: the small ones every listing reads. */
const SMALL = /^(meta\.json|summary\..+)$/;

/**
 * Fetch, in one batch, the meta.json and summary.* of the commits reachable from `range` (default: every
 * ref), and the blobs of the annotations. Returns how many blobs were fetched.
 */
export async function backfillSmall(ctx: RepoContext, remote: string, env: NodeJS.ProcessEnv, range?: { tips: readonly string[]; not: readonly string[] }): Promise<number> {
  // ids on stdin (`^id` excludes): git 2.39's --stdin takes no options
  const revs = range ? [...range.tips, ...range.not.map((o) => `^${o}`)].join('\n') + '\n' : '';
  const listed = (await run(ctx.gitdir, ['log', '--format=%T', ...(range ? ['--stdin'] : ['--all'])], range ? [Buffer.from(revs)] : [], { spooled: true })).stdout;
  const trees = [...new Set(listed.toString('latin1').split('\n').filter(Boolean))];
  const wanted = new Set<string>();
  const objs = await ctx.engine.readObjects(trees);
  for (const o of objs) if (o?.type === 'tree') for (const e of parseTree(o.data)) if (e.mode === '100644' && SMALL.test(e.name)) wanted.add(e.oid);
  for (const ref of [refs.notes, refs.remoteNotes(remote)]) {
    if (!ctx.refs.read(ref)) continue;
    const listed = (await run(ctx.gitdir, ['ls-tree', '-r', '--full-tree', ref], [])).stdout.toString('latin1');
    for (const line of listed.split('\n')) if (/^100644 blob [0-9a-f]{40}\t/.test(line)) wanted.add(line.slice(12, 52));
  }
  const missing = missingObjects(ctx.gitdir, [...wanted]);
  fetchObjects(ctx.gitdir, remote, missing, env);
  return missing.length;
}
