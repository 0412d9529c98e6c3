// The web view's routes between code and contexts: a code commit with its diff and the contexts that
// made it (`ctx why --json`'s records), and a file's blame (`ctx blame --json`'s); the code commits
// a context led to are its show record's `links`. Every parameter is checked before git or the
// store sees it (codeSha, codePath, lineRange); without a code repository these routes say so.
import { codeDiff, codeFileInside, codePath, codeSha, resolveCodeSha, type CodeRepo } from '../api/links/code-repo.js';
import { blame } from '../api/links/blame.js';
import { why } from '../api/links/why.js';
import type { RepoContext } from '../api/repo/repo-context.js';
import { NotFoundError, UsageError } from '../errors/index.js';
import { blameLineJson, codeCommitJson, whyJson } from '../output/records.js';

type Lines = unknown[];

/** `/code/<4 to 64 hex>` → the sha as typed. */
export function codePermalink(path: string): string | null {
  return /^\/code\/([0-9a-fA-F]{4,64})$/.exec(path)?.[1] ?? null;
}

/** Whether a code commit page names a commit of the code repository (else the page is a 404). */
export async function codePageExists(code: CodeRepo | null, sha: string): Promise<boolean> {
  if (code === null) return false;
  try {
    await resolveCodeSha(code, sha);
    return true;
  } catch (e) {
    if (e instanceof NotFoundError) return false;
    throw e;
  }
}

function needCode(code: CodeRepo | null): CodeRepo {
  if (code === null) throw new NotFoundError('no code repository: start ctx serve in a git work tree, or give --code PATH');
  return code;
}

/** The records of a link route; null for a path that is none. */
export async function linkRoute(repo: RepoContext, code: CodeRepo | null, path: string, q: URLSearchParams): Promise<Lines | null> {
  switch (path) {
    case '/api/code': {
      const typed = codeSha(param(q, 'sha'));
      const c = needCode(code);
      const sha = await resolveCodeSha(c, typed);
      const made = await why(repo, c.top, sha);
      return [codeCommitJson(made.commit, await codeDiff(c, sha)), ...made.contexts.map((x) => whyJson(made, x))];
    }
    case '/api/blame': {
      const typed = codePath(param(q, 'file'));
      const range = q.has('lines') ? lineRange(param(q, 'lines')) : undefined;
      const c = needCode(code);
      const r = await blame(repo, { file: codeFileInside(c, typed), cwd: c.top, range });
      // what git blamed is the file asked for, in this work tree
      if (r.top !== c.top || r.path !== typed) throw new UsageError(`file takes a path inside the work tree ${c.top}, and ${typed} is not one`);
      return r.lines.map((l) => blameLineJson(r.path, l));
    }
  }
  return null;
}

function param(q: URLSearchParams, name: string): string {
  const v = q.get(name);
  if (v === null || v === '') throw new UsageError(`${name} is missing`);
  if (q.getAll(name).length > 1) throw new UsageError(`${name} is given more than once`);
  return v;
}

/** `LINE` or `LINE,END`, lines from 1. */
function lineRange(v: string): [number, number] {
  const m = /^(\d{1,9})(?:,(\d{1,9}))?$/.exec(v);
  const start = Number(m?.[1]);
  const end = m?.[2] === undefined ? start : Number(m[2]);
  if (!m || start < 1 || end < start) throw new UsageError(`lines takes LINE or LINE,END (from 1, END at least LINE), not '${v.slice(0, 40)}'`);
  return [start, end];
}
