// `ctx files`: which sessions and commits read, edited, wrote or ran a command on a path. Tool calls
// are read through the neutral model; the tools' argument shapes (Claude Code, Codex, Gemini CLI)
// are listed here by tool name, and a path matches by a suffix of its components either way, so a
// relative query finds absolute tool paths and the other way round.
import { fullId } from '../../core/ids.js';
import { isRecord, type ToolCallBlock } from '../../core/neutral.js';
import { UsageError } from '../../errors/index.js';
import { rawCheck, requiredLiteral } from '../../core/grep-match.js';
import { scanCommits, searchedTips } from './grep.js';
import type { RepoContext } from '../repo/repo-context.js';

export type TouchAction = 'read' | 'edit' | 'write' | 'run';

export interface FileTouch {
  /** the path as the tool named it */
  path: string;
  /** `ctx-<40 hex>` */
  commit: string;
  branch: string;
  /** meta.json session_id */
  session: string;
  /** index of the tool call's message among the messages of the commit's artifact */
  entry: number;
  /** the tool's name */
  tool: string;
  action: TouchAction;
  /** the tool call's own time when its format records one, else its commit's created_at */
  at: string;
}

/** Tools that name one file in an argument: tool → [argument, action]. */
const FILE_TOOLS: Record<string, [string[], TouchAction]> = {
  Read: [['file_path'], 'read'],
  NotebookRead: [['notebook_path'], 'read'],
  Edit: [['file_path'], 'edit'],
  MultiEdit: [['file_path'], 'edit'],
  NotebookEdit: [['notebook_path'], 'edit'],
  Write: [['file_path'], 'write'],
  read_file: [['absolute_path', 'file_path', 'path'], 'read'],
  read_many_files: [['paths'], 'read'],
  write_file: [['file_path', 'absolute_path', 'path'], 'write'],
  replace: [['file_path', 'absolute_path', 'path'], 'edit'],
};

/** Tools that run a command: tool → the arguments holding it (a string, or argv). */
const COMMAND_TOOLS: Record<string, string[]> = {
  Bash: ['command'],
  shell: ['command'],
  exec_command: ['cmd'],
  local_shell: ['command'],
  run_shell_command: ['command'],
};

/** The files a tool call touches and how. */
export function touchesOf(call: Pick<ToolCallBlock, 'name' | 'input'>): { path: string; action: TouchAction }[] {
  const input = isRecord(call.input) ? call.input : {};
  const file = FILE_TOOLS[call.name];
  if (file) {
    const [keys, action] = file;
    const key = keys.find((k) => input[k] !== undefined);
    const v = key === undefined ? undefined : input[key];
    return (Array.isArray(v) ? v : [v]).filter((p): p is string => typeof p === 'string' && p !== '').map((path) => ({ path, action }));
  }
  if (call.name === 'apply_patch') return patchTouches(typeof call.input === 'string' ? call.input : String(input.input ?? input.patch ?? ''));
  const cmdKeys = COMMAND_TOOLS[call.name];
  if (!cmdKeys) return [];
  const raw = input[cmdKeys[0]] ?? (isRecord(input.action) ? input.action.command : undefined);
  const command = Array.isArray(raw) ? raw.map(String).join(' ') : typeof raw === 'string' ? raw : '';
  const patched = patchTouches(command);
  if (patched.length) return patched;
  return [...new Set(commandWords(command))].map((path) => ({ path, action: 'run' as const }));
}

/** The files an apply_patch names: `*** Update File:`, `*** Delete File:` (edit) and `*** Add File:` (write). */
function patchTouches(patch: string): { path: string; action: TouchAction }[] {
  const out: { path: string; action: TouchAction }[] = [];
  for (const m of patch.matchAll(/^\*\*\* (Update|Add|Delete) File: (.+)$|^\*\*\* Move to: (.+)$/gm))
    out.push({ path: (m[2] ?? m[3]).trim(), action: m[1] === 'Add' || m[3] ? 'write' : 'edit' });
  return out;
}

/** Words of a shell command that may be paths: unquoted, redirections stripped. */
function commandWords(command: string): string[] {
  return command
    .split(/[\s;|&()]+/)
    .map((w) => w.replace(/^[<>0-9]*[<>]+/, '').replace(/^['"]|['"]$/g, ''))
    .filter((w) => /[A-Za-z0-9]/.test(w) && !w.startsWith('-'));
}

/** Path components, `.` and empty ones dropped. */
const components = (p: string) => p.split(/[\\/]+/).filter((c) => c !== '' && c !== '.');

/** Whether one path's components end with the other's (a relative path and an absolute one name the same file). */
export function samePath(query: string[], path: string): boolean {
  const q = components(path);
  if (q.length === 0) return false;
  const [short, long] = q.length <= query.length ? [q, query] : [query, q];
  return short.every((c, i) => c === long[long.length - short.length + i]);
}

/** Every tool call on the branches (default: every branch) that touched `path`, newest first. */
export async function filesTouched(ctx: RepoContext, path: string, o: { branches?: string[] } = {}): Promise<FileTouch[]> {
  const query = components(path);
  if (query.length === 0) throw new UsageError(`files: not a path: '${path}'`);
  const name = query[query.length - 1];
  const mayHold = rawCheck(requiredLiteral(name, true), false);
  const out: FileTouch[] = [];
  for await (const c of scanCommits(ctx, await searchedTips(ctx, o), mayHold, true)) {
    for (let entry = c.from; entry < c.messages.length; entry++) {
      const m = c.messages[entry];
      for (const b of m.content) {
        if (b.type !== 'tool_call') continue;
        for (const t of touchesOf(b))
          if (samePath(query, t.path))
            out.push({ path: t.path, commit: fullId(c.oid), branch: c.branch, session: c.meta!.session_id, entry, tool: b.name, action: t.action, at: m.timestamp ?? c.meta!.created_at });
      }
    }
  }
  const seen = new Set<string>();
  return out
    .filter((t) => {
      const key = `${t.commit} ${t.entry} ${t.tool} ${t.action} ${t.path}`;
      return !seen.has(key) && seen.add(key);
    })
    .sort((a, b) => (a.at !== b.at ? (a.at < b.at ? 1 : -1) : a.commit !== b.commit ? (a.commit < b.commit ? -1 : 1) : b.entry - a.entry));
}
