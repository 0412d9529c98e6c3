import { annotate } from '../api/write/branch-ops.js';
import { shortId } from '../core/ids.js';
import { UsageError } from '../errors/index.js';
import { annotationJson } from '../output/records.js';
import { defineCommand } from './command.js';
import { ANNOTATOR_OPTION, SECRETS_OPTION } from './metadata-flags.js';

interface Flags {
  summary?: string;
  label?: string[];
  pin?: boolean;
  unpin?: boolean;
  principal?: string;
  secrets?: 'redact' | 'block' | 'warn';
}

export default defineCommand({
  name: 'annotate',
  summary: 'add mutable metadata to a commit (notes on refs/notes/ctx)',
  args: [{ name: 'id', description: 'commit to annotate', required: true, values: 'branch' }],
  options: [
    { flags: '--summary <text>', description: 'new summary' },
    { flags: '--label <label...>', description: 'labels' },
    { flags: '--pin', description: 'pin the commit: compaction keeps its entries' },
    { flags: '--unpin', description: 'remove a pin' },
    ANNOTATOR_OPTION,
    SECRETS_OPTION,
  ],
  examples: ['ctx annotate alice/auth-fix~1 --summary "found the token refresh race"', 'ctx annotate alice/auth-fix~3 --pin', 'ctx annotate alice/auth-fix --label reviewed security --json'],
  async run(io, [id]: [string], flags: Flags) {
    if (flags.pin && flags.unpin) throw new UsageError('give --pin or --unpin, not both');
    const pinned = flags.pin ? true : flags.unpin ? false : undefined;
    return io.withRepo(false, (repo) => annotate(repo, id, { summary: flags.summary, labels: flags.label, pinned, principal: flags.principal, secrets: flags.secrets }));
  },
  print(io, done) {
    for (const w of done.warnings ?? []) io.note(w);
    if (io.flags.json) return io.json(annotationJson(done.record, done.oid));
    io.out(`${shortId(done.oid)}\n`);
  },
});
