// The web view's JSON API: every answer is the record the matching command prints with --json
// (output/records.ts), one per line as the CLI prints them; what no command prints (a page of
// messages, a diff, a resume command, a graph line) has its own record there too.
import { grep, GREP_ROLES, type GrepOptions } from '../api/search/grep.js';
import { grepPattern } from '../core/grep-match.js';
import { readTipMeta } from '../api/read/context-reader.js';
import { defaultSince, materialize } from '../api/read/materialize.js';
import { filesTouched } from '../api/search/touched.js';
import { branchList, log, show } from '../api/read/read.js';
import type { RepoContext } from '../api/repo/repo-context.js';
import { exportSession, runtimeRegistry } from '../api/capture/sessions.js';
import { fullId } from '../core/ids.js';
import { CtxError, UsageError } from '../errors/index.js';
import { renderGraph } from '../output/graph.js';
import { shellQuote } from '../core/shell.js';
import { branchJson, commitJson, fileTouchJson, graphLineJson, grepJson, logJson, materializedJson, messagesJson, partJson, resumeJson, runtimeJson, searchHitJson } from '../output/records.js';
import type { MessageCache } from './messages.js';
import { compare, CONTINUATION } from './compare.js';
import { edits } from './edits.js';
import { usageRecords } from './usage.js';
import { cutMessage, partPiece, PIECE_LIMIT } from './parts.js';
import { codePermalink, linkRoute } from './links.js';
import type { CodeRepo } from '../api/links/code-repo.js';
import { sessionRecords } from './sessions.js';

export interface Reply {
  status: number;
  type: string;
  body: string | Uint8Array;
  headers?: Record<string, string>;
}

/** Paths the front end draws itself (the page is index.html): the sessions, the graph, a commit by id, a comparison (/diff or /compare), search, file history, usage, a code commit, a blame. */
export function isPageRoute(path: string): boolean {
  return path === '/' || path === '/graph' || path === '/diff' || path === '/compare' || path === '/search' || path === '/usage' || path === '/files' || path === '/blame' || permalink(path) !== null || codePermalink(path) !== null;
}

/** `/ctx-<id prefix>` → the id as typed. */
export function permalink(path: string): string | null {
  return /^\/(ctx-[0-9a-fA-F]{4,40})$/.exec(path)?.[1] ?? null;
}

/** Commits on the graph page when `n` is not given: the newest, in topological order. */
const GRAPH_LIMIT = 1000;
/** Messages in one page at most. */
const PAGE_LIMIT = 500;

const lines = (records: readonly unknown[]): Reply => ({ status: 200, type: 'application/x-ndjson; charset=utf-8', body: records.map((r) => `${JSON.stringify(r)}\n`).join('') });

/** `cwd`: where a resumed session runs when its context names no directory; `code`: the code repository read, if any. */
export async function api(repo: RepoContext, cache: MessageCache, url: URL, cwd: string, code: CodeRepo | null = null): Promise<Reply> {
  const q = url.searchParams;
  const linked = await linkRoute(repo, code, url.pathname, q);
  if (linked !== null) return lines(linked);
  switch (url.pathname) {
    case '/api/sessions':
      return lines(await sessionRecords(repo));
    case '/api/branches': {
      const { branches } = await branchList(repo);
      return lines(branches.map(branchJson));
    }
    case '/api/log': {
      const id = q.get('id') ?? undefined;
      return lines((await log(repo, id, { all: id === undefined, limit: count(q, 'n') })).map(logJson));
    }
    case '/api/graph': {
      const records = await log(repo, undefined, { all: true, limit: count(q, 'n') ?? GRAPH_LIMIT });
      // each commit's line ends with its index, after a NUL the graph never draws
      const index = new Map(records.map((r, i) => [r, i]));
      const drawn = renderGraph(records, (r) => `\0${index.get(r)}`).split('\n').filter((l) => l !== '');
      return lines(drawn.map((l) => (l.includes('\0') ? graphLineJson(l.slice(0, l.indexOf('\0')).trimEnd(), records[Number(l.slice(l.indexOf('\0') + 1))]) : graphLineJson(l, null))));
    }
    case '/api/show':
      return lines([commitJson(await show(repo, required(q, 'id')))]);
    case '/api/materialize': {
      const id = required(q, 'id');
      return lines([materializedJson(await materialize(repo, id, { since: defaultSince(repo, id, {}) }), true)]);
    }
    case '/api/messages': {
      const { id, messages, own } = await cache.get(repo, required(q, 'id'), q.get('stop') ?? undefined);
      const offset = count(q, 'offset') ?? 0;
      const limit = Math.min(count(q, 'limit') ?? 100, PAGE_LIMIT);
      // a part past 64 Ki characters goes out cut (`cut` says how long it is): the page asks for the rest
      return lines([messagesJson(id, messages.length, offset, own, messages.slice(offset, offset + limit).map((m) => cutMessage(m)))]);
    }
    case '/api/part': {
      const { id, messages } = await cache.get(repo, required(q, 'id'), q.get('stop') ?? undefined);
      const entry = count(q, 'entry') ?? 0;
      if (entry >= messages.length) throw new UsageError(`entry ${entry} is past the context's end (${messages.length} messages)`);
      return lines([partJson(id, entry, required(q, 'part'), partPiece(messages[entry], required(q, 'part'), count(q, 'offset') ?? 0, count(q, 'limit') ?? PIECE_LIMIT))]);
    }
    case '/api/diff':
      return lines([await compare(repo, cache, required(q, 'a'), required(q, 'b'), q.get('stop') ?? undefined, Math.min(count(q, 'limit') ?? CONTINUATION, PAGE_LIMIT))]);
    case '/api/grep': {
      const role = q.get('role') ?? undefined;
      if (role !== undefined && !(GREP_ROLES as readonly string[]).includes(role)) throw new UsageError(`role takes ${GREP_ROLES.join(', ')}, not '${role}'`);
      const o: GrepOptions = { pattern: required(q, 'q'), branches: q.getAll('branch'), all: flag(q, 'all'), role: role as GrepOptions['role'], since: q.get('since') ?? undefined, ignoreCase: flag(q, 'i'), fixed: flag(q, 'fixed'), word: flag(q, 'w'), limit: count(q, 'n') };
      // mark=1 (the search page): each hit says where its snippet's match is, so the page runs no pattern itself
      const marks = flag(q, 'mark') ? grepPattern(o) : null;
      const hits = [];
      for await (const hit of grep(repo, o)) hits.push(marks ? searchHitJson(hit, marks.find(hit.snippet)) : grepJson(hit));
      return lines(hits);
    }
    case '/api/files':
      return lines((await filesTouched(repo, required(q, 'path'), { branches: q.getAll('branch') })).map(fileTouchJson));
    case '/api/edits':
      return lines(await edits(repo, required(q, 'commit'), count(q, 'entry') ?? Number(required(q, 'entry')), required(q, 'path')));
    case '/api/usage':
      return lines(await usageRecords(repo, q.get('by'), q.get('since')));
    case '/api/runtimes':
      return lines((await exporters()).map((r) => runtimeJson(r.name, r.title, r.formats)));
    case '/api/resume':
      return lines(await resumeCommands(repo, required(q, 'id'), q.get('runtime'), cwd));
  }
  throw new UsageError(`no such endpoint: ${url.pathname}`);
}

/** The runtimes that export, in the registry's order. */
async function exporters() {
  return (await (await runtimeRegistry()).allRuntimes()).filter((r) => r.export);
}

/**
 * For every runtime that exports (the one the commit's format belongs to first), or the one named:
 * the command that writes the commit as a new session of it, then the runtime's own resume command,
 * in the session's directory. Each renders the whole session (a 20 MB one: ~0.3 s natively, more
 * translated), so the page asks for one at a time.
 */
async function resumeCommands(repo: RepoContext, spec: string, only: string | null, cwd: string) {
  const oid = await repo.resolve(spec);
  const id = fullId(oid);
  const { format } = await readTipMeta(repo, oid);
  const all = await exporters();
  const runtimes = all.filter((r) => only === null || r.name === only);
  if (only !== null && runtimes.length === 0) throw new UsageError(`runtime takes one that exports (${all.map((r) => r.name).join(', ')}), not '${only}'`);
  runtimes.sort((x, y) => Number(y.formats.includes(format)) - Number(x.formats.includes(format)));
  const out = [];
  for (const r of runtimes) {
    let e;
    try {
      e = await exportSession(repo, r.name, id, { write: false, cwd });
    } catch (err) {
      if (err instanceof CtxError && only === null) continue; // a context this runtime cannot take
      throw err;
    }
    const cd = e.cwd ? ` && cd ${shellQuote(e.cwd)}` : '';
    out.push(resumeJson(r.name, r.title, r.formats.includes(format), `ctx export ${r.name} ${id} --session-id ${e.sessionId}${cd} && ${e.command}`));
  }
  return out;
}

function required(q: URLSearchParams, name: string): string {
  const v = q.get(name);
  if (v === null || v === '') throw new UsageError(`${name} is missing`);
  return v;
}

/** `1`: set; absent: not set. */
function flag(q: URLSearchParams, name: string): boolean | undefined {
  const v = q.get(name);
  if (v === null) return undefined;
  if (v !== '1' && v !== '0') throw new UsageError(`${name} takes 1 or 0, not '${v}'`);
  return v === '1';
}

function count(q: URLSearchParams, name: string): number | undefined {
  const v = q.get(name);
  if (v === null) return undefined;
  if (!/^\d{1,9}$/.test(v)) throw new UsageError(`${name} takes a whole number, not '${v}'`);
  return Number(v);
}
