import { clear } from '../api/write/compact.js';
import { shortId } from '../core/ids.js';
import { clearJson } from '../output/records.js';
import { defineCommand } from './command.js';
import { METADATA_OPTIONS, metadataFields, type MetadataFlags } from './metadata-flags.js';

export default defineCommand({
  name: 'clear',
  summary: 'add an empty compaction: the default materialization starts after it, --stop root still reads everything',
  description:
    "Add a clear to BRANCH: a compaction commit that keeps nothing. `ctx materialize BRANCH` then gives an empty context (the format's empty compaction) followed by what is checkpointed after it; `--stop root` passes over the clear and still reads every commit; nothing is deleted. The branch's live transcript, if any, is caught up first, as `ctx compact` does.",
  args: [{ name: 'branch', description: 'the branch to clear', required: true, values: 'branch' }],
  options: [
    { flags: '--transcript <file>', description: 'the Claude Code transcript the branch captures: bytes past the chain are checkpointed first', values: 'file' },
    ...METADATA_OPTIONS.filter((o) => !o.flags.startsWith('--trigger')),
  ],
  examples: ['ctx clear ops-bot', 'ctx clear ops-bot --summary "new task: the migration" --json'],
  async run(io, [branch]: [string], flags: Omit<MetadataFlags, 'trigger'> & { transcript?: string }) {
    const done = await io.withRepo(false, (repo) => clear(repo, branch, { fields: metadataFields(flags), transcript: flags.transcript, note: (line) => io.note(line) }));
    for (const w of done.commit.warnings ?? []) io.note(w);
    return { branch, done };
  },
  print(io, { branch, done }) {
    if (io.flags.json) return io.json(clearJson(done, branch));
    io.note(`cleared ${done.messagesBefore} messages (${done.tokensBefore} tokens); ctx materialize --stop root still reads them`);
    io.out(`${shortId(done.commit.oid)}\n`);
  },
});
