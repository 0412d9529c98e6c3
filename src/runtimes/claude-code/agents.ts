// A session's subagent transcripts, found next to its transcript (no repo access: this runs on every call).
import { closeSync, openSync, readFileSync, readSync, readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { hooksDir } from '../../store/capture-state.js';
import { derivedDir, writeDerived } from '../../store/derived.js';

export interface AgentFile {
  id: string;
  path: string;
}

export const AGENT_FILE = /^agent-(.+)\.jsonl$/;

/**
 * A session's subagent transcripts: `<dir>/<session>/subagents/agent-<id>.jsonl` (current layout) and
 * `<dir>/agent-<id>.jsonl` whose lines carry this session's id (older layout, shared by the project).
 */
export function agentFiles(gitdir: string, transcript: string, session: string): AgentFile[] {
  const dir = dirname(transcript);
  const out = new Map<string, AgentFile>();
  for (const name of new Set([session, basename(transcript).replace(/\.jsonl$/, '')])) {
    const sub = join(dir, name, 'subagents');
    for (const f of list(sub)) {
      const m = AGENT_FILE.exec(f);
      if (m) out.set(m[1], { id: m[1], path: join(sub, f) });
    }
  }
  const old = list(dir).filter((f) => AGENT_FILE.test(f));
  if (old.length === 0) return [...out.values()];
  const cacheFile = join(hooksDir(gitdir), `${session.replace(/[^A-Za-z0-9._-]/g, '_')}.foreign.json`);
  let foreign: string[] = [];
  try {
    foreign = JSON.parse(readFileSync(cacheFile, 'utf8'));
  } catch {}
  const known = new Set(foreign);
  let changed = false;
  for (const f of old) {
    if (known.has(f)) continue;
    const id = AGENT_FILE.exec(f)![1];
    const owner = sessionOf(join(dir, f));
    if (owner === session) {
      if (!out.has(id)) out.set(id, { id, path: join(dir, f) });
    } else if (owner !== null) {
      foreign.push(f);
      changed = true;
    }
  }
  if (changed) {
    derivedDir(gitdir, 'hooks');
    writeDerived(cacheFile, `${JSON.stringify(foreign)}\n`);
  }
  return [...out.values()];
}

function list(dir: string): string[] {
  try {
    return readdirSync(dir).sort();
  } catch {
    return [];
  }
}

/** The `sessionId` on an agent file's first line; null while it has no whole first line. */
function sessionOf(file: string): string | null {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return null;
  }
  try {
    const buf = Buffer.alloc(16384);
    const n = readSync(fd, buf, 0, buf.length, 0);
    const m = /"sessionId":"([^"]*)"/.exec(buf.toString('utf8', 0, n));
    return m ? m[1] : n > 0 && buf.subarray(0, n).includes(0x0a) ? '' : null;
  } finally {
    closeSync(fd);
  }
}
