// The messages of a commit's context for the web view: read once through the context reader (the
// neutral model materialize translates through), each tool call with its view and each compaction
// marked (marks.ts), kept for the few commits looked at last, and handed out a page at a time so a
// 2,000-turn session opens without sending it whole.
import { neutralRuns, parseStop, partMessages, readContext, type ContextPart } from '../api/read/context-reader.js';
import { toolReader, type ToolReader } from '../api/search/effects.js';
import type { RepoContext } from '../api/repo/repo-context.js';
import type { NeutralMessage } from '../core/neutral.js';
import { attachSubagentRuns } from './subagents.js';
import { outputReader, type OutputReader } from '../api/read/tool-outputs.js';
import { markDividers, passedDividers, withViews, type ViewedMessage } from './marks.js';

export interface ContextMessages {
  /** `ctx-<40 hex>` */
  id: string;
  messages: ViewedMessage[];
  /** the index of the first message the commit's own artifact holds: a search hit's entry N is message own + N */
  own: number;
}

/** The most recently read contexts, by commit (a commit's context never changes). */
export class MessageCache {
  private readonly entries = new Map<string, Promise<ContextMessages>>();
  private tools: Promise<ToolReader> | undefined;
  private outputs: Promise<OutputReader> | undefined;
  constructor(private readonly keep = 4) {}

  /** Loads the runtimes' tool knowledge now (~0.1 s and more of modules), not with the first page a browser asks for. */
  warm(): void {
    (this.tools ??= toolReader()).catch(() => {});
    (this.outputs ??= outputReader()).catch(() => {});
  }

  /** `stop`: where the context starts, as `ctx materialize --stop` takes it (compaction, root, an ancestor). */
  async get(repo: RepoContext, spec: string, stop = 'compaction'): Promise<ContextMessages> {
    const oid = await repo.resolve(spec);
    const at = await parseStop(repo, stop);
    const key = `${oid} ${at.kind === 'ancestor' ? at.oid : at.kind}`;
    let entry = this.entries.get(key);
    if (entry === undefined) {
      entry = read(repo, oid, at, (this.tools ??= toolReader()), (this.outputs ??= outputReader()));
      entry.catch(() => this.entries.delete(key));
    }
    // the newest last: Map keeps insertion order
    this.entries.delete(key);
    this.entries.set(key, entry);
    while (this.entries.size > this.keep) this.entries.delete(this.entries.keys().next().value!);
    return entry;
  }
}

async function read(repo: RepoContext, oid: string, stop: Awaited<ReturnType<typeof parseStop>>, reader: Promise<ToolReader>, outputs: Promise<OutputReader>): Promise<ContextMessages> {
  const { parts, passed } = await readContext(repo, oid, stop);
  const [tools, unwrap] = await Promise.all([reader, outputs]);
  const before = await passedDividers(repo, parts, passed);
  const messages = neutralRuns(parts).flatMap(({ run, messages }) => {
    const viewed: ViewedMessage[] = withViews(messages, run[0].format, tools, unwrap);
    markDividers(run, viewed, before);
    return viewed;
  });
  await attachSubagentRuns(repo, parts, messages);
  return { id: `ctx-${oid}`, messages, own: ownFrom(parts, oid, messages.length) };
}

/** Where the tip's own messages start: after the parts before it (a snapshot holds them all: 0); past the end when the tip holds none here. */
function ownFrom(parts: readonly ContextPart[], oid: string, total: number): number {
  const tip = parts[parts.length - 1];
  if (tip?.oid !== oid) return total;
  try {
    return Math.max(0, total - partMessages(tip).length);
  } catch {
    return total;
  }
}
