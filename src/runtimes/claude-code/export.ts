// `ctx export claude-code ID`: a context as a new Claude Code session that `claude --resume` accepts.
// Every line is re-encoded (JSON.parse → new sessionId and forkedFrom → JSON.stringify), so the
// bytes differ from the stored ones; the messages do not.
import { randomUUID } from 'node:crypto';
import { BadInputError, UsageError } from '../../errors/index.js';
import { materialize } from '../../api/materialize.js';
import type { RepoContext } from '../../api/repo-context.js';
import type { ExportOptions, Exported } from '../../api/runtime.js';
import { CLAUDE_FORMAT } from './names.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The session's bytes: each line with the new sessionId and a `forkedFrom` naming the old one. */
export async function exportClaudeCode(ctx: RepoContext, spec: string, opts: ExportOptions = {}): Promise<Exported> {
  const sessionId = opts.sessionId ?? randomUUID();
  if (!UUID.test(sessionId)) throw new UsageError(`--session-id must be a UUID (Claude Code accepts no other): ${sessionId}`);
  const commit = `ctx-${await ctx.resolve(spec)}`;
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
  return { sessionId, commit, cwd, bytes: Buffer.from(out.join(''), 'utf8'), lines, command: `claude --resume ${sessionId}` };
}

