import { writeFileSync } from 'node:fs';
import { materialize } from '../api/materialize.js';
import type { Cli } from '../cli/context.js';

export async function run(cli: Cli, id: string, flags: { format?: string; stop?: string; output?: string; verify?: boolean }) {
  const m = await cli.withRepo(false, (repo) => materialize(repo, id, { format: flags.format, stop: flags.stop, verify: flags.verify }));
  if (m.unknown) cli.note(`ctx: this build does not know the stored format '${m.unknown}': wrote every artifact as it is (raw)`);
  else if (m.tier === 'structural' || m.tier === 'rendering') cli.note(`ctx: translated ${m.from.join(', ')} → ${m.format} (${m.tier})`);
  if (flags.output) writeFileSync(flags.output, m.bytes);
  if (cli.flags.json) {
    const record: Record<string, unknown> = { v: 1, format: m.format, tier: m.tier, stop: m.stop, commits: m.commits, bytes: m.bytes.length };
    if (!flags.output) record.content = Buffer.from(m.bytes).toString(m.format === 'bureau-agent-v1' ? 'base64' : 'utf8');
    return cli.json(record);
  }
  if (!flags.output) cli.out(m.bytes);
}
