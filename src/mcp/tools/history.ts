// `log` and `show`: a chain's history toward the root, and one commit's metadata (ctx log, ctx show).
import { z } from 'zod';
import { log, show as showCommit } from '../../api/read/read.js';
import { commitJson, logJson } from '../../output/records.js';
import { defineTool } from './tool.js';
import { limit, SINCE, SPEC } from './shared.js';

export const logTool = defineTool({
  name: 'log',
  title: 'History',
  description:
    "A branch's (or commit's) history toward the root, newest first (ctx log): id, parent, type, format, created_at, message and token counts, summary, branches at it, the code commits it led to. Without id: every branch's commits.",
  input: {
    id: SPEC.optional().describe('a branch or commit (ctx-<hex>, branch~N, a tag); default: every branch'),
    since: SINCE,
    thread: z.string().min(1).max(255).optional().describe('only the commits of this thread (meta.json thread_id)'),
    limit: limit(20),
  },
  async run(t, a) {
    const records = await t.withRepo((repo) => log(repo, a.id, { limit: a.limit + 1, all: a.id === undefined, since: a.since, thread: a.thread, skipBroken: true }));
    const commits = records.slice(0, a.limit).map(logJson);
    const truncated = records.length > a.limit;
    const text = commits.map((c) => `${c.id} ${c.type} ${c.created_at} ${c.message_count} msgs ${c.token_count} tokens${c.branches.length ? ` (${c.branches.join(', ')})` : ''} ${c.summary}`);
    return { data: { commits, truncated }, text: text.join('\n') + (truncated ? '\n… more: raise limit' : '') || 'no commit' };
  },
});

export const show = defineTool({
  name: 'show',
  title: 'Commit',
  description: "All metadata of one commit (ctx show): its meta.json (session, principal, format, counts, created_at), summary, annotations and the code commits it led to.",
  input: { id: SPEC.describe('a commit or branch (its tip)') },
  async run(t, a) {
    const r = commitJson(await t.withRepo((repo) => showCommit(repo, a.id)));
    return { data: r, text: JSON.stringify(r, null, 2) };
  },
});
