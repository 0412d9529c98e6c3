// Before a push: the artifacts of commits new to the remote are scanned with the project's secret
// rules; a finding blocks the push (commit ids and rule names, never the secret) unless --allow-secrets.
import { shortId } from '../core/ids.js';
import { scanSecrets } from '../core/secret-rules.js';
import { SecretFoundError } from '../errors/index.js';
import { artifactEntry, readArtifactsAt } from '../store/context-commits.js';
import { parseCommit, parseTree } from '../store/objects.js';
import { refs } from '../store/refs.js';
import { reachable } from '../store/commit-graph.js';
import type { PushUpdate } from '../store/sync/transport.js';
import type { RepoContext } from './repo-context.js';

const BATCH = 512;

export async function scanOutgoing(ctx: RepoContext, updates: readonly PushUpdate[], remote: ReadonlyMap<string, string>): Promise<void> {
  const tips: string[] = [];
  for (const u of updates) {
    if (u.src === refs.notes) continue; // notes commits hold annotations, not artifacts
    tips.push(await ctx.peel(u.oid));
  }
  // commits the remote's refs reach are not new to it (commits past a remote tip we lack are scanned too: safe side)
  const fresh = await reachable(ctx.engine, tips, new Set(remote.values()));
  const found: string[] = [];
  for (let i = 0; i < fresh.length; i += BATCH) {
    const oids = fresh.slice(i, i + BATCH);
    const commits = await ctx.engine.readObjects(oids);
    const trees = await ctx.engine.readObjects(commits.map((c) => parseCommit(c!.data).tree));
    const items: { oid: string; spec: string }[] = [];
    oids.forEach((oid, j) => {
      // a commit that is not a context commit has no artifact to scan
      const art = trees[j] ? artifactEntry(parseTree(trees[j]!.data)) : null;
      if (art) items.push({ oid, spec: art.oid });
    });
    const arts = await readArtifactsAt(ctx.engine, items);
    items.forEach((it, j) => {
      const rules = [...new Set(scanSecrets(arts[j]).map((f) => f.rule))];
      if (rules.length) found.push(`${shortId(it.oid)} (${rules.join(', ')})`);
    });
  }
  if (found.length) {
    throw new SecretFoundError(`push blocked: ${found.length} commit${found.length === 1 ? '' : 's'} new to the remote hold secrets: ${found.slice(0, 10).join(', ')}${found.length > 10 ? ', …' : ''}`, {
      hint: 'remove them (fork before the commit), or push anyway with --allow-secrets',
    });
  }
}
