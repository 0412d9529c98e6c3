// `ctx import gemini-cli FILE`: a Gemini CLI chat recording as one snapshot commit. Gemini rewrites
// the file whole on every save, so importing a later save of the same chat adds a snapshot on top
// of the branch; a save identical to the tip writes nothing.
import { basename } from 'node:path';
import { BadInputError } from '../../errors/index.js';
import { show } from '../../api/read.js';
import type { RepoContext } from '../../api/repo-context.js';
import { checkpoint, prepareCommit, type CommitFields } from '../../api/write.js';
import { parseGeminiChat } from '../../formats/gemini-chat.js';
import { refs } from '../../store/refs.js';
import { readTranscript } from '../../api/files.js';
import type { ImportOptions, ImportResult } from '../../api/runtime.js';

export const GEMINI_FORMAT = 'gemini-cli-chat-v1';

export const sessionBranch = (session: string) => `gemini/${session}`;

export async function importGemini(ctx: RepoContext, file: string, opts: ImportOptions = {}): Promise<ImportResult> {
  const bytes = readTranscript(file);
  if (bytes.length === 0) throw new BadInputError(`nothing to import: ${file} is empty`);
  const chat = parseGeminiChat(bytes);
  const session = opts.fields?.session ?? (typeof chat.sessionId === 'string' && chat.sessionId ? chat.sessionId : basename(file).replace(/\.json$/, ''));
  const branch = opts.branch ?? sessionBranch(session);
  const lastUser = [...chat.messages].reverse().find((m) => m?.type === 'user' && typeof m.content === 'string');
  const fields: CommitFields = {
    template: 'gemini-cli',
    trigger: 'import',
    summary: lastUser ? firstLine(lastUser.content as string) : '',
    ...opts.fields,
    session,
    type: 'snapshot',
    createdAt: validTime(chat.lastUpdated) ?? validTime(chat.startTime) ?? opts.fields?.createdAt,
    // the file's name, not its path: the same chat gives the same commit ids on any machine
    source: { file: basename(file), offset: 0, length: bytes.length },
  };
  const tip = ctx.refs.read(refs.branch(branch));
  if (tip !== null) {
    // compare what would be stored (after secret redaction) with what the tip stores
    const [{ meta: tipMeta }, { meta }] = await Promise.all([show(ctx, tip), prepareCommit(ctx, GEMINI_FORMAT, bytes, fields)]);
    if (tipMeta.artifact === meta.artifact) return { branch, session, bytes: bytes.length, commits: [], unchanged: true, tip };
  }
  opts.onProgress?.(1, 1);
  const written = await checkpoint(ctx, { ...fields, branch, format: GEMINI_FORMAT, artifact: bytes, parent: tip ?? undefined });
  return { branch, session, bytes: bytes.length, commits: [written], unchanged: false, tip: written.oid };
}

function firstLine(text: string): string {
  const line = text.trim().split('\n')[0].trim();
  return line.length > 72 ? line.slice(0, 72).trimEnd() : line;
}

function validTime(t: unknown): string | undefined {
  return typeof t === 'string' && !Number.isNaN(Date.parse(t)) ? t : undefined;
}
