// Where Gemini CLI keeps its files: its home (`$GEMINI_CLI_HOME`, else the user's), a project's
// chats directory `~/.gemini/tmp/<project>/chats/`, and the project registry that names it.
// A project's directory name is registered in `~/.gemini/projects.json` (`{"projects": {<cwd>: <slug>}}`),
// and a `.project_root` file in `tmp/<slug>/` and `history/<slug>/` says which directory owns it.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { BadInputError } from '../../errors/index.js';
import type { ExportOptions, Exported } from '../../api/capture/runtime.js';
import { writeAtomic } from '../session-file.js';

const MARKER = '.project_root';

/** The directory `.gemini/` is in: `$GEMINI_CLI_HOME`, else `$HOME`. */
export function geminiHome(env: NodeJS.ProcessEnv = process.env): string {
  return env.GEMINI_CLI_HOME || env.HOME || homedir();
}

/** `session-<time>-<first 8 of the id>.jsonl`, as Gemini CLI names a new session (time to the minute). */
export function sessionFileName(sessionId: string, time: string): string {
  return `session-${time.slice(0, 16).replace(/:/g, '-')}-${sessionId.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 8)}.jsonl`;
}

/**
 * Where `gemini --resume` run in `e.cwd` looks: the project's chats directory, registered as Gemini
 * CLI registers it; the file is named for the session's start time (its first record's).
 */
export function exportPath(e: Exported, opts: ExportOptions): string {
  const first = Buffer.from(e.bytes.subarray(0, Buffer.from(e.bytes).indexOf(0x0a))).toString('utf8');
  const name = sessionFileName(e.sessionId, (JSON.parse(first) as { startTime: string }).startTime);
  if (opts.dir) return join(resolve(opts.dir), name);
  return join(projectDir(join(geminiHome(opts.env), '.gemini'), e.cwd ?? process.cwd()), 'chats', name);
}

/** The project's `tmp/<slug>` directory, registering the project when Gemini CLI has not yet. */
function projectDir(gemini: string, cwd: string): string {
  const registryPath = join(gemini, 'projects.json');
  const bases = [join(gemini, 'tmp'), join(gemini, 'history')];
  const registry = readRegistry(registryPath);
  // Gemini CLI keeps a registered name only while no `.project_root` names another directory
  const owns = (slug: string) => bases.every((b) => ownerOf(join(b, slug)) !== 'other');
  let slug = registry.projects[cwd];
  if (slug === undefined || !owns(slug)) {
    const taken = new Set(Object.values(registry.projects));
    const base = slugify(basename(cwd));
    for (let n = 0; ; n++) {
      slug = n === 0 ? base : `${base}-${n}`;
      if (!taken.has(slug) && bases.every((b) => ownerOf(join(b, slug!)) !== 'other')) break;
    }
    registry.projects[cwd] = slug;
    writeAtomic(registryPath, JSON.stringify(registry, null, 2));
  }
  for (const b of bases) {
    mkdirSync(join(b, slug), { recursive: true });
    if (ownerOf(join(b, slug)) === null) writeFileSync(join(b, slug, MARKER), cwd, { flag: 'wx' });
  }
  return join(bases[0], slug);

  function ownerOf(dir: string): 'mine' | 'other' | null {
    const marker = join(dir, MARKER);
    if (!existsSync(marker)) return null;
    return readFileSync(marker, 'utf8').trim() === cwd ? 'mine' : 'other';
  }
}

function readRegistry(path: string): { projects: Record<string, string> } {
  if (!existsSync(path)) return { projects: {} };
  try {
    const v = JSON.parse(readFileSync(path, 'utf8'));
    if (v && typeof v === 'object' && v.projects && typeof v.projects === 'object' && !Array.isArray(v.projects)) return v;
  } catch {}
  throw new BadInputError(`${path} is not Gemini CLI's project registry; nothing written`);
}

function slugify(text: string): string {
  return (
    text
      .toLowerCase()
      .replace(/[^a-z0-9]/g, '-')
      .replace(/-+/g, '-')
      .replace(/^-|-$/g, '') || 'project'
  );
}
