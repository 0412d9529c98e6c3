// `ctx export gemini-cli ID`: a context as a new Gemini CLI session that `gemini --resume <id>` finds.
// Any chain is read as gemini-cli-jsonl-v1 (a Gemini chain natively, any other through the neutral
// model), the session it leaves is written whole: a metadata record naming the new session and the
// project, then each message record once, as Gemini CLI writes a session it rewrites.
import { createHash, randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { BadInputError } from '../../errors/index.js';
import { materialize } from '../../api/read/materialize.js';
import type { RepoContext } from '../../api/repo/repo-context.js';
import type { ExportOptions, Exported } from '../../api/capture/runtime.js';
import { checkSessionUuid } from '../session-file.js';
import { parseObjectLines } from '../../formats/jsonl.js';
import { replaySession } from '../../formats/gemini-jsonl.js';
import { GEMINI_JSONL_FORMAT } from './names.js';


export async function exportGemini(ctx: RepoContext, spec: string, opts: ExportOptions = {}): Promise<Exported> {
  const sessionId = checkSessionUuid(opts.sessionId ?? randomUUID());
  const commit = `ctx-${await ctx.resolve(spec)}`;
  const m = await materialize(ctx, spec, { format: GEMINI_JSONL_FORMAT, stop: opts.stop ?? 'compaction' });
  const { metadata, messages } = replaySession(parseObjectLines(m.bytes, { lastOfFile: true }));
  if (messages.length === 0) throw new BadInputError(`${spec}: nothing to export (the context is empty)`);
  // the session belongs to the directory `gemini --resume` runs in: its project hash is that path's SHA-256
  const cwd = process.cwd();
  const now = ctx.now().toISOString();
  const head = {
    sessionId,
    projectHash: createHash('sha256').update(resolve(cwd)).digest('hex'),
    startTime: now,
    lastUpdated: now,
    ...(typeof metadata.summary === 'string' ? { summary: metadata.summary } : {}),
    kind: 'main',
  };
  const lines = [head, ...messages].map((r) => `${JSON.stringify(r)}\n`);
  return { sessionId, commit, cwd, bytes: Buffer.from(lines.join(''), 'utf8'), lines: lines.length, command: `gemini --resume ${sessionId}` };
}
