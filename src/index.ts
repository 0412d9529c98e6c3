// agent-ctx as a library: open a context store and checkpoint, read, fork and materialize chains.
export { openStore, initRepo, ContextStore, type OpenOptions, type Written, type Imported, type Compacted } from './api/context-store.js';
export type { CheckpointInput, CommitFields } from './api/write.js';
export type { CommitRecord, LogOptions, BranchInfo, Annotations } from './api/read.js';
export type { MaterializeOptions, Materialized } from './api/materialize.js';
export type { View } from './core/views.js';
export type { VerifyReport, VerifyProblem } from './api/verify.js';
export type { AnnotateInput } from './api/branch-ops.js';
export type { ImportOptions, ExportOptions, Exported } from './api/runtime.js';
export type { ExportResult } from './api/sessions.js';
export type { CompactOptions } from './api/compact.js';
export { runtimeNames } from './runtimes/registry.js';
export { formatNames } from './formats/registry.js';
export type { Meta, CommitType, Trigger } from './core/meta.js';
export * from './errors/index.js';
export { scanSecrets, SECRET_RULES, type Finding, type SecretRule } from './core/secret-rules.js';
export { contextTokenBudget, type ContextTokenBudget, type ContextTokenBudgetInput } from './core/budget.js';
export { loadTokenizer, charsPerToken, tokensFromChars, type TokenCounter } from './core/tokens.js';
export type { BudgetOptions, BudgetReport } from './api/budget.js';
