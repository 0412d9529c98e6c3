// `ctx export claude-code ID`: a context as a new Claude Code session that `claude --resume` accepts.
// Every line is re-encoded (JSON.parse → new sessionId and forkedFrom → JSON.stringify), so the
// bytes differ from the stored ones; the messages do not. Any chain exports: another runtime's
// context is translated into Claude Code lines first (claude-code-v1's fromNeutral).
import { randomUUID } from 'node:crypto';
import { BadInputError } from '../../errors/index.js';
import { materialize } from '../../api/read/materialize.js';
import type { RepoContext } from '../../api/repo/repo-context.js';
import type { ExportOptions, Exported } from '../../api/capture/runtime.js';
import { checkSessionUuid, trackExportedFile } from '../session-file.js';
import { CLAUDE_FORMAT, sessionBranch } from './names.js';


/** The session's bytes: each line with the new sessionId and a `forkedFrom` naming the old one. */
export async function exportClaudeCode(ctx: RepoContext, spec: string, opts: ExportOptions = {}): Promise<Exported> {
  const sessionId = checkSessionUuid(opts.sessionId ?? randomUUID(), ' (Claude Code accepts no other)');
  const commit = `ctx-${await ctx.resolve(spec)}`;
  // a compaction that keeps messages from before it comes with them after its summary, as Claude Code's resume sends them
  const m = await materialize(ctx, spec, { format: CLAUDE_FORMAT, stop: opts.stop ?? 'compaction' });
  const text = Buffer.from(m.bytes).toString('utf8');
  const out: string[] = [];
  let cwd: string | null = null;
  let lines = 0;
  for (const line of text.split('\n')) {
    if (line === '') continue;
    let entry: Record<string, unknown>;
    try {
      entry = JSON.parse(line);
    } catch {
      throw new BadInputError(`${commit.slice(0, 16)}: line ${lines + 1} of the context is not JSON`);
    }
    lines++;
    if (entry && typeof entry === 'object' && !Array.isArray(entry)) {
      if (cwd === null && typeof entry.cwd === 'string') cwd = entry.cwd;
      if (typeof entry.sessionId === 'string') {
        // what Claude Code writes on a forked session's lines, plus the context commit it came from
        const forkedFrom: Record<string, unknown> = { sessionId: entry.sessionId };
        if (typeof entry.uuid === 'string') forkedFrom.messageUuid = entry.uuid;
        forkedFrom.commit = commit;
        entry.sessionId = sessionId;
        entry.forkedFrom = forkedFrom;
      }
    }
    out.push(`${JSON.stringify(entry)}\n`);
  }
  if (lines === 0) throw new BadInputError(`${spec}: nothing to export (the context is empty)`);
  // a context translated from another runtime names no directory: the session belongs where ctx runs
  cwd ??= opts.cwd ?? null;
  const session = cwd === null ? out : out.map((l) => (l.includes('"cwd":') ? l : withCwd(l, cwd!)));
  return { sessionId, commit, cwd, bytes: Buffer.from(session.join(''), 'utf8'), lines, command: `claude --resume ${sessionId}` };
}

/** The whole context before `commit`; none when it is a root. */

function withCwd(line: string, cwd: string): string {
  const entry = JSON.parse(line);
  return entry && typeof entry === 'object' && !Array.isArray(entry) && (entry.type === 'user' || entry.type === 'assistant') ? `${JSON.stringify({ ...entry, cwd })}\n` : line;
}

/** The exported session's own branch, where its capture continues (session-file.ts). */
export const trackExport = (ctx: RepoContext, e: Exported, path: string): string | undefined => trackExportedFile(ctx, e, path, sessionBranch(e.sessionId));
