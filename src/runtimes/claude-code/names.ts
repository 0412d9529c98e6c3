// Claude Code's names in a context store: its format and the branches its sessions land on.
export const CLAUDE_FORMAT = 'claude-code-v1';

export const sessionBranch = (session: string) => `claude/${session}`;
// `claude/<s>/agent-x` cannot sit next to the ref `claude/<s>` (git stores refs as files and
// directories), so a session's other chains are its siblings: `claude/<s>.agent-<id>`, `.fork-<n>`.
export const agentBranch = (session: string, agent: string) => `claude/${session}.agent-${agent}`;
