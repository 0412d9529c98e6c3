import { budget } from '../api/read/budget.js';
import { OverBudgetError, UsageError } from '../errors/index.js';
import { budgetJson, roundRatio } from '../output/records.js';
import { defineCommand } from './command.js';
import { STOP_OPTION } from './metadata-flags.js';

interface Flags {
  window: string;
  reserveOutput?: string;
  reserveSystem?: string;
  threshold?: string;
  stop?: string;
  chars?: boolean;
}

const n0 = (x: number) => x.toLocaleString('en-US');

export default defineCommand({
  name: 'budget',
  summary: 'tokens the context at a commit uses of a model window; exits 6 over the threshold',
  args: [{ name: 'id', description: 'commit id, branch, tag or NAME~N', required: true, values: 'branch' }],
  options: [
    { flags: '--window <tokens>', description: "the model's context window", required: true },
    { flags: '--reserve-output <tokens>', description: "kept free for the model's answer (default 0)" },
    { flags: '--reserve-system <tokens>', description: 'kept free for the system prompt and tool definitions (default 0)' },
    { flags: '--threshold <fraction>', description: 'over when used / available exceeds it (default 0.8)' },
    STOP_OPTION,
    { flags: '--chars', description: 'estimate with characters/4 instead of the tokenizer' },
  ],
  examples: [
    'ctx budget alice/auth-fix --window 200000',
    'ctx budget alice/auth-fix --window 200000 --reserve-output 16000 --json',
    'ctx budget alice/auth-fix --window 128000 --threshold 0.9 --chars || echo "time to compact"',
  ],
  async run(io, [id]: [string], flags: Flags) {
    const opts = {
      window: count('--window', flags.window),
      reservedOutput: flags.reserveOutput === undefined ? 0 : count('--reserve-output', flags.reserveOutput),
      reservedSystem: flags.reserveSystem === undefined ? 0 : count('--reserve-system', flags.reserveSystem),
      threshold: flags.threshold === undefined ? 0.8 : fraction(flags.threshold),
      stop: flags.stop,
      estimator: flags.chars ? ('chars' as const) : ('tokenizer' as const),
    };
    return io.withRepo(false, (repo) => budget(repo, id, opts));
  },
  print(io, b) {
    const c = io.chalk;
    const verdict = b.over ? c.red('over') : c.green('ok');
    if (io.flags.json) return io.json(budgetJson(b));
    const ratio = Number.isFinite(b.ratio) ? roundRatio(b.ratio) : Infinity;
    if (!io.tty) return io.out(`${[b.used, b.available, b.remaining, ratio, b.threshold, verdict].join('\t')}\n`);
    const pct = (x: number) => (Number.isFinite(x) ? `${(x * 100).toFixed(1)}%` : '∞');
    io.out(
      `used       ${n0(b.used)} tokens (${b.estimator}, ${b.commits.length} commits, stop ${b.stop})\n` +
        `available  ${n0(b.available)} of a ${n0(b.window)} window (reserved ${n0(b.reservedOutput)} output, ${n0(b.reservedSystem)} system)\n` +
        `remaining  ${b.remaining < 0 ? c.red(n0(b.remaining)) : n0(b.remaining)}\n` +
        `ratio      ${pct(b.ratio)} of available, threshold ${pct(b.threshold)}: ${verdict}\n`,
    );
  },
  failure(b) {
    if (!b.over) return undefined;
    const share = Number.isFinite(b.ratio) ? `${(b.ratio * 100).toFixed(1)}%` : 'more than all';
    return new OverBudgetError(`over budget: ${n0(b.used)} tokens are ${share} of ${n0(b.available)} available (threshold ${(b.threshold * 100).toFixed(0)}%)`);
  },
});

function count(flag: string, s: string): number {
  if (!/^\d+$/.test(s)) throw new UsageError(`${flag} takes a whole number of tokens, not '${s}'`);
  return Number(s);
}

function fraction(s: string): number {
  const x = Number(s);
  if (!/^\d*\.?\d+$/.test(s) || !(x > 0 && x <= 1)) throw new UsageError(`--threshold takes a fraction in (0, 1], e.g. 0.8, not '${s}'`);
  return x;
}
