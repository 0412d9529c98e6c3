// ContextTokenBudget (DESIGN.md §8): how much of a model's window a context leaves, computed before inference.

export interface ContextTokenBudgetInput {
  /** the model's context window, tokens */
  window: number;
  /** tokens the context occupies */
  used: number;
  /** kept free for the model's answer */
  reservedOutput: number;
  /** kept free for the system prompt and tool definitions the runtime adds */
  reservedSystem: number;
  /** soft limit: over when used / available exceeds it (0 < threshold ≤ 1) */
  threshold: number;
}

export interface ContextTokenBudget {
  used: number;
  /** window minus the reservations: what the context may fill */
  available: number;
  /** available − used; negative when the context does not fit */
  remaining: number;
  /** used / available (Infinity when nothing is available and something is used) */
  ratio: number;
  over: boolean;
}

export function contextTokenBudget(input: ContextTokenBudgetInput): ContextTokenBudget {
  const { window, used, reservedOutput, reservedSystem, threshold } = input;
  for (const [name, n] of Object.entries({ window, used, reservedOutput, reservedSystem }))
    if (!Number.isInteger(n) || n < 0) throw new RangeError(`${name} must be a whole number ≥ 0, not ${n}`);
  if (!(threshold > 0 && threshold <= 1)) throw new RangeError(`threshold must be in (0, 1], not ${threshold}`);
  const available = Math.max(0, window - reservedOutput - reservedSystem);
  const ratio = available > 0 ? used / available : used > 0 ? Infinity : 0;
  return { used, available, remaining: available - used, ratio, over: ratio > threshold };
}
