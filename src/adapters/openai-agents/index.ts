// agent-ctx/openai-agents: an OpenAI Agents SDK `Session` kept on a ctx branch. Each addItems is a
// delta commit of the items (openai-agents-v1); popItem and clearSession write a compaction commit
// holding what is left, so nothing is rewritten: `ctx log` shows them, `--stop root` still reads
// every item ever added. Only the SDK's types are imported: the adapter loads none of its code.
import { randomUUID } from 'node:crypto';
import type { AgentInputItem, Session } from '@openai/agents';
import type { ContextStore, Written } from '../../index.js';
import { NotFoundError } from '../../errors/index.js';
import { OPENAI_AGENTS_FORMAT, openaiAgents } from '../../formats/openai-agents.js';

export interface CtxSessionOptions {
  /** the store (`openStore('.ctx', { create: true })`) */
  store: ContextStore;
  /** the SDK's session id (default: a new UUID) */
  sessionId?: string;
  /** the branch the items live on (default: `openai-agents/<sessionId>`) */
  branch?: string;
  /** meta.json `principal` of the commits (default: the store's) */
  principal?: string;
}

export { OPENAI_AGENTS_FORMAT };
export const sessionBranch = (sessionId: string) => `openai-agents/${sessionId}`;

export class CtxSession implements Session {
  readonly store: ContextStore;
  readonly sessionId: string;
  readonly branch: string;
  private readonly principal?: string;
  /** the items at a tip this session read or wrote: while the branch stays there, no materialize */
  private known: { tip: string; items: AgentInputItem[] } | null = null;

  constructor(opts: CtxSessionOptions) {
    this.store = opts.store;
    this.sessionId = opts.sessionId ?? randomUUID();
    this.branch = opts.branch ?? sessionBranch(this.sessionId);
    this.principal = opts.principal;
  }

  async getSessionId(): Promise<string> {
    return this.sessionId;
  }

  /** The history since the last clear; the `limit` most recent items, in order. */
  async getItems(limit?: number): Promise<AgentInputItem[]> {
    const { items } = await this.read();
    if (limit === undefined) return items;
    return limit > 0 ? items.slice(-limit) : [];
  }

  /** One delta commit holding the items, on top of whatever the branch holds now. */
  async addItems(items: AgentInputItem[]): Promise<void> {
    if (items.length === 0) return;
    await this.write(items, { retry: true });
  }

  /** The last item, gone from the history by a compaction commit of the others (the branch's tip must not move meanwhile). */
  async popItem(): Promise<AgentInputItem | undefined> {
    const { items, tip } = await this.read();
    if (items.length === 0) return undefined;
    const last = items[items.length - 1];
    await this.write(items.slice(0, -1), { type: 'compaction', parent: tip!, summary: `popped 1 item (${itemKind(last)}), ${items.length - 1} left` });
    return last;
  }

  /** An empty compaction commit: the history reads empty from here on, the commits before it stay. */
  async clearSession(): Promise<void> {
    const { items, tip } = await this.read();
    if (tip === null) return;
    await this.write([], { type: 'compaction', parent: tip, summary: `cleared ${items.length} items` });
  }

  /** A new branch at this session's tip and the session on it (`ctx fork` does the same from the shell). */
  async fork(sessionId: string = randomUUID(), branch: string = sessionBranch(sessionId)): Promise<CtxSession> {
    await this.store.fork(this.branch, branch);
    return new CtxSession({ store: this.store, sessionId, branch, principal: this.principal });
  }

  /** The items (a copy the caller may change) and the tip they are read at. */
  private async read(): Promise<{ items: AgentInputItem[]; tip: string | null }> {
    let tip: string;
    try {
      tip = await this.store.resolve(this.branch);
    } catch (e) {
      if (e instanceof NotFoundError) return { items: [], tip: null };
      throw e;
    }
    if (this.known?.tip !== tip) {
      const m = await this.store.materialize(tip, { format: OPENAI_AGENTS_FORMAT });
      this.known = { tip, items: openaiAgents.parse(m.bytes) as AgentInputItem[] };
    }
    return { items: structuredClone(this.known.items), tip };
  }

  private async write(items: readonly AgentInputItem[], fields: { type?: 'compaction'; parent?: string; retry?: boolean; summary?: string }): Promise<Written> {
    const before = this.known;
    const w = await this.store.checkpoint({
      ...fields,
      branch: this.branch,
      format: OPENAI_AGENTS_FORMAT,
      artifact: openaiAgents.encode!(items),
      session: this.sessionId,
      template: 'openai-agents',
      trigger: fields.type === 'compaction' ? 'explicit' : 'turn_boundary',
      ...(this.principal ? { principal: this.principal } : {}),
    });
    const after = fields.type === 'compaction' ? [] : before?.tip === w.parent ? before.items : null;
    this.known = after === null ? null : { tip: w.id, items: [...after, ...structuredClone(items)] };
    return w;
  }
}

const itemKind = (it: AgentInputItem) => ('type' in it && it.type ? it.type : 'message');
