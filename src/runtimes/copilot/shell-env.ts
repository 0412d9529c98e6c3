// The variable the Copilot CLI sets in its shell tool's commands, which shell-session.ts reads: named apart so that
// a git hook loads this plug-in only when it is set (runtimes/registry.ts, shellRuntimes).
export const SHELL_ENV = ['COPILOT_AGENT_SESSION_ID'] as const;
