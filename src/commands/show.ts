import { artifactOf, show, type CommitRecord } from '../api/read/read.js';
import { conversation, type Conversation } from '../api/read/conversation.js';
import { toolReader } from '../api/search/effects.js';
import { UsageError } from '../errors/index.js';
import { formatNames, outputFormat } from '../formats/registry.js';
import { renderConversation } from '../output/conversation.js';
import { drainAt } from '../api/links/drain.js';
import { shortId } from '../core/ids.js';
import { commitJson } from '../output/records.js';
import { visible } from '../output/style.js';
import type { CommandIO } from '../output/io.js';
import { defineCommand } from './command.js';

type Shown = { record: CommitRecord } | { artifact: Uint8Array } | { conversation: Conversation; verbose: boolean; format?: string };
/** The renderings (markdown): what --format takes. */
const RENDERINGS = formatNames().filter((n) => outputFormat(n)?.tier === 'rendering');
type Flags = { delta?: boolean; messages?: boolean; verbose?: boolean; format?: string };

export default defineCommand({
  name: 'show',
  summary: 'all metadata of a commit',
  args: [{ name: 'id', description: 'commit id, branch, tag or NAME~N; with --messages also a range A..B (what came after A up to B)', required: true, values: 'branch' }],
  options: [
    { flags: '--delta', description: "write the commit's artifact bytes to stdout" },
    { flags: '--messages', description: "the commit's messages (or a range's), readably: one heading a message, tool calls one line each" },
    { flags: '-v, --verbose', description: 'with --messages: tool arguments and results, edits as diffs, thinking' },
    { flags: '--format <format>', description: `with --messages: a rendering (${RENDERINGS.join(', ')}) instead of text for the terminal`, choices: RENDERINGS },
  ],
  examples: ['ctx show alice/auth-fix', 'ctx show alice/auth-fix~3 --json', 'ctx show alice/auth-fix~1 --delta > turn.jsonl', 'ctx show alice/auth-fix --messages', 'ctx show alice/auth-fix~3..alice/auth-fix --messages -v', 'ctx show alice/auth-fix --messages --format markdown > turn.md'],
  async run(io, [id]: [string], flags: Flags): Promise<Shown> {
    if ((flags.verbose || flags.format) && !flags.messages) throw new UsageError('show: -v and --format go with --messages');
    if (flags.messages && flags.delta) throw new UsageError('show: --messages and --delta are two ways to show a commit: pick one');
    if (flags.messages) return { conversation: await io.withRepo(false, (repo) => conversation(repo, id)), verbose: flags.verbose === true, format: flags.format };
    if (flags.delta) return { artifact: await io.withRepo(false, (repo) => artifactOf(repo, id)) };
    return { record: await io.withRepo(false, async (repo) => (await drainAt(repo, io.cwd), show(repo, id))) };
  },
  async print(io, shown) {
    if ('artifact' in shown) return io.out(shown.artifact);
    if ('conversation' in shown) return printConversation(io, shown);
    const r = shown.record;
    if (io.flags.json) return io.json(commitJson(r));
    const c = io.chalk;
    const m = r.meta;
    const rows: [string, unknown][] = [
      ['parent', r.parent ? shortId(r.parent.slice(4)) : '(root)'],
      ...(r.branches.length ? [['branches', r.branches.join(', ')] as [string, unknown]] : []),
      ...Object.entries(m).filter(([k]) => k !== 'summary'),
    ];
    if (Object.keys(r.annotations).length) rows.push(['annotations', JSON.stringify(r.annotations)]);
    // the code commits it led to: one line each (ctx why <sha> in the code repository tells the rest)
    for (const l of r.links) rows.push(['code', `${l.code} ${l.how}${l.files?.length ? ` ${l.files.join(', ')}` : ''}${l.repo ? ` (${l.repo})` : ''}`]);
    let out = `${c.yellow(`commit ${r.id}`)}\n`;
    // meta.json, notes and the summary are store text: shown inert (JSON.stringify leaves DEL and C1 as they are)
    for (const [k, v] of rows) out += `${visible(`${k}:`.padEnd(15))}${visible(typeof v === 'string' ? v : JSON.stringify(v))}\n`;
    out += `\n    ${visible(r.summary) || c.dim('(no summary)')}\n`;
    io.out(out);
  },
});

async function printConversation(io: CommandIO, shown: Extract<Shown, { conversation: Conversation }>): Promise<void> {
  const { conversation: conv } = shown;
  if (io.flags.json) return io.json({ v: 1, id: conv.id, format: conv.format, commits: conv.commits, messages: conv.messages });
  const rendering = shown.format === undefined ? undefined : outputFormat(shown.format);
  if (rendering?.tier === 'rendering') return io.page(Buffer.from(rendering.render(conv.messages)).toString('utf8'));
  const view = { format: conv.format, tools: await toolReader(), chalk: io.chalk, verbose: shown.verbose };
  await io.page(renderConversation(conv.messages, view) || `${io.chalk.dim('(no messages)')}\n`);
}
