// `ctx import opencode FILE`: a session as `opencode export <id>` prints it, a commit per prompt and
// its answer, a compaction commit per compaction. Imported again later (a newer export of the same
// session), only what is new is appended, as live capture does. opencode's own database is not
// read: at rest its sessions sit in a write-ahead log SQLite readers without opencode's connection
// do not see (measured: a 4 KB opencode.db beside a 1.1 MB opencode.db-wal after `opencode run`).
import { basename } from 'node:path';
import { BadInputError } from '../../errors/index.js';
import type { RepoContext } from '../../api/repo/repo-context.js';
import type { ImportOptions, ImportResult } from '../../api/capture/runtime.js';
import { parseSession } from '../../formats/opencode-session.js';
import { readNonEmpty } from '../transcript.js';
import { sessionBranch } from './names.js';
import { appendSession } from './session.js';

const SQLITE = Buffer.from('SQLite format 3\0', 'latin1');

export async function importOpencode(ctx: RepoContext, file: string, opts: ImportOptions = {}): Promise<ImportResult> {
  const bytes = readNonEmpty(file);
  if (Buffer.from(bytes.subarray(0, SQLITE.length)).equals(SQLITE))
    throw new BadInputError(`${file} is opencode's database, which ctx does not read: import a session as opencode prints it (opencode export <session id> > session.json; ctx import opencode session.json)`);
  const doc = parseSession(bytes);
  const session = opts.fields?.session ?? (typeof doc.info.id === 'string' && doc.info.id ? doc.info.id : basename(file).replace(/\.json$/, ''));
  const branch = opts.branch ?? sessionBranch(session);
  opts.onProgress?.(0, doc.messages.length);
  // the file's name, not its path: the same export gives the same commit ids on any machine
  const r = await appendSession(ctx, branch, doc, { trigger: 'import', ...opts.fields, session, source: { file: basename(file), offset: 0, length: bytes.length } });
  return { branch, session, bytes: bytes.length, commits: r.commits, unchanged: r.commits.length === 0, tip: r.tip ?? undefined };
}
