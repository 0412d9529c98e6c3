// Schemas and bounds the tools share: every list a tool returns is capped here, whatever was asked.
import { z } from 'zod';

/** The most items any tool returns in one call. */
export const MAX_ITEMS = 500;

export const LIMIT = z.number().int().min(1).max(MAX_ITEMS).default(50).describe(`at most this many items (1 to ${MAX_ITEMS}; default 50)`);

export const branchList = z.array(z.string().min(1).max(255)).max(64).optional().describe('branches (or commits) whose chains are read (default: every branch)');

/** The first `limit` items, and whether there were more. */
export function limited<T>(all: readonly T[], limit: number): { items: T[]; truncated: boolean } {
  return { items: all.slice(0, limit), truncated: all.length > limit };
}
