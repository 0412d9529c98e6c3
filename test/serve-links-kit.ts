// A store and a code repository linked as ctx's git hooks would leave them: a Claude Code session
// wrote src/auth.ts, the commit of it names the session's context and its note records the link,
// and a person then added a line by hand in a commit of their own.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ctx, git, newStore, tempDir } from './helpers.js';
import { claudeTranscript, commitFiles, newCodeRepo } from './why-kit.js';
import { FIXED } from './serve-kit.js';
import { RepoContext } from '../src/api/repo/repo-context.js';
import { recordLink } from '../src/api/links/records.js';

export const SESSION = 'aaaaaaaa-1111-4222-8333-444455556666';
export const AUTH = 'export function refresh() {\n  return retryOnce(fetchToken);\n}\n';
export const BY_HAND = '// reviewed by Bob\n';
export const PROMPT = 'Make refresh retry once.';
export const THINKING = 'Wrap fetchToken in retryOnce.';

export interface LinkedWorld {
  store: string;
  code: string;
  /** the context commit (40 hex) the session's import ended at */
  context: string;
  /** the code commit the session's edit went into, and the one a person made after it */
  agentCommit: string;
  humanCommit: string;
}

export async function linkedWorld(): Promise<LinkedWorld> {
  const store = newStore();
  const code = newCodeRepo(join(tempDir(), 'app'));
  const file = join(tempDir(), `${SESSION}.jsonl`);
  writeFileSync(file, claudeTranscript(SESSION, code, [{ prompt: PROMPT, thinking: THINKING, text: 'Done.', writes: [{ path: 'src/auth.ts', content: AUTH }] }]));
  const r = ctx(store, ['import', 'claude-code', file, '-b', 'alice/auth'], { env: FIXED });
  if (r.code !== 0) throw new Error(r.stderr);
  const context = git(store, ['rev-parse', 'refs/heads/alice/auth']).trim();
  const agentCommit = commitFiles(code, { 'src/auth.ts': AUTH }, `Retry the token refresh once\n\nCtx-Context: ctx-${context}\n`);
  const repo = new RepoContext(store, { env: { ...process.env, ...FIXED } });
  try {
    await recordLink(repo, context, { code: agentCommit, how: 'recorded', files: ['src/auth.ts'] });
  } finally {
    await repo.close();
  }
  const humanCommit = commitFiles(code, { 'src/auth.ts': AUTH + BY_HAND }, 'Note the review\n');
  return { store, code, context, agentCommit, humanCommit };
}
