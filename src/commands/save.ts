import { save, SAVE_STOPS, type SaveStop } from '../api/sync/saves.js';
import type { SecretPolicy } from '../api/write/secrets.js';
import { sessionJson } from '../output/records.js';
import { defineCommand } from './command.js';
import { SECRETS_OPTION } from './metadata-flags.js';

interface Flags {
  message: string;
  name?: string;
  summary?: string;
  summarizer?: string;
  stop: SaveStop;
  since?: string;
  principal?: string;
  secrets?: SecretPolicy;
}

export default defineCommand({
  name: 'save',
  summary: "name a branch's context to come back to: an annotated tag with description, summary, message count and window",
  description:
    "Save the context at BRANCH's tip as an annotated tag refs/tags/NAME (default save/BRANCH/YYYYMMDD-HHMMSS, UTC). Its message is the description, then a Ctx-Save: trailer of JSON: branch, time, summary, message and token counts, format and window. Nothing on the branch changes. Saves travel with ctx push and ctx fetch; a fetch never replaces a local save of the same name. List them with ctx sessions, bring one back with ctx restore.",
  args: [{ name: 'branch', description: 'the branch to save', required: true, values: 'branch' }],
  options: [
    { flags: '-m, --message <text>', description: 'what this save is (the tag message)', required: true },
    { flags: '--name <name>', description: 'the save name, a tag name (default save/BRANCH/YYYYMMDD-HHMMSS)' },
    { flags: '--summary <text>', description: "the saved context's summary (default: the tip commit's summary)" },
    { flags: '--summarizer <cmd>', description: 'shell command: the saved messages as JSON on stdin, the summary on stdout' },
    { flags: '--stop <stop>', description: 'which context is saved: compaction (default: since the last compaction or clear) or root (all)', choices: SAVE_STOPS, default: 'compaction' },
    { flags: '--since <when>', description: 'a rolling window, as materialize takes it (default: ctx.window.<branch>)' },
    { flags: '--principal <name>', description: 'who saves (default: $CTX_PRINCIPAL or the OS user)' },
    SECRETS_OPTION,
  ],
  examples: ['ctx save ops-bot -m "auth refactor, before the migration"', 'ctx save ops-bot -m "before the migration" --name ops-bot/pre-migration --json', 'ctx save ops-bot -m "the last day" --since 24h'],
  async run(io, [branch]: [string], flags: Flags) {
    const made = await io.withRepo(false, (repo) =>
      save(repo, branch, { description: flags.message, name: flags.name, summary: flags.summary, summarizer: flags.summarizer, stop: flags.stop, since: flags.since, principal: flags.principal, secrets: flags.secrets }),
    );
    for (const w of made.warnings ?? []) io.note(w);
    return made;
  },
  print(io, made) {
    if (io.flags.json) return io.json(sessionJson(made));
    io.note(`saved ${made.message_count ?? '?'} messages of ${made.branch}`);
    io.out(`${made.name}\n`);
  },
});
