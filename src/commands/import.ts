import { UsageError } from '../errors/index.js';
import { shortId } from '../core/ids.js';
import { importClaudeCode } from '../runtimes/claude-code/import.js';
import { progress } from '../output/progress.js';
import type { Cli } from '../cli/context.js';
import { metadataFields, type MetadataFlags } from './metadata-flags.js';

const RUNTIMES = ['claude-code'];

export async function run(cli: Cli, runtime: string, file: string, flags: MetadataFlags & { branch?: string }) {
  if (!RUNTIMES.includes(runtime)) throw new UsageError(`unknown runtime '${runtime}' (${RUNTIMES.join(', ')})`);
  const bar = await progress(`importing ${file}`);
  try {
    const result = await cli.withRepo(true, (repo) =>
      importClaudeCode(repo, file, { branch: flags.branch, fields: metadataFields(flags), onProgress: (n, total) => bar.update(`checking ${n}/${total} commits`) }),
    );
    bar.done();
    const tip = result.commits[result.commits.length - 1];
    if (cli.flags.json) return cli.json({ v: 1, branch: result.branch, session: result.session, commits: result.commits.length, bytes: result.bytes, id: `ctx-${tip.oid}` });
    cli.out(`${result.branch}\t${shortId(tip.oid)}\t${result.commits.length} commits\n`);
  } catch (e) {
    bar.done();
    throw e;
  }
}
