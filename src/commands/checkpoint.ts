import { readFileSync } from 'node:fs';
import { checkpoint } from '../api/write.js';
import { shortId } from '../core/ids.js';
import { writtenJson } from '../output/records.js';
import { readTranscript } from '../api/catch-up.js';
import type { Cli } from '../cli/context.js';
import { metadataFields, type MetadataFlags } from './metadata-flags.js';

export interface CheckpointFlags extends MetadataFlags {
  branch: string;
  format: string;
  type?: string;
  parent?: string;
  retry?: boolean;
}

export async function run(cli: Cli, file: string | undefined, flags: CheckpointFlags) {
  const artifact = file === undefined || file === '-' ? readFileSync(0) : readTranscript(file);
  const written = await cli.withRepo(true, (repo) =>
    checkpoint(repo, { ...metadataFields(flags), type: flags.type as never, branch: flags.branch, format: flags.format, artifact, parent: flags.parent, retry: flags.retry }),
  );
  for (const w of written.warnings ?? []) cli.note(w);
  if (cli.flags.json) return cli.json(writtenJson(written, flags.branch));
  cli.out(`${shortId(written.oid)}\n`);
}
