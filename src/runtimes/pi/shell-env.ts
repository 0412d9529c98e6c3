// The variables ctx's pi extension sets in pi's environment, which its bash tool passes on and
// shell-session.ts reads: named apart so that a git hook loads this plug-in only when they are set
// (runtimes/registry.ts, shellRuntimes).
export const SHELL_ENV = ['CTX_PI_SESSION_ID', 'CTX_PI_SESSION_FILE'] as const;
