// `ctx --help` by task: which heading each command is listed under, and the examples after the list.
// Data only, read by cli/program.ts; a command in no group is listed under "Other" and fails a test.
// `clone` and `usage` are grouped ahead of their commands (issue 24), so they land in place.

export const HELP_GROUPS: readonly { heading: string; commands: readonly string[] }[] = [
  { heading: 'Capture', commands: ['init', 'hooks', 'hook', 'import', 'checkpoint', 'snapshot', 'save', 'restore', 'annotate', 'summarize', 'mcp', 'runtime'] },
  {
    heading: 'Browse',
    commands: ['log', 'show', 'branch', 'fork', 'sessions', 'threads', 'grep', 'files', 'why', 'blame', 'trace', 'resolve', 'current', 'materialize', 'budget', 'usage', 'export', 'serve'],
  },
  { heading: 'Share', commands: ['remote', 'clone', 'push', 'fetch', 'pull'] },
  { heading: 'State', commands: ['state', 'policy', 'cursor', 'diff', 'audit', 'stats', 'migrate'] },
  { heading: 'Maintenance', commands: ['verify', 'compact', 'clear', 'gc', 'index', 'completion', 'help'] },
];

/** The heading of a command nobody grouped yet. */
export const OTHER_GROUP = 'Other';

/** A command's heading in `ctx --help`, and its place: groups in order, then each group's order. */
export function helpGroup(name: string): { heading: string; rank: number } {
  let rank = 0;
  for (const g of HELP_GROUPS) {
    const i = g.commands.indexOf(name);
    if (i >= 0) return { heading: g.heading, rank: rank + i };
    rank += g.commands.length;
  }
  return { heading: OTHER_GROUP, rank };
}

/** Real invocations against a store, after the command list (`examples:` as in a command's declaration). */
export const ROOT_HELP: { examples: readonly string[] } = {
  examples: [
    'ctx init',
    'ctx hooks install claude-code',
    'ctx log alice/auth-fix',
    "ctx grep 'token refresh'",
    'ctx why HEAD',
    'ctx export claude-code alice/auth-fix',
    'ctx remote add origin https://git.example.com/team/agent-context.git',
    'ctx pull origin',
  ],
};
