import { cursorOf } from '../api/read/cursors.js';
import { setCursor } from '../api/write/branch-ops.js';
import { shortId } from '../core/ids.js';
import { UsageError } from '../errors/index.js';
import { cursorJson } from '../output/records.js';
import { defineCommand } from './command.js';
import { ANNOTATOR_OPTION } from './metadata-flags.js';
import { unknownName } from '../core/nearest.js';

export default defineCommand({
  name: 'cursor',
  summary: "how far an agent has seen a branch: set it, or show it (an annotation: it syncs)",
  description:
    "set: AGENT has now seen BRANCH up to ID (default: its tip), recorded as an annotation on that commit, so it travels with push and fetch. show: the commit AGENT's cursor is on (nothing printed, exit 0, when it has none). materialize --for AGENT puts what came after it in one \"While you were away:\" message.",
  args: [
    { name: 'action', description: 'set or show', required: true, values: ['set', 'show'] },
    { name: 'branch', description: 'the conversation', required: true, values: 'branch' },
    { name: 'agent', description: 'the agent', required: true },
    { name: 'id', description: 'set: the commit seen last (default: the tip)', values: 'branch' },
  ],
  options: [ANNOTATOR_OPTION],
  examples: ['ctx cursor set design-room coder', 'ctx cursor set design-room coder design-room~2', 'ctx cursor show design-room coder --json'],
  async run(io, [action, branch, agent, id]: [string, string, string, string | undefined], flags: { principal?: string }) {
    if (action === 'set') return io.withRepo(false, (repo) => setCursor(repo, branch, agent, id, flags.principal));
    if (action !== 'show') throw new UsageError(unknownName('action', action, ['set', 'show'], `unknown action '${action}': set or show`, { closed: true }));
    if (id !== undefined) throw new UsageError('cursor show takes no id');
    return io.withRepo(false, (repo) => cursorOf(repo, branch, agent));
  },
  print(io, c) {
    if (io.flags.json) return io.json(cursorJson(c));
    if (c.id !== null) io.out(`${shortId(c.id.slice(4))}\n`);
  },
});
