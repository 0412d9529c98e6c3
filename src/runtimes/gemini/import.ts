// `ctx import gemini-cli FILE`: a Gemini CLI session. A JSONL session (Gemini CLI 0.4x on, appended
// to) becomes delta commits, a commit per prompt and its answer; importing it again later appends
// only its new lines, as live capture does. A chat document (`session-*.json`, older Gemini CLI,
// rewritten whole on every save) is a snapshot commit per save.
import { basename, extname } from 'node:path';
import { catchUpChain } from '../../api/capture/catch-up.js';
import { show } from '../../api/read/read.js';
import type { RepoContext } from '../../api/repo/repo-context.js';
import type { ImportOptions, ImportResult } from '../../api/capture/runtime.js';
import { checkpoint, prepareCommit, type CommitFields } from '../../api/write/write.js';
import { parseGeminiChat } from '../../formats/gemini-chat.js';
import { contentText } from '../../formats/gemini-messages.js';
import { refs } from '../../store/refs.js';
import { importSegments, readNonEmpty, summaryLine } from '../transcript.js';
import { GEMINI_CHAT_FORMAT, GEMINI_JSONL_FORMAT, sessionBranch } from './names.js';
import { splitSession } from './split.js';
import { sessionTranscript } from './transcript.js';

export async function importGemini(ctx: RepoContext, file: string, opts: ImportOptions = {}): Promise<ImportResult> {
  const bytes = readNonEmpty(file);
  return isChatDocument(file, bytes) ? importChat(ctx, file, bytes, opts) : importSession(ctx, file, bytes, opts);
}

/** A `.jsonl` file is a session; another that is one JSON document, or not lines of JSON objects, a chat. */
function isChatDocument(file: string, bytes: Uint8Array): boolean {
  if (extname(file) === '.jsonl') return false;
  try {
    parseGeminiChat(bytes);
    return true;
  } catch {
    // a session's first line is a JSON object on its own; otherwise the chat's own error says why
    const nl = bytes.indexOf(0x0a);
    if (nl === -1 || nl === bytes.length - 1) return true;
    try {
      const first: unknown = JSON.parse(Buffer.from(bytes.subarray(0, nl)).toString('utf8'));
      return first === null || typeof first !== 'object' || Array.isArray(first);
    } catch {
      return true;
    }
  }
}

async function importSession(ctx: RepoContext, file: string, bytes: Uint8Array, opts: ImportOptions): Promise<ImportResult> {
  const segments = splitSession(bytes);
  const session = opts.fields?.session ?? segments.find((s) => s.sessionId)?.sessionId ?? basename(file).replace(/\.jsonl$/, '');
  const branch = opts.branch ?? sessionBranch(session);
  const tip = ctx.refs.read(refs.branch(branch));
  if (tip === null) return importSegments(ctx, { file, bytes, segments, session, branch, template: 'gemini-cli', format: GEMINI_JSONL_FORMAT }, opts);
  // the branch must hold the file's first bytes: what came after them is appended, as the hook would
  const commits = await catchUpChain(ctx, sessionTranscript, branch, tip, file, 'import');
  return { branch, session, bytes: bytes.length, commits, unchanged: commits.length === 0, tip: commits.length ? commits[commits.length - 1].oid : tip };
}

/** A chat document as one snapshot on top of the branch; a save identical to the tip writes nothing. */
async function importChat(ctx: RepoContext, file: string, bytes: Uint8Array, opts: ImportOptions): Promise<ImportResult> {
  const chat = parseGeminiChat(bytes);
  const session = opts.fields?.session ?? (typeof chat.sessionId === 'string' && chat.sessionId ? chat.sessionId : basename(file).replace(/\.json$/, ''));
  const branch = opts.branch ?? sessionBranch(session);
  const lastUser = [...chat.messages].reverse().find((m) => m?.type === 'user' && contentText(m.content).trim() !== '');
  const fields: CommitFields = {
    template: 'gemini-cli',
    trigger: 'import',
    summary: lastUser ? summaryLine(contentText(lastUser.content)) : '',
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
    const [{ meta: tipMeta }, { meta }] = await Promise.all([show(ctx, tip), prepareCommit(ctx, GEMINI_CHAT_FORMAT, bytes, fields)]);
    if (tipMeta.artifact === meta.artifact) return { branch, session, bytes: bytes.length, commits: [], unchanged: true, tip };
  }
  opts.onProgress?.(1, 1);
  const written = await checkpoint(ctx, { ...fields, branch, format: GEMINI_CHAT_FORMAT, artifact: bytes, parent: tip ?? undefined });
  return { branch, session, bytes: bytes.length, commits: [written], unchanged: false, tip: written.oid };
}

function validTime(t: unknown): string | undefined {
  return typeof t === 'string' && !Number.isNaN(Date.parse(t)) ? t : undefined;
}

