// The messages of one commit (what its turn added) or of a range `A..B` (what came after A up to B),
// in the neutral model: what `ctx show --messages` renders for people.
import { fullId } from '../../core/ids.js';
import type { NeutralMessage } from '../../core/neutral.js';
import { UsageError } from '../../errors/index.js';
import type { Stop } from '../../core/materialize.js';
import type { RepoContext } from '../repo/repo-context.js';
import { neutralMessages, readContext } from './context-reader.js';

export interface Conversation {
  id: string;
  /** the stored format of the tip: whose runtime knows its tool calls */
  format: string;
  /** the commits read, oldest first */
  commits: string[];
  messages: NeutralMessage[];
}

export async function conversation(ctx: RepoContext, spec: string): Promise<Conversation> {
  const range = /^(.+?)\.\.(.+)$/.exec(spec);
  const oid = await ctx.resolve(range ? range[2] : spec);
  // a walk to an ancestor takes that ancestor too: the range's first commit is the one after A
  let first = oid;
  if (range) {
    const chain = await ctx.firstParents(oid);
    const at = chain.indexOf(await ctx.resolve(range[1]));
    if (at < 0) throw new UsageError(`show: ${range[1]} is not on the chain of ${range[2]}: give A..B with A an ancestor of B`);
    if (at === 0) return { id: fullId(oid), format: '', commits: [], messages: [] };
    first = chain[at - 1];
  }
  const stop: Stop = { kind: 'ancestor', oid: first };
  const read = await readContext(ctx, oid, stop, { spec });
  return { id: fullId(oid), format: read.tipFormat, commits: read.parts.map((p) => fullId(p.oid)), messages: neutralMessages(read.parts) };
}
