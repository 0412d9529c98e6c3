// Thread and namespace ids (user input) as branch names: `langgraph/<thread>/<ns>`, each escaped so
// any string is one valid ref component, and no other writer of the store names a branch so.

export const BRANCH_PREFIX = 'langgraph/';
const KEPT = /[A-Za-z0-9-]/;
const LINE = /\.line-([1-9][0-9]*)$/;

/** `[A-Za-z0-9-]` as they are, every other UTF-8 byte `_XX` (lower-case hex), '' as a lone `_`: one-to-one, never a `.` or `/`. */
export function escapeId(id: string): string {
  if (id === '') return '_';
  let out = '';
  for (const ch of id) out += KEPT.test(ch) ? ch : [...Buffer.from(ch, 'utf8')].map((b) => `_${b.toString(16).padStart(2, '0')}`).join('');
  return out;
}

/** escapeId's inverse, or null for a name it never writes. */
export function unescapeId(name: string): string | null {
  if (name === '_') return '';
  if (!/^(?:[A-Za-z0-9-]|_[0-9a-f]{2})+$/.test(name)) return null;
  const bytes: number[] = [];
  for (let i = 0; i < name.length; ) {
    if (name[i] === '_') (bytes.push(parseInt(name.slice(i + 1, i + 3), 16)), (i += 3));
    else bytes.push(name.charCodeAt(i++));
  }
  const text = Buffer.from(bytes).toString('utf8');
  return escapeId(text) === name ? text : null;
}

/** The thread's namespace's branch: line 0 holds its newest checkpoint, lines 1… the older lines a fork left. */
export const lineBranch = (thread: string, ns: string, line = 0): string => `${threadPrefix(thread)}${escapeId(ns)}${line ? `.line-${line}` : ''}`;

/** Every branch of a thread starts with this. */
export const threadPrefix = (thread: string): string => `${BRANCH_PREFIX}${escapeId(thread)}/`;

export interface LineName {
  thread: string;
  ns: string;
  line: number;
}

/** A branch name lineBranch wrote, read back; null for any other. */
export function parseLineBranch(branch: string): LineName | null {
  if (!branch.startsWith(BRANCH_PREFIX)) return null;
  const parts = branch.slice(BRANCH_PREFIX.length).split('/');
  if (parts.length !== 2) return null;
  const m = LINE.exec(parts[1]);
  const thread = unescapeId(parts[0]);
  const ns = unescapeId(m ? parts[1].slice(0, m.index) : parts[1]);
  return thread === null || ns === null ? null : { thread, ns, line: m ? Number(m[1]) : 0 };
}
