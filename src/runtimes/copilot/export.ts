// `ctx export copilot ID`: a context as a new Copilot CLI session that `copilot --resume=<id>` finds.
// Any chain is read as copilot-events-v1 (a Copilot chain natively, any other through the neutral
// model). The events are kept as they are, but for the session.start naming the new session (one is
// put first when the context starts without it: a compaction, or another runtime's messages).
import { randomUUID } from 'node:crypto';
import { BadInputError } from '../../errors/index.js';
import { materialize } from '../../api/read/materialize.js';
import type { RepoContext } from '../../api/repo/repo-context.js';
import type { ExportOptions, Exported } from '../../api/capture/runtime.js';
import { isRecord } from '../../core/neutral.js';
import { PRODUCER } from '../../formats/copilot-messages.js';
import { checkSessionUuid, trackExportedFile } from '../session-file.js';
import { COPILOT_FORMAT, sessionBranch } from './names.js';

export async function exportCopilot(ctx: RepoContext, spec: string, opts: ExportOptions = {}): Promise<Exported> {
  const sessionId = checkSessionUuid(opts.sessionId ?? randomUUID(), ' (Copilot CLI names its sessions so)');
  const commit = `ctx-${await ctx.resolve(spec)}`;
  const m = await materialize(ctx, spec, { format: COPILOT_FORMAT, stop: opts.stop ?? 'compaction' });
  const lines = Buffer.from(m.bytes).toString('utf8').split('\n').filter((l) => l !== '');
  if (lines.length === 0) throw new BadInputError(`${spec}: nothing to export (the context is empty)`);
  const events = lines.map((l, i) => {
    try {
      return JSON.parse(l) as unknown;
    } catch {
      throw new BadInputError(`${commit.slice(0, 16)}: line ${i + 1} of the context is not JSON`);
    }
  });
  const startAt = events.findIndex((e) => isRecord(e) && e.type === 'session.start' && isRecord(e.data));
  const contextOf = (e: unknown) => (isRecord(e) && isRecord(e.data) && isRecord(e.data.context) && typeof e.data.context.cwd === 'string' ? e.data.context.cwd : null);
  const cwd = events.map(contextOf).find((c) => c !== null) ?? opts.cwd ?? process.cwd();
  const now = ctx.now().toISOString();
  const out = [...lines];
  if (startAt === 0) {
    const start = events[0] as { data: Record<string, unknown> };
    out[0] = JSON.stringify({ ...start, data: { ...start.data, sessionId } });
  } else {
    const first = events.find((e) => isRecord(e) && typeof e.id === 'string') as { id: string } | undefined;
    const start = { type: 'session.start', data: { sessionId, version: 1, ...PRODUCER, startTime: now, context: { cwd } }, id: randomUUID(), timestamp: now, parentId: null };
    out.unshift(JSON.stringify(start));
    // the first event hangs off the new start
    if (first && isRecord(events[0]) && events[0] === first) out[1] = JSON.stringify({ ...(events[0] as object), parentId: start.id });
  }
  const bytes = Buffer.from(out.map((l) => `${l}\n`).join(''), 'utf8');
  return { sessionId, commit, cwd, bytes, lines: out.length, command: `copilot --resume=${sessionId}` };
}

/** The exported session's own branch, where its capture continues (session-file.ts). */
export const trackExport = (ctx: RepoContext, e: Exported, path: string): string | undefined => trackExportedFile(ctx, e, path, sessionBranch(e.sessionId));
