import { diffState } from '../api/state/state.js';
import { stateDiffJson } from '../output/records.js';
import { visible } from '../output/style.js';
import { defineCommand } from './command.js';

export default defineCommand({
  name: 'diff',
  summary: 'what changed in the structured state between two commits, per namespace: keys added, removed, changed',
  description: 'One line per key: + added, - removed, ~ changed, as NAMESPACE.KEY (.policy.AGENT for the policy). Nothing printed when the states are equal.',
  args: [
    { name: 'from', description: 'commit id, branch, tag or NAME~N', required: true, values: 'branch' },
    { name: 'to', description: 'the same', required: true, values: 'branch' },
  ],
  options: [],
  examples: ['ctx diff design-room~5 design-room', 'ctx diff design-room~1 design-room --json'],
  async run(io, [from, to]: [string, string]) {
    return io.withRepo(false, (repo) => diffState(repo, from, to));
  },
  print(io, d) {
    if (io.flags.json) return io.json(stateDiffJson(d));
    let out = '';
    for (const [ns, k] of Object.entries(d.namespaces)) {
      for (const key of k.added) out += `${io.chalk.green('+')} ${visible(`${ns}.${key}`)}\n`;
      for (const key of k.removed) out += `${io.chalk.red('-')} ${visible(`${ns}.${key}`)}\n`;
      for (const key of k.changed) out += `${io.chalk.yellow('~')} ${visible(`${ns}.${key}`)}\n`;
    }
    io.out(out);
  },
});
