import { grep, GREP_ROLES, type GrepHit, type GrepOptions } from '../api/search/grep.js';
import { grepPattern, type GrepMatcher } from '../core/grep-match.js';
import { shortId } from '../core/ids.js';
import { CtxError, UsageError } from '../errors/index.js';
import type { CommandIO } from '../output/io.js';
import { grepJson } from '../output/records.js';
import { tsvLine, visible } from '../output/style.js';
import { defineCommand } from './command.js';

interface Flags {
  all?: boolean;
  role?: GrepOptions['role'];
  since?: string;
  ignoreCase?: boolean;
  fixedStrings?: boolean;
  wordRegexp?: boolean;
  n?: string;
  index?: boolean;
}

export default defineCommand({
  name: 'grep',
  summary: "search every session's messages, tool calls and results; exits 1 when nothing matches",
  description:
    "Messages matching PATTERN (a regular expression in RE2's syntax, matched in linear time: no backreferences or lookaround; -F: a plain string; -w: whole words only) on the given branches, else on every branch (--all: remote-tracking ones too). Each commit is searched once, however many branches share it: a hit names the first branch holding it. Text, thinking, tool calls (the tool's name and argument values) and tool results are searched, in every stored format (Claude Code, Codex, Gemini CLI, …): a hit in a tool call or result has role `tool`. One hit per entry: commit, branch, entry (its index among the commit's messages), role, and the text around the first match; a table on a terminal (the match highlighted), else one TAB-separated line each (id, branch, entry, role, time, snippet); --json gives one record per line. Exits 1 when nothing matches, 2 on a bad pattern, as grep does.",
  args: [
    { name: 'pattern', description: 'what to look for: a regular expression (-F: a plain string)', required: true },
    { name: 'branch...', description: 'branches (or commits) whose chains are searched (default: every branch)', values: 'branch' },
  ],
  options: [
    { flags: '--all', description: 'every branch, remote-tracking ones too' },
    { flags: '--role <role>', description: 'only blocks of this role: user, assistant, or tool (tool calls and results)', choices: GREP_ROLES },
    { flags: '--since <when>', description: "only entries since: a duration back from now (24h, 7d) or a time; by the entry's own time, else its commit's" },
    { flags: '-i, --ignore-case', description: 'case-insensitive' },
    { flags: '-F, --fixed-strings', description: 'PATTERN is a plain string, not a regular expression' },
    { flags: '-w, --word-regexp', description: 'only whole words: no letter, digit or _ just before or after the match' },
    { flags: '-n <count>', description: 'at most this many hits' },
    { flags: '--no-index', description: 'read every commit instead of the search index (the same hits, slower; CTX_NO_INDEX=1 for every search)' },
  ],
  examples: ["ctx grep 'token refresh'", "ctx grep -i 'refresh.*token' alice/auth-fix", 'ctx grep src/auth.ts --role tool --since 7d', "ctx grep -F 'a.b(c)' --json", 'ctx grep -iwF todo'],
  async run(io, [pattern, branches]: [string, string[]], flags: Flags) {
    const limit = flags.n === undefined ? undefined : Number(flags.n);
    if (limit !== undefined && (!Number.isSafeInteger(limit) || limit < 0)) throw new UsageError(`-n takes a whole number, not '${flags.n}'`);
    if (flags.all && branches.length) throw new UsageError('--all searches every branch: name no branches with it');
    const o: GrepOptions = { pattern, branches, all: flags.all, role: flags.role, since: flags.since, ignoreCase: flags.ignoreCase, fixed: flags.fixedStrings, word: flags.wordRegexp, limit, noIndex: flags.index === false };
    const re = grepPattern(o); // a bad pattern is refused before the store is opened
    return io.withRepo(false, async (repo) => {
      const hits: GrepHit[] = [];
      for await (const h of grep(repo, o)) hits.push(h);
      return { hits, re };
    });
  },
  print(io, { hits, re }) {
    if (io.flags.json) return io.jsonLines(hits.map(grepJson));
    const c = io.chalk;
    if (!io.tty) return io.out(hits.map((h) => tsvLine([c.yellow(shortId(h.commit.slice(4))), h.branch, h.entry, h.role, h.at ?? '-', highlight(io, h.snippet, re)])).join(''));
    io.out(hits.map((h) => `${c.yellow(shortId(h.commit.slice(4)))} ${c.green(visible(h.branch))} ${h.entry} ${c.cyan(visible(h.role))}  ${highlight(io, h.snippet, re)}\n`).join(''));
  },
  failure: ({ hits }, flags) => (hits.length === 0 ? new CtxError(`no match${flags.role ? ` in role ${flags.role}` : ''}`) : undefined),
});

/** The snippet with its first match in bold red, as grep --color shows it. */
function highlight(io: CommandIO, text: string, re: GrepMatcher): string {
  const m = re.find(text);
  if (!m || m[0] === m[1]) return text;
  return text.slice(0, m[0]) + io.chalk.bold.red(text.slice(m[0], m[1])) + text.slice(m[1]);
}
