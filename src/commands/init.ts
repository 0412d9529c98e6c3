import { initStore } from '../api/repo/open.js';
import { initJson } from '../output/records.js';
import { defineCommand } from './command.js';

export default defineCommand({
  name: 'init',
  summary: 'create a context repo',
  description: 'Create a bare context repo (as `git init --bare`). Any write creates ./.ctx on first use anyway.',
  args: [{ name: 'path', description: 'where (default: --store, $CTX_STORE, else ./.ctx)', values: 'file' }],
  options: [],
  examples: ['ctx init', 'ctx init team.ctx', 'ctx --store team.ctx init'],
  async run(io, [path]: [string | undefined]) {
    return initStore(path ?? io.flags.store ?? (io.env.CTX_STORE || '.ctx'), io.cwd);
  },
  print(io, r) {
    if (io.flags.json) return io.json(initJson(r.gitdir, r.created));
    if (!r.created) io.note(`ctx: a context store is already there; nothing changed`);
    io.out(`${r.gitdir}\n`);
  },
});
