// The variable Claude Code sets in its Bash tool's commands, which shell-session.ts reads: named apart so that
// a git hook loads this plug-in only when it is set (runtimes/registry.ts, shellRuntimes).
export const SHELL_ENV = ['CLAUDE_CODE_SESSION_ID'] as const;
