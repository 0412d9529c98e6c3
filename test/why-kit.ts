// Building blocks of the `ctx why` tests: a code repository with fixed dates, and Claude Code
// transcripts whose tool calls write files in it.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export const CODE_ENV = {
  GIT_AUTHOR_NAME: 'Alice',
  GIT_AUTHOR_EMAIL: 'alice@example.com',
  GIT_COMMITTER_NAME: 'Alice',
  GIT_COMMITTER_EMAIL: 'alice@example.com',
  GIT_AUTHOR_DATE: '2026-01-03T10:00:00+00:00',
  GIT_COMMITTER_DATE: '2026-01-03T10:00:00+00:00',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
};

/** Native git in a code work tree, dates fixed. */
export function codeGit(dir: string, args: string[], input?: string): string {
  return execFileSync('git', ['-C', dir, ...args], { encoding: 'utf8', input, env: { ...process.env, ...CODE_ENV }, stdio: ['pipe', 'pipe', 'pipe'] });
}

export function newCodeRepo(dir: string): string {
  mkdirSync(dir, { recursive: true });
  codeGit(dir, ['init', '-q', '-b', 'main']);
  writeFileSync(join(dir, 'README.md'), 'hello\n');
  codeGit(dir, ['add', '.']);
  codeGit(dir, ['commit', '-q', '-m', 'Start']);
  return dir;
}

/** Write files and commit them with `message`; the new commit's sha. */
export function commitFiles(dir: string, files: Record<string, string>, message: string): string {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  codeGit(dir, ['add', '.']);
  codeGit(dir, ['commit', '-q', '-F', '-'], message);
  return codeGit(dir, ['rev-parse', 'HEAD']).trim();
}

/** One turn of a transcript: a prompt, reasoning, text, and Write/Edit calls. */
export interface Turn {
  prompt: string;
  thinking?: string;
  text?: string;
  writes?: { path: string; content: string }[];
  edits?: { path: string; old: string; new: string }[];
}

/** A Claude Code transcript (JSONL) of `turns`, in session `session`, working in `cwd`. */
export function claudeTranscript(session: string, cwd: string, turns: Turn[], model = 'claude-opus-4-5'): string {
  const lines: object[] = [];
  let n = 0;
  let parent: string | null = null;
  const uuid = () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`;
  const ts = () => new Date(Date.UTC(2026, 0, 2, 9, 0, n)).toISOString();
  const push = (type: 'user' | 'assistant', message: object) => {
    const id = uuid();
    lines.push({ parentUuid: parent, isSidechain: false, userType: 'external', cwd, sessionId: session, version: '2.1.330', gitBranch: 'main', type, message, uuid: id, timestamp: ts() });
    parent = id;
  };
  turns.forEach((t, i) => {
    push('user', { role: 'user', content: t.prompt });
    const msg = (content: object[]) => ({ model, id: `msg_${i}`, type: 'message', role: 'assistant', content, stop_reason: null });
    if (t.thinking) push('assistant', msg([{ type: 'thinking', thinking: t.thinking, signature: 'sig' }]));
    if (t.text) push('assistant', msg([{ type: 'text', text: t.text }]));
    const calls = [
      ...(t.writes ?? []).map((w) => ({ name: 'Write', input: { file_path: join(cwd, w.path), content: w.content } })),
      ...(t.edits ?? []).map((e) => ({ name: 'Edit', input: { file_path: join(cwd, e.path), old_string: e.old, new_string: e.new } })),
    ];
    calls.forEach((c, j) => {
      const id = `toolu_${i}_${j}`;
      push('assistant', msg([{ type: 'tool_use', id, ...c }]));
      push('user', { role: 'user', content: [{ tool_use_id: id, type: 'tool_result', content: 'ok' }] });
    });
  });
  return lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
}
