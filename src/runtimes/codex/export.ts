// `ctx export codex ID`: a context as a new Codex thread that `codex resume` accepts. A Codex chain
// keeps its lines, re-encoded with the new thread id (session_meta, and events that name the
// thread); any other chain is translated through the neutral model (codex-rollout-v1's writer).
// The thread keeps its model provider: Codex resumes a thread only under the provider it was started with.
import { randomBytes } from 'node:crypto';
import { BadInputError } from '../../errors/index.js';
import { materialize } from '../../api/read/materialize.js';
import type { RepoContext } from '../../api/repo/repo-context.js';
import type { ExportOptions, Exported } from '../../api/capture/runtime.js';
import { isRecord } from '../../core/neutral.js';
import { parseJsonLines } from '../../formats/jsonl.js';
import { CODEX_FORMAT } from './import.js';
import { checkSessionUuid } from '../session-file.js';
import { configuredProvider, uuidv7 } from './paths.js';

export async function exportCodex(ctx: RepoContext, spec: string, opts: ExportOptions = {}): Promise<Exported> {
  const sessionId = checkSessionUuid(opts.sessionId ?? uuidv7(ctx.now().getTime(), randomBytes(16)), ' (Codex accepts no other)');
  const commit = `ctx-${await ctx.resolve(spec)}`;
  const stop = opts.stop ?? 'compaction';
  const m = await materialize(ctx, spec, { format: CODEX_FORMAT, stop });
  let lines = parseJsonLines(m.bytes).map((l) => l.value);
  if (lines.length === 0) throw new BadInputError(`${spec}: nothing to export (the context is empty)`);
  // a context that starts at a compaction: the thread's session_meta is the root's; one ctx wrote
  // (ctx compact, ctx clear) takes the thread's provider and directory from the root's
  let first = lines.find(isSessionMeta) as SessionMeta | undefined;
  if (!first || !given(first.payload.model_provider) || !given(first.payload.cwd)) {
    const root = await materialize(ctx, spec, { format: CODEX_FORMAT, stop: 'root' });
    const meta = parseJsonLines(root.bytes).find((l) => isSessionMeta(l.value))?.value as SessionMeta | undefined;
    if (meta && !first) lines = [(first = meta), ...lines];
    else if (meta && first) for (const k of ['model_provider', 'cwd']) if (!given(first.payload[k]) && given(meta.payload[k])) first.payload[k] = meta.payload[k];
  }
  const oldId = first?.payload.id;
  const provider = typeof first?.payload.model_provider === 'string' && first.payload.model_provider ? first.payload.model_provider : configuredProvider(opts.env);
  let cwd = typeof first?.payload.cwd === 'string' && first.payload.cwd ? first.payload.cwd : null;
  const out = lines.map((line) => {
    if (!isRecord(line) || !isRecord(line.payload)) return line;
    const p = line.payload;
    if (line.type === 'session_meta') {
      p.id = sessionId;
      if ('session_id' in p) p.session_id = sessionId;
      p.model_provider = typeof p.model_provider === 'string' && p.model_provider ? p.model_provider : provider;
      if (!p.cwd) p.cwd = cwd ??= process.cwd();
    } else if (oldId) for (const k of ['thread_id', 'session_id']) if (p[k] === oldId) p[k] = sessionId;
    return line;
  });
  const bytes = Buffer.from(out.map((l) => `${JSON.stringify(l)}\n`).join(''), 'utf8');
  return { sessionId, commit, cwd, bytes, lines: out.length, command: `codex resume ${sessionId}` };
}

type SessionMeta = { payload: Record<string, unknown> };
const isSessionMeta = (v: unknown) => isRecord(v) && v.type === 'session_meta' && isRecord(v.payload);
const given = (v: unknown) => typeof v === 'string' && v !== '';
