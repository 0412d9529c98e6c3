import { filesTouched } from '../api/search/touched.js';
import { shortId } from '../core/ids.js';
import { CtxError } from '../errors/index.js';
import { fileTouchJson } from '../output/records.js';
import { plainWidth, shortTime, table, tsvLine, visible } from '../output/style.js';
import { defineCommand } from './command.js';

export default defineCommand({
  name: 'files',
  summary: 'sessions and commits whose tool calls read, edited, wrote or ran a command on a path, newest first; exits 1 when none did',
  description:
    "The tool calls that touched PATH, newest first: Claude Code's Read, Edit, MultiEdit, Write, NotebookEdit and Bash; Codex's apply_patch and shell commands; Gemini CLI's read_file, read_many_files, write_file, replace and run_shell_command; pi's read, edit, write and bash. A path matches by a suffix of its components either way (src/auth.ts finds /home/me/app/src/auth.ts, and the other way round); a command matches when one of its words is the path. Each line: time, action (read, edit, write, run), tool, commit, branch, session; a table on a terminal, else TAB-separated (time, action, tool, id, branch, session, entry, path); --json gives one record per line.",
  args: [
    { name: 'path', description: 'the file, relative or absolute', required: true, values: 'file' },
    { name: 'branch...', description: 'branches (or commits) whose chains are read (default: every branch)', values: 'branch' },
  ],
  options: [{ flags: '--no-index', description: 'read every commit instead of the search index (the same answer, slower; CTX_NO_INDEX=1 for every search)' }],
  examples: ['ctx files src/auth.ts', 'ctx files /home/me/app/src/auth.ts alice/auth-fix', 'ctx files README.md --json', 'ctx files src/auth.ts --no-index'],
  async run(io, [path, branches]: [string, string[]], flags: { index?: boolean }) {
    return io.withRepo(false, (repo) => filesTouched(repo, path, { branches, noIndex: flags.index === false }));
  },
  print(io, touches) {
    if (io.flags.json) return io.jsonLines(touches.map(fileTouchJson));
    const c = io.chalk;
    if (!io.tty) return io.out(touches.map((t) => tsvLine([t.at, t.action, t.tool, shortId(t.commit.slice(4)), t.branch, t.session, t.entry, t.path])).join(''));
    const rows = touches.map((t) => [visible(shortTime(t.at)), t.action, visible(t.tool), c.yellow(shortId(t.commit.slice(4))), c.green(visible(t.branch)), visible(t.path)]);
    io.out(table([['TIME', 'ACTION', 'TOOL', 'COMMIT', 'BRANCH', 'PATH'].map((h) => c.bold(h)), ...rows], plainWidth));
  },
  failure: (touches) => (touches.length === 0 ? new CtxError('no tool call touched that path') : undefined),
});
