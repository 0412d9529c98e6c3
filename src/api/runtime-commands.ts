// What the commands drive in runtimes/ (import, hook, hooks, export), through one entry: the place a
// runtime registry plugs into. Import and export code loads on use (the hook's is api/claude-hook.ts).
import type { RepoContext } from './repo-context.js';
import type { ImportOptions, ImportResult } from '../runtimes/transcript.js';

export { readTranscript } from '../runtimes/transcript.js';
export type { ImportOptions, ImportResult };
export type { HooksReport } from '../runtimes/claude-code/settings.js';
export type { Exported, ExportOptions } from '../runtimes/claude-code/export.js';

export type Importer = (repo: RepoContext, file: string, opts: ImportOptions) => Promise<ImportResult & { unchanged?: boolean; tip?: string }>;

const IMPORTERS: Record<string, () => Promise<Importer>> = {
  'claude-code': async () => (await import('../runtimes/claude-code/import.js')).importClaudeCode,
  codex: async () => (await import('../runtimes/codex/import.js')).importCodex,
  'gemini-cli': async () => (await import('../runtimes/gemini/import.js')).importGemini,
};

/** The runtimes `importer` knows, in order. */
export const importableRuntimes = (): string[] => Object.keys(IMPORTERS);

/** The import function of a runtime; undefined when there is none. */
export function importer(runtime: string): Promise<Importer> | undefined {
  return Object.hasOwn(IMPORTERS, runtime) ? IMPORTERS[runtime]() : undefined;
}

/** Claude Code's settings.json: install, uninstall, status of ctx's hooks. */
export const claudeCodeSettings = () => import('../runtimes/claude-code/settings.js');

/** A context as a new Claude Code session. */
export const claudeCodeExport = () => import('../runtimes/claude-code/export.js');
