import { stateStats } from '../api/state/state.js';
import { statsJson } from '../output/records.js';
import { tsvLine } from '../output/style.js';
import { defineCommand } from './command.js';

export default defineCommand({
  name: 'stats',
  summary: "sizes of a commit's structured state: per namespace, array counts, externalized values, and the limits",
  args: [{ name: 'branch', description: 'commit id, branch, tag or NAME~N', required: true, values: 'branch' }],
  options: [],
  examples: ['ctx stats design-room', 'ctx stats design-room~3 --json'],
  async run(io, [branch]: [string]) {
    return io.withRepo(false, (repo) => stateStats(repo, branch));
  },
  print(io, s) {
    if (io.flags.json) return io.json(statsJson(s));
    let out = tsvLine(['schema', s.schema]) + `total\t${s.total}\t${s.limits.maxTotal}\n`;
    for (const [ns, n] of Object.entries(s.namespaces)) out += tsvLine(['namespace', ns, n, s.limits.maxNamespace]);
    for (const [k, n] of Object.entries(s.arrays)) out += tsvLine(['array', k, n, s.limits.maxArrayItems]);
    out += `externalized\t${s.externalized.count}\t${s.externalized.bytes}\n`;
    io.out(out);
  },
});
