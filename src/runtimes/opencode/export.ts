// `ctx export opencode ID`: a context as a session file `opencode import FILE` loads, then
// `opencode run -s <id>` resumes. Any chain is read as opencode-session-v1 (an opencode chain
// natively, any other through the neutral model). opencode keys messages and parts by id across all
// sessions, so the export gives the session, its messages and its parts ids of their own, in the
// order they had (opencode orders by id), and puts the session in the directory it is resumed in.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { BadInputError, UsageError } from '../../errors/index.js';
import { materialize } from '../../api/read/materialize.js';
import type { RepoContext } from '../../api/repo/repo-context.js';
import type { ExportOptions, Exported } from '../../api/capture/runtime.js';
import { ascendingId, encodeSession, parseSession, type Json, type OpencodeSession } from '../../formats/opencode-session.js';
import { refs } from '../../store/refs.js';
import { shellQuote } from '../../core/shell.js';
import { OPENCODE_FORMAT, sessionBranch } from './names.js';
import { configDir, exportPath } from './paths.js';

const tail = (seed: string) => createHash('sha256').update(seed).digest('base64').replace(/[^A-Za-z0-9]/g, '');

/** A new session id as opencode makes them: newer sessions sort first. */
export function newSessionId(now: number, seed: string): string {
  return ascendingId('ses', 0xffffffffffff - now * 0x1000, tail(seed));
}

export async function exportOpencode(ctx: RepoContext, spec: string, opts: ExportOptions = {}): Promise<Exported> {
  const commit = `ctx-${await ctx.resolve(spec)}`;
  const now = ctx.now().getTime();
  const sessionId = opts.sessionId ?? newSessionId(now, `${commit}:${now}`);
  if (!/^ses_[A-Za-z0-9]{1,64}$/.test(sessionId)) throw new UsageError(`--session-id must be an opencode session id (ses_ and letters or digits): ${sessionId}`);
  const m = await materialize(ctx, spec, { format: OPENCODE_FORMAT, stop: opts.stop ?? 'compaction' });
  const doc = parseSession(m.bytes);
  if (doc.messages.length === 0) throw new BadInputError(`${spec}: nothing to export (the context is empty)`);
  const cwd = resolve(opts.cwd ?? (typeof doc.info.directory === 'string' ? doc.info.directory : process.cwd()));
  const out = renumber(doc, sessionId, cwd, now, modelOf(doc, opts.env ?? process.env));
  const bytes = encodeSession(out);
  // `--stdout` writes no file: the command then names the one `--dir` or the default would be
  const file = exportPath({ sessionId }, opts);
  return { sessionId, commit, cwd, bytes, lines: out.messages.length, command: `opencode import ${shellQuote(file)} && opencode run -s ${sessionId}` };
}

interface Model {
  providerID: string;
  modelID: string;
}

/**
 * The model a message translated from another runtime names (opencode resumes with the last user
 * message's): the session's own, else the `model` of opencode's config (read as JSON, never run).
 */
function modelOf(doc: OpencodeSession, env: NodeJS.ProcessEnv): Model {
  for (const m of doc.messages) {
    const x = m.info.model as Partial<Model> | undefined;
    if (x && typeof x.providerID === 'string' && typeof x.modelID === 'string') return { providerID: x.providerID, modelID: x.modelID };
  }
  const texts = [env.OPENCODE_CONFIG_CONTENT, ...['opencode.json', 'config.json'].map((f) => readOrNull(join(configDir(env), f)))];
  for (const t of texts) {
    try {
      const model = t ? (JSON.parse(t) as { model?: unknown }).model : undefined;
      if (typeof model === 'string' && model.includes('/')) return { providerID: model.slice(0, model.indexOf('/')), modelID: model.slice(model.indexOf('/') + 1) };
    } catch {}
  }
  return { providerID: 'opencode', modelID: 'default' };
}

function readOrNull(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

/** The session under `sessionId` in `cwd`, every message and part with a new id in the same order. */
function renumber(doc: OpencodeSession, sessionId: string, cwd: string, now: number, model: Model): OpencodeSession {
  const ids = new Map<string, string>();
  let n = 0;
  const base = now * 0x1000;
  const next = (prefix: string) => ascendingId(prefix, base + ++n, tail(`${sessionId}:${n}`));
  const messages = doc.messages.map((m) => {
    const id = next('msg');
    if (typeof m.info.id === 'string') ids.set(m.info.id, id);
    return { info: { ...m.info, id, sessionID: sessionId } as Json, parts: m.parts.map((p) => ({ ...p, id: next('prt'), sessionID: sessionId, messageID: id }) as Json) };
  });
  for (const m of messages) if (typeof m.info.parentID === 'string') m.info.parentID = ids.get(m.info.parentID) ?? m.info.parentID;
  for (const m of messages) {
    if (m.info.role === 'assistant') {
      m.info.path = { cwd, root: cwd };
      m.info.providerID ??= model.providerID;
      m.info.modelID ??= model.modelID;
    } else m.info.model ??= { providerID: model.providerID, modelID: model.modelID };
  }
  const created = messages.map((m) => (m.info.time as { created?: number } | undefined)?.created).find((t) => typeof t === 'number') ?? now;
  const info: Json = {
    ...doc.info,
    id: sessionId,
    slug: typeof doc.info.slug === 'string' ? doc.info.slug : 'ctx-export',
    projectID: 'global',
    directory: cwd,
    title: typeof doc.info.title === 'string' ? doc.info.title : 'ctx export',
    version: typeof doc.info.version === 'string' ? doc.info.version : '1.18.33',
    time: { created, updated: now },
  };
  delete info.path;
  delete info.parentID;
  delete info.share;
  delete info.revert;
  return { info, messages };
}

/** The exported session's own branch, `opencode/<id>`, made at the exported commit: its capture continues there. */
export function trackExport(ctx: RepoContext, e: Exported): string | undefined {
  const branch = sessionBranch(e.sessionId);
  if (ctx.refs.read(refs.branch(branch)) !== null) return undefined;
  ctx.refs.update(refs.branch(branch), e.commit.slice('ctx-'.length), null);
  return branch;
}
