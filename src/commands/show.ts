import { artifactOf, show } from '../api/read.js';
import { shortId } from '../core/ids.js';
import { commitJson } from '../output/records.js';
import type { Cli } from '../cli/context.js';

export async function run(cli: Cli, id: string, flags: { delta?: boolean }) {
  if (flags.delta) return cli.out(await cli.withRepo(false, (repo) => artifactOf(repo, id)));
  const r = await cli.withRepo(false, (repo) => show(repo, id));
  if (cli.flags.json) return cli.json(commitJson(r));
  const c = cli.chalk;
  const m = r.meta;
  const rows: [string, unknown][] = [
    ['parent', r.parent ? shortId(r.parent.slice(4)) : '(root)'],
    ...(r.branches.length ? [['branches', r.branches.join(', ')] as [string, unknown]] : []),
    ...Object.entries(m).filter(([k]) => k !== 'summary'),
  ];
  if (Object.keys(r.annotations).length) rows.push(['annotations', JSON.stringify(r.annotations)]);
  let out = `${c.yellow(`commit ${r.id}`)}\n`;
  for (const [k, v] of rows) out += `${`${k}:`.padEnd(15)}${typeof v === 'string' ? v : JSON.stringify(v)}\n`;
  out += `\n    ${r.summary || c.dim('(no summary)')}\n`;
  cli.out(out);
}
