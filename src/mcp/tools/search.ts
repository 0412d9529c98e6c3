// `search`: ctx grep over every session's messages, tool calls and results. The pattern runs on
// re2js as grep's does (linear time: no pattern backtracks), and the hits stop at the limit.
import { z } from 'zod';
import { grep, GREP_ROLES } from '../../api/search/grep.js';
import { grepJson } from '../../output/records.js';
import { defineTool } from './tool.js';
import { branchList, limit, MAX_ITEMS, SINCE } from './shared.js';

export const search = defineTool({
  name: 'search',
  title: 'Search sessions',
  description:
    "Search every session's messages, tool calls and tool results (ctx grep): a regular expression in RE2 syntax (linear time), or a plain string with fixed. Hits come branch by branch, newest commit first: commit, branch, entry (the message's index in its commit), role and a snippet around the match.",
  input: {
    pattern: z.string().min(1).max(1000).describe('a regular expression (RE2 syntax), or a plain string with fixed'),
    fixed: z.boolean().default(false).describe('the pattern is a plain string'),
    ignore_case: z.boolean().default(false).describe('match without regard to case'),
    role: z.enum(GREP_ROLES).optional().describe('only blocks of this role: tool calls and their results are tool'),
    branches: branchList,
    since: SINCE,
    limit: limit(),
  },
  async run(t, a) {
    const hits = await t.withRepo(async (repo) => {
      const out = [];
      for await (const h of grep(repo, { pattern: a.pattern, fixed: a.fixed, ignoreCase: a.ignore_case, role: a.role, branches: a.branches, since: a.since, limit: a.limit + 1 })) out.push(grepJson(h));
      return out;
    });
    const truncated = hits.length > a.limit;
    if (truncated) hits.pop();
    const text = hits.map((h) => `${h.commit} ${h.branch} #${h.entry} ${h.role}${h.at ? ` ${h.at}` : ''}: ${h.snippet}`);
    return { data: { hits, truncated }, text: text.length ? text.join('\n') + (truncated ? `\n… more: raise limit (at most ${MAX_ITEMS}) or narrow the search` : '') : 'no match' };
  },
});
