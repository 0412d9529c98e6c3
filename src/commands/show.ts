import { artifactOf, show, type CommitRecord } from '../api/read/read.js';
import { drainAt } from '../api/links/drain.js';
import { shortId } from '../core/ids.js';
import { commitJson } from '../output/records.js';
import { visible } from '../output/style.js';
import { defineCommand } from './command.js';

type Shown = { record: CommitRecord } | { artifact: Uint8Array };

export default defineCommand({
  name: 'show',
  summary: 'all metadata of a commit',
  args: [{ name: 'id', description: 'commit id, branch, tag or NAME~N', required: true, values: 'branch' }],
  options: [{ flags: '--delta', description: "write the commit's artifact bytes to stdout" }],
  examples: ['ctx show alice/auth-fix', 'ctx show alice/auth-fix~3 --json', 'ctx show alice/auth-fix~1 --delta > turn.jsonl'],
  async run(io, [id]: [string], flags: { delta?: boolean }): Promise<Shown> {
    if (flags.delta) return { artifact: await io.withRepo(false, (repo) => artifactOf(repo, id)) };
    return { record: await io.withRepo(false, async (repo) => (await drainAt(repo, io.cwd), show(repo, id))) };
  },
  print(io, shown) {
    if ('artifact' in shown) return io.out(shown.artifact);
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
