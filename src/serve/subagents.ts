// The subagent runs a context's agent calls started, when the runtime's capture keeps each on a
// branch of its own (Claude Code's subagent transcripts): found from the store alone, without a
// runtime's names. A branch that leaves this context at one of its commits (where the subagent was
// spawned) and whose first message is an agent call's prompt is that call's run.
import type { ContextPart } from '../api/read/context-reader.js';
import { branchesLeaving } from '../api/read/leaving.js';
import type { RepoContext } from '../api/repo/repo-context.js';
import { commitsMessages } from '../api/search/scan.js';
import type { NeutralMessage } from '../core/neutral.js';
import { fullId } from '../core/ids.js';
import type { SubagentRun } from '../output/records.js';
import type { ViewedCall, ViewedMessage } from './marks.js';

/** A message's text, as a prompt compares. */
const textOf = (m: NeutralMessage) =>
  m.content
    .flatMap((b) => (b.type === 'text' ? [b.text] : []))
    .join('\n')
    .trim();

/** Sets `run` on each agent call of `messages` whose subagent's branch is found (calls with a view are the reader's own copies). */
export async function attachSubagentRuns(repo: RepoContext, parts: readonly ContextPart[], messages: readonly ViewedMessage[]): Promise<void> {
  const calls = messages.flatMap((m) => m.content.filter((b): b is ViewedCall => b.type === 'tool_call' && (b as ViewedCall).view?.kind === 'agent'));
  if (calls.length === 0) return;
  const leaving = await branchesLeaving(repo, new Set(parts.map((p) => p.oid)));
  if (leaving.length === 0) return;
  const firsts = await commitsMessages(repo, leaving.map((l) => l.first));
  const byPrompt = new Map<string, SubagentRun>();
  leaving.forEach((l, i) => {
    const opening = firsts[i]?.find((m) => m.role === 'user');
    const prompt = opening && textOf(opening);
    if (prompt && !byPrompt.has(prompt)) byPrompt.set(prompt, { id: fullId(l.tip), stop: fullId(l.first), branch: l.branch });
  });
  for (const call of calls) {
    const view = call.view as { prompt: string };
    const run = byPrompt.get(view.prompt.trim());
    if (run) (call.run = run), byPrompt.delete(view.prompt.trim());
  }
}
