// `ctx hooks install|uninstall|status git`: ctx's git hooks in a code repository's hooks directory
// (core.hooksPath honoured: husky, lefthook, the pre-commit framework). A hook already there is
// chained: moved aside to `<name>.ctx-chained`, bytes and mode kept, and run by ctx's script with
// the same arguments and input, its exit status kept; uninstall moves it back. Nothing is written
// through a link: scripts are new files (O_EXCL|O_NOFOLLOW) renamed into place.
import { mkdirSync, readFileSync, realpathSync, renameSync, unlinkSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';
import { shellQuote } from '../../core/shell.js';
import { ConflictError, NotFoundError, UsageError } from '../../errors/index.js';
import { codeRepo } from '../../store/code/repo.js';
import { lstatOrNull, replaceWhole } from '../../store/safe-write.js';

export const GIT_HOOKS = ['prepare-commit-msg', 'post-commit', 'post-rewrite'] as const;
export type GitHookName = (typeof GIT_HOOKS)[number];

/** ctx's script alone, ctx's with the one it chains, none, or a hook ctx did not write. */
export type GitHookState = 'ctx' | 'chained' | 'absent' | 'other';

export interface GitHooksReport {
  /** the hooks directory */
  path: string;
  changed: boolean;
  hooks: Record<GitHookName, GitHookState>;
}

/** The second line of every script ctx writes: how a hook is known to be ctx's. */
export const MARKER = '# ctx git hook: links commits to the contexts that wrote them (ctx hooks install git; remove with ctx hooks uninstall git)';
const CHAINED = '.ctx-chained';
const MAX_SCRIPT = 64 * 1024;

/**
 * ctx's script for one hook. `command` runs ctx (absolute node, real path of the ctx script); what it
 * prints goes nowhere (its errors go to the store's hook.log) and its failure never fails git.
 * post-commit runs no ctx: it queues the commit for the next one (docs/links.md, "The commit queue").
 */
export function hookScript(name: GitHookName, command: string): string {
  const ctx = `${command} hook git ${name} "$@"`;
  const lines = ['#!/bin/sh', MARKER, 'chained="$0.ctx-chained"', 'status=0'];
  if (name === 'post-rewrite') {
    // the rewritten commits on stdin, for both: kept byte for byte (the x keeps trailing newlines)
    lines.push('input=$(cat; echo x)', 'input=${input%x}');
    lines.push(`if [ -x "$chained" ]; then printf '%s' "$input" | "$chained" "$@" || status=$?; fi`);
    lines.push(`printf '%s' "$input" | ${ctx} >/dev/null 2>&1 || true`);
  } else if (name === 'prepare-commit-msg') {
    // a chained hook that fails still fails the commit, as it did before ctx
    lines.push('if [ -x "$chained" ]; then "$chained" "$@" || exit $?; fi');
    lines.push(`${ctx} </dev/null >/dev/null 2>&1 || true`);
  } else {
    lines.push('if [ -x "$chained" ]; then "$chained" "$@" || status=$?; fi');
    // no node: the new commit and what prepare-commit-msg left wait in the queue for the next ctx process (commit-queue.ts)
    lines.push('{ read -r pending; read -r queue; read -r head; } <<EOF', '$(git rev-parse --git-path ctx-pending.json --git-path ctx-queue HEAD 2>/dev/null)', 'EOF');
    lines.push(`if [ -n "$head" ] && [ -f "$pending" ] && IFS= read -r record < "$pending"; then printf '%s %s\\n' "$head" "$record" >> "$queue" && rm -f "$pending"; fi`);
  }
  lines.push('exit $status', '');
  return lines.join('\n');
}

/** `node ctx` as a hook runs it: both absolute and quoted. */
export const ctxCommand = (node: string, script: string) => `${shellQuote(node)} ${shellQuote(script)}`;

/** Whether the file at `path` is a script ctx wrote (a regular file whose second line is the marker). */
function isOurs(path: string): boolean {
  const st = lstatOrNull(path);
  if (!st?.isFile() || st.size > MAX_SCRIPT) return false;
  return readFileSync(path, 'utf8').split('\n')[1] === MARKER;
}

function stateOf(dir: string, name: GitHookName): GitHookState {
  const path = join(dir, name);
  if (isOurs(path)) return lstatOrNull(path + CHAINED) ? 'chained' : 'ctx';
  return lstatOrNull(path) ? 'other' : 'absent';
}

const inside = (root: string, p: string) => {
  const rel = relative(root, p);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
};

/** The real path of `path`, or of its nearest existing ancestor with the rest appended. */
function realOrAncestor(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    const up = dirname(path);
    return up === path ? path : join(realOrAncestor(up), path.slice(up.length + 1));
  }
}

/** The hooks directory of the code repository at `cwd`, refused when it lies outside the repository. */
function hooksDirectory(cwd: string, env: NodeJS.ProcessEnv): string {
  const repo = codeRepo(cwd, env);
  if (!repo) throw new NotFoundError(`${cwd} is not in a git repository: run ctx hooks install git inside the code repository`);
  const real = realOrAncestor(repo.hooks);
  if (!inside(repo.top, real) && !inside(repo.common, real))
    throw new UsageError(`core.hooksPath points outside this repository (${repo.hooks}): ctx installs git hooks only inside it; set core.hooksPath in this repository or unset it, then run again`);
  return real;
}

/** A new file with `text`, executable, renamed over `path` (a link there is replaced, never followed). */
const writeScript = (path: string, text: string) => replaceWhole(path, text, 0o755);

function report(dir: string, changed: boolean): GitHooksReport {
  return { path: dir, changed, hooks: Object.fromEntries(GIT_HOOKS.map((h) => [h, stateOf(dir, h)])) as Record<GitHookName, GitHookState> };
}

export function gitHooksStatus(cwd: string, env: NodeJS.ProcessEnv): GitHooksReport {
  return report(hooksDirectory(cwd, env), false);
}

/** ctx's three scripts in place; a hook already there is chained. Running it again changes nothing. */
export function installGitHooks(cwd: string, env: NodeJS.ProcessEnv, command: string): GitHooksReport {
  const dir = hooksDirectory(cwd, env);
  // every hook is checked before any is touched: a refusal leaves the directory as it was
  for (const name of GIT_HOOKS) {
    const path = join(dir, name);
    if (!isOurs(path) && lstatOrNull(path) && lstatOrNull(path + CHAINED))
      throw new ConflictError(`${path + CHAINED} is already there beside a hook ctx did not write: move one of them away, then run again; nothing changed`);
  }
  mkdirSync(dir, { recursive: true });
  let changed = false;
  for (const name of GIT_HOOKS) {
    const path = join(dir, name);
    const text = hookScript(name, command);
    if (isOurs(path)) {
      if (readFileSync(path, 'utf8') === text) continue;
    } else if (lstatOrNull(path)) renameSync(path, path + CHAINED);
    writeScript(path, text);
    changed = true;
  }
  return report(dir, changed);
}

/** ctx's scripts removed, each chained hook moved back as it was. */
export function uninstallGitHooks(cwd: string, env: NodeJS.ProcessEnv): GitHooksReport {
  const dir = hooksDirectory(cwd, env);
  let changed = false;
  for (const name of GIT_HOOKS) {
    const path = join(dir, name);
    if (!isOurs(path)) continue;
    if (lstatOrNull(path + CHAINED)) renameSync(path + CHAINED, path);
    else unlinkSync(path);
    changed = true;
  }
  return report(dir, changed);
}
