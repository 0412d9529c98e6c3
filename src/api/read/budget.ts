// `ctx budget`: the context at a commit, materialized as it would be loaded, against a model's window.
import { contextTokenBudget, type ContextTokenBudget } from '../../core/budget.js';
import { tokenCounter } from '../../core/tokens.js';
import { knownFormat } from '../../formats/registry.js';
import { materialize } from './materialize.js';
import type { RepoContext } from '../repo/repo-context.js';

export interface BudgetOptions {
  window: number;
  reservedOutput?: number;
  reservedSystem?: number;
  /** default 0.8 */
  threshold?: number;
  /** as materialize: compaction (default), root or an ancestor id */
  stop?: string;
  /** `tokenizer` (default) or `chars`: the characters/4 heuristic */
  estimator?: 'tokenizer' | 'chars';
}

export interface BudgetReport extends ContextTokenBudget {
  window: number;
  reservedOutput: number;
  reservedSystem: number;
  threshold: number;
  /** `cl100k_base` or `chars/4` */
  estimator: string;
  format: string;
  stop: string;
  /** commits whose artifacts make up the context, oldest first */
  commits: string[];
}

export async function budget(ctx: RepoContext, spec: string, opts: BudgetOptions): Promise<BudgetReport> {
  const reservedOutput = opts.reservedOutput ?? 0;
  const reservedSystem = opts.reservedSystem ?? 0;
  const threshold = opts.threshold ?? 0.8;
  // checked before the materialization, which may be long
  contextTokenBudget({ window: opts.window, used: 0, reservedOutput, reservedSystem, threshold });
  const m = await materialize(ctx, spec, { stop: opts.stop });
  const counter = await tokenCounter(opts.estimator === 'chars' ? 'chars/4' : 'cl100k_base');
  const fmt = knownFormat(m.format);
  // a format ctx cannot read is counted as the text it is
  const used = fmt
    ? counter.count(fmt.tokenTexts(fmt.parse(m.bytes, { lastOfFile: true })))
    : counter.count([Buffer.from(m.bytes).toString('utf8')]);
  const b = contextTokenBudget({ window: opts.window, used, reservedOutput, reservedSystem, threshold });
  return { ...b, window: opts.window, reservedOutput, reservedSystem, threshold, estimator: counter.name, format: m.format, stop: m.stop, commits: m.commits };
}
