// The messages of a commit's context for the web view: read once through the context reader (the
// neutral model materialize translates through), kept for the few commits looked at last, and
// handed out a page at a time so a 2,000-turn session opens without sending it whole.
import { neutralMessages, parseStop, readContext } from '../api/read/context-reader.js';
import type { RepoContext } from '../api/repo/repo-context.js';
import type { NeutralMessage } from '../core/neutral.js';

export interface ContextMessages {
  /** `ctx-<40 hex>` */
  id: string;
  messages: NeutralMessage[];
}

/** The most recently read contexts, by commit (a commit's context never changes). */
export class MessageCache {
  private readonly entries = new Map<string, Promise<ContextMessages>>();
  constructor(private readonly keep = 4) {}

  /** `stop`: where the context starts, as `ctx materialize --stop` takes it (compaction, root, an ancestor). */
  async get(repo: RepoContext, spec: string, stop = 'compaction'): Promise<ContextMessages> {
    const oid = await repo.resolve(spec);
    const at = await parseStop(repo, stop);
    const key = `${oid} ${at.kind === 'ancestor' ? at.oid : at.kind}`;
    let entry = this.entries.get(key);
    if (entry === undefined) {
      entry = read(repo, oid, at);
      entry.catch(() => this.entries.delete(key));
    }
    // the newest last: Map keeps insertion order
    this.entries.delete(key);
    this.entries.set(key, entry);
    while (this.entries.size > this.keep) this.entries.delete(this.entries.keys().next().value!);
    return entry;
  }
}

async function read(repo: RepoContext, oid: string, stop: Awaited<ReturnType<typeof parseStop>>): Promise<ContextMessages> {
  const { parts } = await readContext(repo, oid, stop);
  return { id: `ctx-${oid}`, messages: neutralMessages(parts) };
}
