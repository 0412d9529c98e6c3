import { readTranscript } from '../api/read/files.js';
import { checkpoint } from '../api/write/write.js';
import { shortId } from '../core/ids.js';
import { writtenJson } from '../output/records.js';
import { storageNames } from '../formats/registry.js';
import { defineCommand } from './command.js';
import { readStdin } from './stdin.js';
import { METADATA_OPTIONS, metadataFields, type MetadataFlags } from './metadata-flags.js';

export interface CheckpointFlags extends MetadataFlags {
  branch: string;
  format: string;
  type?: string;
  parent?: string;
  retry?: boolean;
}

export default defineCommand({
  name: 'checkpoint',
  summary: 'add a context commit to a branch; prints its id',
  args: [{ name: 'file', description: 'artifact bytes, or - for stdin (default)', values: 'file' }],
  options: [
    { flags: '-b, --branch <name>', description: 'branch to extend (created when new)', required: true, values: 'branch' },
    {
      flags: '--format <format>',
      description: `artifact format: ${storageNames().join(', ')}`,
      required: true,
      values: 'storage-format',
    },
    { flags: '--type <type>', description: 'commit type', choices: ['delta', 'compaction', 'snapshot'], default: 'delta' },
    { flags: '--parent <id>', description: 'the commit this follows; the branch must still point there', values: 'branch' },
    { flags: '--retry', description: 'when the branch moved, re-read its tip and try again' },
    ...METADATA_OPTIONS,
  ],
  examples: [
    `printf '%s\\n' '{"type":"user","message":{"role":"user","content":"go on"}}' | ctx checkpoint -b review/finding-1 --format claude-code-v1 -`,
    'ctx checkpoint -b agent/run-42 --format openai-chat-v1 --summary "task received" messages.json',
    'ctx checkpoint -b agent/run-42 --format claude-code-v1 --retry --json turn.jsonl',
  ],
  async run(io, [file]: [string | undefined], flags: CheckpointFlags) {
    const artifact = file === undefined || file === '-' ? await readStdin() : readTranscript(file);
    const written = await io.withRepo(true, (repo) =>
      checkpoint(repo, { ...metadataFields(flags), type: flags.type as never, branch: flags.branch, format: flags.format, artifact, parent: flags.parent, retry: flags.retry }),
    );
    for (const w of written.warnings ?? []) io.note(w);
    return written;
  },
  print(io, written, flags) {
    if (io.flags.json) return io.json(writtenJson(written, flags.branch));
    io.out(`${shortId(written.oid)}\n`);
  },
});
