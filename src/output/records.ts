// JSON records are their own types (not internal objects); a test pins each field list.
import type { CommitRecord, BranchInfo } from '../api/read.js';
import type { WrittenCommit } from '../api/write.js';
import type { BudgetReport } from '../api/budget.js';
import { fullId } from '../core/ids.js';

export function commitJson(r: CommitRecord) {
  return { v: 1, id: r.id, parent: r.parent, branches: r.branches, summary: r.summary, meta: r.meta, annotations: r.annotations };
}

export function logJson(r: CommitRecord) {
  const m = r.meta;
  return {
    v: 1,
    id: r.id,
    parent: r.parent,
    type: m.type,
    format: m.format,
    created_at: m.created_at,
    message_count: m.message_count,
    token_count: m.token_count,
    summary: r.summary,
    branches: r.branches,
  };
}

export function writtenJson(w: WrittenCommit, branch: string) {
  return { v: 1, id: fullId(w.oid), branch, parent: w.parent === null ? null : fullId(w.parent), type: w.meta.type, format: w.meta.format };
}

export function branchJson(b: BranchInfo) {
  return { v: 1, name: b.name, id: b.id, type: b.meta.type, created_at: b.meta.created_at, summary: b.meta.summary };
}

export function budgetJson(b: BudgetReport) {
  return {
    v: 1,
    window: b.window,
    used: b.used,
    reserved_output: b.reservedOutput,
    reserved_system: b.reservedSystem,
    available: b.available,
    remaining: b.remaining,
    // JSON has no Infinity: null when nothing of the window is left for the context
    ratio: Number.isFinite(b.ratio) ? roundRatio(b.ratio) : null,
    threshold: b.threshold,
    over: b.over,
  };
}

/** Four decimals: enough to compare with a threshold, stable to print. */
export const roundRatio = (r: number) => Math.round(r * 1e4) / 1e4;
