// `news` and `news_seen`: what is new on a branch since this agent last looked (seed 003's
// per-agent views), by its cursor; and moving the cursor. The agent is the server's (--agent,
// $CTX_AGENT), never a tool argument: one agent cannot read or move another's place.
import { z } from 'zod';
import { cursorOf } from '../../api/read/cursors.js';
import { commitRecords } from '../../api/read/read.js';
import { setCursor } from '../../api/write/branch-ops.js';
import { fullId } from '../../core/ids.js';
import { UsageError } from '../../errors/index.js';
import { cursorJson, logJson } from '../../output/records.js';
import { defineTool, type ToolContext } from './tool.js';
import { limit, SPEC } from './shared.js';

const BRANCH = z.string().min(1).max(255).describe('the branch');

/** The server's agent, or the error saying how to give one. */
export function serverAgent(t: ToolContext, tool: string): string {
  if (!t.agent) throw new UsageError(`${tool} needs the agent this server is: start ctx mcp with --agent NAME (or CTX_AGENT)`);
  return t.agent;
}

export const news = defineTool({
  name: 'news',
  title: "What's new on a branch",
  description:
    "The commits on a branch since this agent's cursor (where it last looked), newest first, and the cursor itself; without a cursor, the whole chain. The agent is the server's (--agent / CTX_AGENT). Move the cursor with news_seen (a write).",
  input: { branch: BRANCH, limit: limit(20) },
  async run(t, a) {
    const agent = serverAgent(t, 'news');
    return t.withRepo(async (repo) => {
      const cursor = await cursorOf(repo, a.branch, agent);
      const chain = await repo.firstParents(await repo.resolve(a.branch));
      const seen = cursor.id === null ? -1 : chain.indexOf(cursor.id.slice(4));
      const fresh = seen < 0 ? chain : chain.slice(0, seen);
      const commits = (await commitRecords(repo, fresh.slice(0, a.limit))).map(logJson);
      const data = { branch: cursor.branch, agent, cursor: cursor.id, cursor_at: cursor.at, tip: fullId(chain[0]), new: fresh.length, commits, truncated: fresh.length > a.limit };
      const head = cursor.id === null ? `${agent} has no cursor on ${cursor.branch}: ${fresh.length} commits` : `${fresh.length} new on ${cursor.branch} since ${cursor.id} (${agent}, ${cursor.at})`;
      return { data, text: [head, ...commits.map((c) => `${c.id} ${c.type} ${c.created_at} ${c.summary}`)].join('\n') };
    });
  },
});

export const newsSeen = defineTool({
  name: 'news_seen',
  title: 'Mark a branch seen',
  write: true,
  description: "Moves this agent's cursor on a branch to a commit of its chain (default: its tip): the next news starts after it. An annotation on refs/notes/ctx, so it syncs.",
  input: { branch: BRANCH, id: SPEC.optional().describe("a commit on the branch's first-parent chain (default: the tip)") },
  async run(t, a) {
    const agent = serverAgent(t, 'news_seen');
    const c = cursorJson(await t.withRepo((repo) => setCursor(repo, a.branch, agent, a.id)));
    return { data: c, text: `${c.agent} has seen ${c.branch} up to ${c.id}` };
  },
});
