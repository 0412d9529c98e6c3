// What one tool call of a file's history did to the file (the web view's /api/edits): the lines it
// took out and put in, as the runtime whose format the commit is in reads its arguments.
import { readTipMeta } from '../api/read/context-reader.js';
import type { RepoContext } from '../api/repo/repo-context.js';
import { effectsReader } from '../api/search/effects.js';
import { commitMessages } from '../api/search/grep.js';
import { fullId } from '../core/ids.js';
import { UsageError } from '../errors/index.js';
import { editJson } from '../output/records.js';

/** The effects on `path` (as the tool named it, exactly as `ctx files` gives it) of the tool calls in entry `entry` of the commit's own artifact. */
export async function edits(repo: RepoContext, commit: string, entry: number, path: string) {
  const oid = await repo.resolve(commit);
  const messages = (await commitMessages(repo, oid)) ?? [];
  if (entry >= messages.length) throw new UsageError(`entry ${entry} is past the commit's messages (${messages.length})`);
  const { format } = await readTipMeta(repo, oid);
  const effects = await effectsReader();
  return messages[entry].content.flatMap((b) => (b.type === 'tool_call' ? effects(format, b).filter((t) => t.path === path).map((t) => editJson(fullId(oid), entry, b.id, b.name, t)) : []));
}
