import { resolve } from 'node:path';
import { exportSession, type ExportResult } from '../api/capture/sessions.js';
import { DEFAULT_LIMIT, why, type SliceEntry, type WhyContext, type WhyReport } from '../api/links/why.js';
import { fork } from '../api/write/branch-ops.js';
import { shortId } from '../core/ids.js';
import { NotFoundError, UsageError } from '../errors/index.js';
import { exportJson, forkJson, whyJson } from '../output/records.js';
import { visible, visibleLines } from '../output/style.js';
import type { CommandIO } from '../output/io.js';
import { defineCommand } from './command.js';

interface Flags {
  repo?: string;
  limit?: string;
  context?: string;
  fork?: string;
  export?: string;
}

type Done = { report: WhyReport; forked?: { branch: string; oid: string }; exported?: ExportResult };

/** Lines of one entry's text shown on a terminal; --json and --limit 0 give the rest. */
const TEXT_LINES = 12;

export default defineCommand({
  name: 'why',
  summary: 'the contexts that made a code commit, how each is known, and the conversation that led to it',
  description:
    'REV is a commit of the code repository (the work tree of the current directory, or --repo DIR). Each context is recorded (a link record in the store), verified (named by a Ctx-Context line and its tool calls wrote the files or lines), matched (found by the lines it wrote) or claimed (named, but its tool calls never touched the commit, or the store does not hold it: reported, never acted on). Exits 0 when no context made the commit (nothing on stdout, a note on stderr), 4 when REV names no commit.',
  args: [{ name: 'rev', description: 'a commit of the code repository (default HEAD)' }],
  options: [
    { flags: '--repo <dir>', description: 'the code repository (default: the current directory)', values: 'file' },
    { flags: '--limit <n>', description: `the last N entries of each conversation slice (default ${DEFAULT_LIMIT}; 0: all)` },
    { flags: '--context <id>', description: 'with --fork or --export: which context, when several made the commit' },
    { flags: '--fork <name>', description: 'fork the context into branch NAME and print the branch' },
    { flags: '--export <runtime>', description: 'write the context as a session of RUNTIME and print its resume command', values: 'runtime:export' },
  ],
  examples: ['ctx why', 'ctx why HEAD~2 --json', 'ctx why 1a2b3c4 --limit 0', 'ctx why HEAD --fork review/why-retry', 'ctx why HEAD --export claude-code', 'ctx why HEAD~1 --fork review/why --context 3f6c2a9e'],
  async run(io, [rev]: [string | undefined], flags: Flags): Promise<Done> {
    const limit = flags.limit === undefined ? DEFAULT_LIMIT : Number(flags.limit);
    if (!Number.isInteger(limit) || limit < 0) throw new UsageError(`--limit takes a whole number, not '${flags.limit}'`);
    if (flags.context !== undefined && flags.fork === undefined && flags.export === undefined) throw new UsageError('--context goes with --fork or --export');
    const codeCwd = resolve(io.cwd, flags.repo ?? '.');
    return io.withRepo(false, async (repo) => {
      const report = await why(repo, codeCwd, rev ?? 'HEAD', { limit });
      if (flags.fork === undefined && flags.export === undefined) return { report };
      const c = chosen(report, flags.context);
      const done: Done = { report };
      if (flags.fork !== undefined) done.forked = await fork(repo, c.id, flags.fork);
      if (flags.export !== undefined) done.exported = await exportSession(repo, flags.export, c.id, { env: io.env, cwd: io.cwd, write: true });
      return done;
    });
  },
  async print(io, done) {
    const { report, forked, exported } = done;
    if (forked || exported) {
      if (io.flags.json) {
        if (forked) io.json(forkJson(forked.branch, forked.oid));
        if (exported) io.json(exportJson(exported.sessionId, exported.path!, exported.command, exported.branch));
        return;
      }
      if (forked) io.out(`${forked.branch}\n`);
      if (exported) {
        io.note(`wrote ${exported.path}${exported.cwd ? `; run it in ${exported.cwd}` : ''}`);
        io.out(`${exported.command}\n`);
      }
      return;
    }
    if (report.contexts.length === 0) io.note(`no context in the store made ${report.commit.sha.slice(0, 12)}`);
    if (io.flags.json) {
      for (const c of report.contexts) io.json(whyJson(report, c));
      return;
    }
    if (report.contexts.length) await io.page(render(io, report));
  },
});

/** The context --fork and --export act on: --context's, else the only one the store holds that is not a mere claim. */
function chosen(report: WhyReport, id: string | undefined): WhyContext {
  const held = report.contexts.filter((c) => c.inStore);
  if (id !== undefined) {
    const hex = id.replace(/^ctx-/, '').toLowerCase();
    const found = held.filter((c) => c.context.startsWith(hex));
    if (found.length === 1 && hex.length >= 4) return found[0];
    throw new NotFoundError(`--context ${id} is none of the contexts that made ${report.commit.sha.slice(0, 12)} (${held.map((c) => shortId(c.context)).join(', ') || 'none in the store'})`);
  }
  const made = held.filter((c) => c.known !== 'claimed');
  if (made.length === 1) return made[0];
  if (made.length === 0) throw new NotFoundError(`no context in the store made ${report.commit.sha.slice(0, 12)}`);
  throw new UsageError(`${made.length} contexts made ${report.commit.sha.slice(0, 12)}: choose one with --context (${made.map((c) => shortId(c.context)).join(', ')})`);
}

function render(io: CommandIO, r: WhyReport): string {
  const c = io.chalk;
  const subject = r.commit.message.split('\n')[0];
  const lines = [c.yellow(`commit ${r.commit.sha}`) + ` ${visible(subject)}`, `Author: ${visible(`${r.commit.author.name} <${r.commit.author.email}>`)}  ${r.commit.author.date}`];
  for (const f of r.files) lines.push(`  ${f.status.padEnd(2)} ${visible(f.path)}`);
  for (const x of r.contexts) lines.push('', ...renderContext(io, r, x));
  return `${lines.join('\n')}\n`;
}

function renderContext(io: CommandIO, r: WhyReport, x: WhyContext): string[] {
  const c = io.chalk;
  const how = x.known === 'claimed' ? c.red(x.inStore ? 'claimed, unverified' : 'claimed, not in the store') : x.known === 'matched' ? c.cyan('matched') : c.green(x.record?.how === 'rewritten' ? 'recorded (rewritten)' : x.known);
  const lines = (x.known === 'verified' || x.known === 'matched') && x.lines ? ` (wrote ${x.lines} of its added lines)` : '';
  const out = [`${c.yellow(`context ${x.id}`)} ${how}${lines}`];
  const field = (k: string, v: string | null) => v !== null && out.push(`  ${k.padEnd(10)}${visible(v)}`);
  field('session', x.session);
  field('branch', x.branch);
  field('runtime', x.runtime && x.runtime.title);
  field('model', x.model);
  field('principal', x.principal);
  field('author', x.author);
  if (x.via !== r.commit.sha) field('via', `${x.via} (cherry-picked from)`);
  if (x.record) field('recorded', `${x.record.at} by ${x.record.by}`);
  if (x.files.length) field('files', x.files.join(', '));
  if (!x.inStore || x.session === null) return out;
  out.push(`  ${'since'.padEnd(10)}${x.since ? `${x.since} (its previous linked code commit)` : x.total === null ? 'further back than the entries read' : 'the start of the session'}`);
  if (x.total === null) out.push(c.dim(`  … earlier entries (--limit 0 shows all)`));
  else if (x.total > x.entries.length) out.push(c.dim(`  … ${x.total - x.entries.length} earlier entries (--limit 0 shows all)`));
  for (const e of x.entries) out.push(...entryLines(io, e));
  return out;
}

const LABEL: Record<SliceEntry['kind'], string> = { prompt: 'user', text: 'assistant', reasoning: 'reasoning', tool: 'tool' };

function entryLines(io: CommandIO, e: SliceEntry): string[] {
  const c = io.chalk;
  const head = e.kind === 'tool' ? `${e.tool} ${(e.paths ?? []).join(', ')}` : LABEL[e.kind];
  const colour = e.kind === 'prompt' ? c.bold : e.kind === 'reasoning' ? c.dim : e.kind === 'tool' ? c.magenta : (s: string) => s;
  const body = visibleLines(e.text).replace(/\t/g, '  ').split('\n');
  const shown = e.kind === 'tool' ? [] : body.slice(0, TEXT_LINES);
  const out = [`  ${c.dim(`${shortId(e.commit.slice(4))}:${e.entry}`)} ${colour(visible(head))}${e.kind === 'tool' && e.text ? c.dim(` ${visible(e.text)}`) : ''}`];
  for (const l of shown) out.push(`      ${colour(l)}`);
  if (body.length > shown.length && e.kind !== 'tool') out.push(c.dim(`      … ${body.length - shown.length} more lines (--json shows them)`));
  return out;
}
