// `ctx export pi ID`: a context as a new pi session that `pi --session <id>` finds. Any chain is
// read as pi-session-v3 (a pi chain as it is, another runtime's through the neutral model); the
// file is a new `session` header naming the new id and the directory, then every entry re-encoded.
import { randomUUID } from 'node:crypto';
import { BadInputError } from '../../errors/index.js';
import { materialize } from '../../api/read/materialize.js';
import type { RepoContext } from '../../api/repo/repo-context.js';
import type { ExportOptions, Exported } from '../../api/capture/runtime.js';
import { isRecord } from '../../core/neutral.js';
import { parseJsonLines } from '../../formats/jsonl.js';
import { checkSessionUuid, trackExportedFile } from '../session-file.js';
import { PI_FORMAT, sessionBranch } from './names.js';

export async function exportPi(ctx: RepoContext, spec: string, opts: ExportOptions = {}): Promise<Exported> {
  const sessionId = checkSessionUuid(opts.sessionId ?? randomUUID());
  const commit = `ctx-${await ctx.resolve(spec)}`;
  const m = await materialize(ctx, spec, { format: PI_FORMAT, stop: opts.stop ?? 'compaction' });
  const lines = parseJsonLines(m.bytes).map((l) => l.value);
  const header = lines.find((l) => isRecord(l) && l.type === 'session') as Record<string, unknown> | undefined;
  const entries = lines.filter((l) => !(isRecord(l) && l.type === 'session'));
  if (!entries.some((e) => isRecord(e) && e.type === 'message')) throw new BadInputError(`${spec}: nothing to export (the context holds no messages)`);
  // a context translated from another runtime names no directory: the session belongs where ctx runs
  const cwd = typeof header?.cwd === 'string' && header.cwd ? header.cwd : (opts.cwd ?? process.cwd());
  const head = { type: 'session', version: 3, id: sessionId, timestamp: ctx.now().toISOString(), cwd };
  const out = [head, ...entries].map((e) => `${JSON.stringify(e)}\n`);
  return { sessionId, commit, cwd, bytes: Buffer.from(out.join(''), 'utf8'), lines: out.length, command: `pi --session ${sessionId}` };
}

/** The exported session's own branch, where its capture continues (session-file.ts). */
export const trackExport = (ctx: RepoContext, e: Exported, path: string): string | undefined => trackExportedFile(ctx, e, path, sessionBranch(e.sessionId));
