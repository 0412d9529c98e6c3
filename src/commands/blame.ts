import { blame, parseBlameTarget, type BlameResult } from '../api/links/blame.js';
import { shortId } from '../core/ids.js';
import { blameLineJson } from '../output/records.js';
import { oneLine, visibleLines } from '../output/style.js';
import { defineCommand } from './command.js';

interface Opts {
  rev?: string;
}

/** Width of the gist column: the entry and the prompt that led to the line. */
const GIST = 36;

export default defineCommand({
  name: 'blame',
  summary: 'git blame, then for each line the context and entry (prompt and tool call) that wrote it, or human',
  description:
    "git blame of FILE at HEAD (or --rev), then for each line the context commit whose tool call wrote it: a context linked to the line's code commit (a link record, a Ctx-Context trailer, a cherry-pick's source) that wrote that exact line, or, when no context is linked to the commit, any context that wrote it into a file of that name (marked with * : matched by content, not linked); otherwise human. Lines are matched through the content index (see docs/links.md): a line too short to say who wrote it (a lone brace, `end`) takes the context of the nearest indexed line above it from the same code commit (below, when none is above). Each line: the code commit (8 hex), the context (ctx-<12 hex>, or human), the entry and the prompt that led to it, the line number, and the code. --json gives one record per line. Exits 4 when the file is not tracked at the revision or is not in a git repository, 2 for a bad range.",
  args: [{ name: 'file', description: 'FILE, FILE:LINE or FILE:LINE,END (lines from 1)', required: true, values: 'file' }],
  options: [{ flags: '--rev <revision>', description: 'the code revision blamed (default HEAD: uncommitted edits are not blamed)' }],
  examples: ['ctx blame src/auth.ts', 'ctx blame src/auth.ts:10,40', 'ctx blame src/auth.ts --rev v1.2 --json'],
  async run(io, [target]: [string], o: Opts) {
    const { file, range } = parseBlameTarget(target);
    return io.withRepo(false, (repo) => blame(repo, { file, range, rev: o.rev, cwd: io.cwd, blocking: true }));
  },
  print(io, r: BlameResult) {
    // one record a line, in one write (a write per record cost a 2,000-line file ~2,000 system calls)
    if (io.flags.json) return io.out(r.lines.map((l) => `${JSON.stringify(blameLineJson(r.path, l))}\n`).join(''));
    const c = io.chalk;
    const width = String(r.lines.reduce((m, l) => Math.max(m, l.line), 0)).length;
    const yellow = new Map<string, string>();
    const human = c.dim('human'.padEnd(17));
    const noGist = ''.padEnd(GIST);
    // without a prompt, the gist is the call's tool and path: a call that wrote several files shows the first one met
    const toolGists = new Map<string, string>();
    const gistOf = (l: (typeof r.lines)[number]) => {
      if (l.prompt !== null) return oneLine(`#${l.entry} ${l.prompt}`, GIST);
      const key = `${l.context} ${l.entry}`;
      return toolGists.get(key) ?? toolGists.set(key, oneLine(`#${l.entry} ${l.tool} ${l.toolPath}`, GIST)).get(key)!;
    };
    // what comes before the line number is the same for the lines of one commit and entry, which mostly
    // come in a run: made again only when the line before had another (no table keyed by both: a file's
    // lines are mostly of different entries, and the keys cost more than they saved)
    let before: (typeof r.lines)[number] | null = null;
    let head = '';
    let out = '';
    for (const l of r.lines) {
      if (before === null || l.commit !== before.commit || l.context !== before.context || l.entry !== before.entry || l.how !== before.how) {
        let y = yellow.get(l.commit);
        if (y === undefined) yellow.set(l.commit, (y = c.yellow(l.commit.slice(0, 8))));
        head =
          l.context === null
            ? `${y} ${human} ${noGist} `
            : `${y} ${c.green(`${shortId(l.context)}${l.how === 'matched' ? '*' : ' '}`)} ${gistOf(l).padEnd(GIST)} `;
      }
      before = l;
      // a line has no newline: visibleLines keeps its TABs and shows any other control character as U+FFFD
      out += `${head}${String(l.line).padStart(width)}) ${visibleLines(l.text)}\n`;
    }
    io.out(out);
  },
});
