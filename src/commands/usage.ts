import { parseSince } from '../core/window.js';
import { USAGE_GROUPS, usage, type UsageGroup, type UsageRow } from '../api/read/usage.js';
import { PRICES_FILE } from '../api/read/prices.js';
import { usageJson } from '../output/records.js';
import { visible } from '../output/style.js';
import { defineCommand } from './command.js';

interface Flags {
  by: UsageGroup;
  since?: string;
}

export default defineCommand({
  name: 'usage',
  summary: 'tokens and estimated cost of the sessions, from the usage their transcripts record',
  description: `Sum the tokens each model API response reported (input, output, cache read, cache write), as the runtimes record them in their transcripts, each response once, grouped by session (branch), day (UTC), model or project (working directory), with the estimated cost in USD from the price table bundled with @pydantic/genai-prices, or the store's ${PRICES_FILE}. A model without a price shows its tokens and "?" for its cost.`,
  args: [],
  options: [
    { flags: '--by <group>', description: 'group by session, day, model or project', choices: USAGE_GROUPS, default: 'session' },
    { flags: '--since <when>', description: "only responses since: a duration back from now (24h, 7d) or a time (2026-11-01); by the entry's own time, else its commit's" },
  ],
  examples: ['ctx usage', 'ctx usage --by day --since 7d', 'ctx usage --by model --since 2026-11-01', 'ctx usage --by project --json'],
  async run(io, _args: [], flags: Flags) {
    return io.withRepo(false, (repo) => {
      const window = flags.since === undefined ? null : parseSince(flags.since, repo.now());
      return usage(repo, { by: flags.by, since: window?.start });
    });
  },
  print(io, report) {
    if (io.flags.json) {
      for (const r of report.rows) io.json(usageJson(r, report.by));
      return io.json(usageJson(report.total, 'total'));
    }
    const head = [report.by.toUpperCase(), 'RESPONSES', 'INPUT', 'OUTPUT', 'CACHE READ', 'CACHE WRITE', 'COST (USD)'];
    const line = (r: UsageRow, key: string) => [key, ...[r.responses, r.input, r.output, r.cacheRead, r.cacheWrite].map(thousands), costText(r)];
    const rows = [head, ...report.rows.map((r) => line(r, visible(r.key))), line(report.total, 'total')];
    let out = aligned(rows);
    const unpriced = report.total.unpriced;
    if (unpriced.length) out += `? no price for ${unpriced.map(visible).join(', ')}: tokens counted, cost not (prices go in the store's ${PRICES_FILE})\n`;
    io.out(out);
  },
});

const thousands = (n: number) => n.toLocaleString('en-US');

/** USD: 2 decimals from a dollar up, else 4; `+ ?` when some of the group's models have no price. */
function costText(r: UsageRow): string {
  if (r.cost === null) return '?';
  const usd = r.cost.toLocaleString('en-US', { minimumFractionDigits: r.cost >= 1 ? 2 : 4, maximumFractionDigits: r.cost >= 1 ? 2 : 4 });
  return r.unpriced.length ? `${usd} + ?` : usd;
}

/** The first column left-aligned, the numbers right-aligned, two spaces between. */
function aligned(rows: string[][]): string {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows.map((r) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ')).join('\n') + '\n';
}
