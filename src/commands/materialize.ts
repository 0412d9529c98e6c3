import { writeFileSync } from 'node:fs';
import { materialize } from '../api/materialize.js';
import type { Cli } from '../cli/context.js';
import type { View } from '../core/views.js';
import { UsageError } from '../errors/index.js';

interface Flags {
  format?: string;
  stop?: string;
  output?: string;
  verify?: boolean;
  view?: string;
  maskToolOutputs?: string;
}

export async function run(cli: Cli, id: string, flags: Flags) {
  const mask = flags.maskToolOutputs === undefined ? undefined : turns(flags.maskToolOutputs);
  const opts = { format: flags.format, stop: flags.stop, verify: flags.verify, view: flags.view as View | undefined, maskToolOutputs: mask };
  const m = await cli.withRepo(false, (repo) => materialize(repo, id, opts));
  if (m.unknown) cli.note(`ctx: this build does not know the stored format '${m.unknown}': wrote every artifact as it is (raw)`);
  else if (m.tier !== 'native' && m.tier !== 'raw' && m.from.some((f) => f !== m.format))
    cli.note(`ctx: translated ${m.from.join(', ')} → ${m.format} (${m.tier})`);
  if (flags.output) writeFileSync(flags.output, m.bytes);
  if (cli.flags.json) {
    const record: Record<string, unknown> = { v: 1, format: m.format, tier: m.tier, stop: m.stop, view: m.view, masked: m.masked, commits: m.commits, bytes: m.bytes.length };
    if (!flags.output) record.content = Buffer.from(m.bytes).toString(m.format === 'bureau-agent-v1' ? 'base64' : 'utf8');
    return cli.json(record);
  }
  if (!flags.output) cli.out(m.bytes);
}

function turns(s: string): number {
  if (!/^\d+$/.test(s)) throw new UsageError(`--mask-tool-outputs takes a number of turns, not '${s}'`);
  return Number(s);
}
