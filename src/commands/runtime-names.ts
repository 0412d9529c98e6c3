// The agent runtimes the commands name, in one place (help, usage errors, completion) until the
// runtime registry answers this; test/completion.test.ts checks it against what import accepts.
export const RUNTIME_NAMES = ['claude-code', 'codex', 'gemini-cli'] as const;

/** the runtimes with live capture (ctx hook, ctx hooks) and export */
export const HOOK_RUNTIMES = ['claude-code'] as const;
export const EXPORT_RUNTIMES = ['claude-code'] as const;
