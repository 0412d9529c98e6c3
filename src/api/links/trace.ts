// `ctx trace`: Agent Trace records (core/agent-trace.ts) for a code commit. The commit's added lines,
// file by file, each given to the context that wrote it as `ctx blame` gives them (attribute.ts),
// among the contexts contextsOfCode finds for the commit; a conversation is named by its context id
// (`ctx:ctx-<40 hex>`), its session as a related resource, its model from the commit's Assisted-by.
import { AGENT_TRACE_VERSION, TRACE_NAMESPACE, fileConversations, modelId, uuid5, type ConversationInfo, type TraceRecord } from '../../core/agent-trace.js';
import { fullId } from '../../core/ids.js';
import { assistedBy } from '../../core/links.js';
import { readStoredCommits } from '../../store/context-commits.js';
import type { RepoContext } from '../repo/repo-context.js';
import { attributeLines } from './attribute.js';
import { contentIndex } from './content-index.js';
import { contextsOfCode } from './resolve-code.js';

export async function agentTrace(ctx: RepoContext, o: { cwd: string; rev: string; tool: { name: string; version: string } }): Promise<TraceRecord> {
  const code = await contextsOfCode(ctx, o.cwd, o.rev);
  const sha = code.commit.sha;
  const linked = new Map([[sha, code.contexts.filter((c) => c.known !== 'matched').map((c) => c.context)]]);
  const index = await contentIndex(ctx);
  const files: TraceRecord['files'] = [];
  const sessions = new Map<string, string>();
  const attributed = [];
  for (const f of code.added) {
    const lines = await attributeLines(ctx, f.lines.map(([line, text]) => ({ line, text, commit: sha })), linked, f.path, index);
    for (const l of lines) if (l.conversation !== null && l.session !== null && !sessions.has(l.conversation)) sessions.set(l.conversation, l.session);
    attributed.push({ path: f.path, lines });
  }
  const info = await conversationInfo(ctx, sessions, assistedBy(code.commit.message));
  for (const f of attributed) files.push({ path: f.path, conversations: fileConversations(f.lines.map((l) => ({ line: l.line, text: l.text, conversation: l.conversation })), info) });
  return {
    version: AGENT_TRACE_VERSION,
    id: uuid5(TRACE_NAMESPACE, sha),
    timestamp: new Date(code.commit.committer.date).toISOString().replace(/\.000Z$/, 'Z'),
    vcs: { type: 'git', revision: sha },
    tool: o.tool,
    files,
    metadata: { 'agent-ctx': { contexts: code.contexts.map((c) => ({ id: fullId(c.context), known: c.known })) } },
  };
}

/** Each conversation's URL, model and session; the model from the Assisted-by value whose runtime names the context's format (or the only one). */
async function conversationInfo(ctx: RepoContext, sessions: ReadonlyMap<string, string>, assisted: readonly string[]): Promise<Map<string, ConversationInfo>> {
  const ids = [...sessions.keys()];
  const formats = new Map<string, string>();
  const stored = await readStoredCommits(ctx.engine, ids).catch(() => []);
  stored.forEach((s, i) => formats.set(ids[i], s.meta.format));
  const values = assisted.map((v) => {
    const colon = v.indexOf(':');
    return colon < 0 ? { runtime: v, model: '' } : { runtime: v.slice(0, colon), model: v.slice(colon + 1) };
  });
  const out = new Map<string, ConversationInfo>();
  for (const id of ids) {
    const format = formats.get(id) ?? '';
    const model = (values.length === 1 ? values[0] : values.find((v) => v.runtime !== '' && format.startsWith(v.runtime)))?.model;
    const m = modelId(model);
    out.set(id, { url: `ctx:${fullId(id)}`, ...(m ? { model_id: m } : {}), related: [{ type: 'session', url: `ctx:session/${encodeURIComponent(sessions.get(id)!)}` }] });
  }
  return out;
}
