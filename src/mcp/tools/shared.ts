// Schemas and bounds the tools share: every list a tool returns is capped here, whatever was asked.
import { z } from 'zod';

/** The most items any tool returns in one call. */
export const MAX_ITEMS = 500;

/** `limit`: at most this many items, capped at MAX_ITEMS. */
export const limit = (def = 50) => z.number().int().min(1).max(MAX_ITEMS).default(def).describe(`at most this many items (1 to ${MAX_ITEMS}; default ${def})`);

/** A commit or branch: `ctx-<hex>`, a branch, `branch~N`, a tag (as every ctx command takes it). */
export const SPEC = z.string().min(1).max(255);

export const branchList = z.array(SPEC).max(64).optional().describe('branches (or commits) whose chains are read (default: every branch)');

export const SINCE = z.string().min(1).max(64).optional().describe('only entries since: a duration back from now (24h, 7d) or an ISO time');

/** The first `limit` items, and whether there were more. */
export function limited<T>(all: readonly T[], limit: number): { items: T[]; truncated: boolean } {
  return { items: all.slice(0, limit), truncated: all.length > limit };
}
