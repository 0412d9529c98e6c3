import { budget } from '../api/budget.js';
import { OverBudgetError, UsageError } from '../errors/index.js';
import { budgetJson, roundRatio } from '../output/records.js';
import type { Cli } from '../cli/context.js';

interface Flags {
  window: string;
  reserveOutput?: string;
  reserveSystem?: string;
  threshold?: string;
  stop?: string;
  chars?: boolean;
}

export async function run(cli: Cli, id: string, flags: Flags) {
  const opts = {
    window: count('--window', flags.window),
    reservedOutput: flags.reserveOutput === undefined ? 0 : count('--reserve-output', flags.reserveOutput),
    reservedSystem: flags.reserveSystem === undefined ? 0 : count('--reserve-system', flags.reserveSystem),
    threshold: flags.threshold === undefined ? 0.8 : fraction(flags.threshold),
    stop: flags.stop,
    estimator: flags.chars ? ('chars' as const) : ('tokenizer' as const),
  };
  const b = await cli.withRepo(false, (repo) => budget(repo, id, opts));
  const ratio = Number.isFinite(b.ratio) ? roundRatio(b.ratio) : Infinity;
  if (cli.flags.json) cli.json(budgetJson(b));
  else if (!cli.tty) cli.out(`${[b.used, b.available, b.remaining, ratio, b.threshold, b.over ? 'over' : 'ok'].join('\t')}\n`);
  else {
    const c = cli.chalk;
    const n = (x: number) => x.toLocaleString('en-US');
    const pct = (x: number) => (Number.isFinite(x) ? `${(x * 100).toFixed(1)}%` : '∞');
    cli.out(
      `used       ${n(b.used)} tokens (${b.estimator}, ${b.commits.length} commits, stop ${b.stop})\n` +
        `available  ${n(b.available)} of a ${n(b.window)} window (reserved ${n(b.reservedOutput)} output, ${n(b.reservedSystem)} system)\n` +
        `remaining  ${b.remaining < 0 ? c.red(n(b.remaining)) : n(b.remaining)}\n` +
        `ratio      ${pct(b.ratio)} of available, threshold ${pct(b.threshold)}: ${b.over ? c.red('over') : c.green('ok')}\n`,
    );
  }
  if (b.over) throw new OverBudgetError(`over budget: ${n0(b.used)} tokens are ${Number.isFinite(b.ratio) ? `${(b.ratio * 100).toFixed(1)}%` : 'more than all'} of ${n0(b.available)} available (threshold ${(b.threshold * 100).toFixed(0)}%)`);
}

const n0 = (x: number) => x.toLocaleString('en-US');

function count(flag: string, s: string): number {
  if (!/^\d+$/.test(s)) throw new UsageError(`${flag} takes a whole number of tokens, not '${s}'`);
  return Number(s);
}

function fraction(s: string): number {
  const x = Number(s);
  if (!/^\d*\.?\d+$/.test(s) || !(x > 0 && x <= 1)) throw new UsageError(`--threshold takes a fraction in (0, 1], e.g. 0.8, not '${s}'`);
  return x;
}
