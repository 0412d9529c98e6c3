import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { migrateState } from '../api/state/state.js';
import { shortId } from '../core/ids.js';
import { registerStateSchema, type Migration } from '../core/state/schema.js';
import { BadInputError, UsageError } from '../errors/index.js';
import { stateWriteJson } from '../output/records.js';
import { defineCommand } from './command.js';
import { adminOf } from './state.js';

/** An ES module whose default export is `{ schema, migrate }` or a list of them: each registered. */
async function loadMigrations(file: string): Promise<void> {
  let mod: { default?: unknown };
  try {
    mod = (await import(pathToFileURL(resolve(file)).href)) as { default?: unknown };
  } catch (e) {
    throw new BadInputError(`${file}: not a module ctx can load (${(e as Error).message.split('\n')[0]})`);
  }
  const list = Array.isArray(mod.default) ? mod.default : [mod.default];
  for (const m of list as { schema?: unknown; migrate?: Migration }[]) {
    if (!m || typeof m !== 'object' || typeof m.migrate !== 'function') throw new BadInputError(`${file}: its default export must be { schema, migrate } or a list of them`);
    registerStateSchema(m.schema, m.migrate);
  }
}

export default defineCommand({
  name: 'migrate',
  summary: "move a branch's structured state to a later schema version, as one new commit (old commits untouched)",
  description:
    'Applies the migrations from the state\'s version to --to, one version at a time, checks the result against the new schema, and writes it as a state commit by an agent with *, named with --as (or $CTX_AGENT; required). ' +
    'Migrations are functions: --with FILE loads an ES module whose default export is { schema, migrate } (or a list), schema a JSON Schema whose $id is NAME-vN and migrate(state) the state of version N-1 made into version N.',
  args: [{ name: 'branch', description: 'the branch', required: true, values: 'branch' }],
  options: [
    { flags: '--to <version>', description: 'the schema version to reach', required: true },
    { flags: '--with <file>', description: 'an ES module of migrations to load first', values: 'file' },
    { flags: '--as <agent>', description: 'the agent migrating, one with * (required, or $CTX_AGENT)' },
  ],
  examples: ['ctx migrate design-room --to 2 --with ./reasoning-v2.mjs --as orchestrator', 'ctx migrate design-room --to 2 --with ./reasoning-v2.mjs --as orchestrator --json'],
  async run(io, [branch]: [string], flags: { to: string; with?: string; as?: string }) {
    if (!/^\d+$/.test(flags.to)) throw new UsageError(`--to takes a version number, not '${flags.to}'`);
    if (flags.with) await loadMigrations(flags.with);
    const agent = adminOf(io, flags.as, 'migrates the state');
    return io.withRepo(false, (repo) => migrateState(repo, branch, Number(flags.to), agent));
  },
  print(io, w) {
    if (io.flags.json) return io.json(stateWriteJson(w));
    if (w.commit) io.out(`${shortId(w.commit.oid)}\n`);
  },
});
