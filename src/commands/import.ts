import { shortId } from '../core/ids.js';
import { progress } from '../output/progress.js';
import { importSession } from '../api/sessions.js';
import type { Cli } from '../cli/context.js';
import { metadataFields, type MetadataFlags } from './metadata-flags.js';

export async function run(cli: Cli, runtime: string, file: string, flags: MetadataFlags & { branch?: string }) {
  const bar = await progress(`importing ${file}`);
  try {
    const result = await cli.withRepo(true, (repo) =>
      importSession(repo, runtime, file, { branch: flags.branch, fields: metadataFields(flags), onProgress: (n, total) => bar.update(`checking ${n}/${total} commits`) }),
    );
    bar.done();
    for (const w of result.commits.flatMap((c) => c.warnings ?? [])) cli.note(w);
    const tip = result.commits.length ? result.commits[result.commits.length - 1].oid : result.tip!;
    if (result.unchanged) cli.note(`${result.branch} already holds this chat: nothing written`);
    if (cli.flags.json) return cli.json({ v: 1, branch: result.branch, session: result.session, commits: result.commits.length, bytes: result.bytes, id: `ctx-${tip}` });
    cli.out(`${result.branch}\t${shortId(tip)}\t${result.commits.length} commits\n`);
  } catch (e) {
    bar.done();
    throw e;
  }
}
