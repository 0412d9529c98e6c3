import { closeSync, openSync, writeFileSync, writeSync } from 'node:fs';
import { defaultSince, materialize } from '../api/read/materialize.js';
import type { View } from '../core/views.js';
import { UsageError } from '../errors/index.js';
import { materializedJson } from '../output/records.js';
import { formatNames } from '../formats/registry.js';
import { defineCommand } from './command.js';
import { STOP_OPTION } from './metadata-flags.js';

interface Flags {
  format?: string;
  stop?: string;
  output?: string;
  verify?: boolean;
  view?: string;
  maskToolOutputs?: string;
  for?: string;
  thread?: string;
  since?: string;
}

export default defineCommand({
  name: 'materialize',
  summary: 'the whole context at a commit',
  description: 'The whole context at a commit: its chain from the nearest compaction (or --stop), in the stored format or translated; stderr names the tier of a translation.',
  args: [{ name: 'id', description: 'commit id, branch, tag or NAME~N', required: true, values: 'branch' }],
  options: [
    {
      flags: '--format <format>',
      description: `output format (default: the stored one): ${formatNames().join(', ')}`,
      values: 'format',
    },
    STOP_OPTION,
    { flags: '--since <when>', description: 'a rolling window: a duration back from now (24h, 7d), a time (2026-11-20T14:03:00Z), or all; default: ctx.window.<branch>' },
    { flags: '-o, --output <file>', description: 'write to FILE instead of stdout', values: 'file' },
    { flags: '--verify', description: "recompute every artifact's BLAKE3 on the way" },
    { flags: '--view <view>', description: 'reasoning (default: every entry) or conversation (user and assistant text only)', values: ['reasoning', 'conversation'] },
    { flags: '--mask-tool-outputs <n>', description: 'replace tool results older than the last N turns by a placeholder (pinned commits kept)' },
    { flags: '--for <agent>', description: "AGENT's view: its entries as assistant, other authors' as [name] text, what came after its cursor as one \"While you were away:\" message" },
    { flags: '--thread <id>', description: 'only the commits of this thread' },
  ],
  examples: [
    'ctx materialize alice/auth-fix > resumed.jsonl',
    'ctx materialize alice/auth-fix --stop root -o session.jsonl',
    'ctx materialize alice/auth-fix --format openai-chat-v1 > messages.json',
    'ctx materialize alice/auth-fix --format markdown --view conversation --mask-tool-outputs 3',
    'ctx materialize design-room --for coder --format openai-chat-v1',
    'ctx materialize design-room --thread 9f2c',
    'ctx materialize ops-bot --since 24h',
  ],
  async run(io, [id]: [string], flags: Flags) {
    const mask = flags.maskToolOutputs === undefined ? undefined : turns(flags.maskToolOutputs);
    // the bytes go out as materialize hands them over (a long chain never becomes one buffer); JSON needs them whole
    let fd: number | null = null;
    const write = io.flags.json ? undefined : flags.output ? (chunk: Uint8Array) => void writeAll((fd ??= openSync(flags.output!, 'w')), chunk) : (chunk: Uint8Array) => io.out(chunk);
    const opts = { format: flags.format, stop: flags.stop, verify: flags.verify, view: flags.view as View | undefined, maskToolOutputs: mask, for: flags.for, thread: flags.thread, since: flags.since, write };
    try {
      const m = await io.withRepo(false, (repo) => materialize(repo, id, { ...opts, since: defaultSince(repo, id, opts) }));
      if (m.unknown) io.note(`ctx: this build does not know the stored format '${m.unknown}': wrote every artifact as it is (raw)`);
      else if (m.tier !== 'native' && m.tier !== 'raw' && m.from.some((f) => f !== m.format)) io.note(`ctx: translated ${m.from.join(', ')} → ${m.format} (${m.tier})`);
      if (flags.output && !write) writeFileSync(flags.output, m.bytes);
      return m;
    } finally {
      if (fd !== null) closeSync(fd);
    }
  },
  print(io, m, flags) {
    if (io.flags.json) return io.json(materializedJson(m, !flags.output));
  },
});

function writeAll(fd: number, bytes: Uint8Array): void {
  for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at, bytes.length - at);
}

function turns(s: string): number {
  if (!/^\d+$/.test(s)) throw new UsageError(`--mask-tool-outputs takes a number of turns, not '${s}'`);
  return Number(s);
}
