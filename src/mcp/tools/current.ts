// `current`: the calling session's context id (seed 000, Context Capture on Tickets): the tip of the
// branch holding the session of the runtime that started this server.
import { z } from 'zod';
import { currentOf } from '../../api/capture/resolve.js';
import { UsageError } from '../../errors/index.js';
import { currentJson } from '../../output/records.js';
import { defineTool } from './tool.js';

export const current = defineTool({
  name: 'current',
  title: 'Current context id',
  description:
    "This session's current context id (ctx-<40 hex>: the tip of its branch), e.g. to put on a ticket as context_id. The session is the one the runtime that started the server runs (Claude Code's CLAUDE_CODE_SESSION_ID, …), or the server's --session / CTX_SESSION.",
  input: {},
  async run(t) {
    const session = await t.session();
    if (!session) throw new UsageError('no calling session: start ctx mcp from a runtime session, or with --session ID (or CTX_SESSION)');
    const tip = currentJson(await t.withRepo((repo) => currentOf(repo, session)));
    return { data: { ...tip, session }, text: tip.id };
  },
});
