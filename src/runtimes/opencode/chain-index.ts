// What the opencode hook keeps between turns (`ctx/hooks/<session>.opencode.json`): the message ids
// the chain holds, in order, with hashes of each message's JSON, so a turn is compared against the
// chain without reading it back from the root. Used only while it names the branch's tip. Beside it,
// `<session>.opencode.texts`: the JSON text each message from the last compaction on had in the
// session last captured, so an unchanged message is known by comparing its text, not by hashing it
// (BLAKE3 of a 1 MB session was most of an opencode hook's own work).
import { readFileSync } from 'node:fs';
import { canonicalJson } from '../../core/canonical-json.js';
import { textHasher } from '../../core/blake3.js';
import { isCompactionRequest, type OpencodeMessage } from '../../formats/opencode-session.js';
import { derivedDir, writeDerived } from '../../store/derived.js';
import { statePath } from '../../store/capture-state.js';

/** One message of the chain: its id, BLAKE3 of its JSON.stringify and of its canonical JSON, 1 for a compaction request. */
type Entry = [id: string, text: string, canonical: string, compaction: 0 | 1];

interface IndexFile {
  v: 1;
  branch: string;
  tip: string;
  messages: Entry[];
}

/** What newTurns needs of the chain: its ids in order, its last compaction, and whether a message of it is unchanged. */
export interface KnownChain {
  ids: readonly unknown[];
  lastCompaction: number;
  same(j: number, m: OpencodeMessage): boolean;
}

const path = (gitdir: string, session: string) => statePath(gitdir, `${session}.opencode`);
const textsPath = (gitdir: string, session: string) => `${statePath(gitdir, `${session}.opencode`).slice(0, -'.json'.length)}.texts`;

/** The texts file's first line: the tip it was written for, and which of the chain's messages the lines after it are. */
interface TextsHead {
  v: 1;
  tip: string;
  /** the chain's index of the first line's message */
  from: number;
  /** lines after this one, one a message: its JSON text, or empty when the session did not hold it */
  count: number;
}

/** The index of `branch` at `tip`, or null when there is none or it names another tip. */
export async function readIndex(gitdir: string, session: string, branch: string, tip: string): Promise<ChainIndex | null> {
  let f: IndexFile;
  try {
    f = JSON.parse(readFileSync(path(gitdir, session), 'utf8')) as IndexFile;
  } catch {
    return null;
  }
  if (f?.v !== 1 || f.branch !== branch || f.tip !== tip || !Array.isArray(f.messages) || !f.messages.every(isEntry)) return null;
  const index = new ChainIndex(f.messages, await textHasher());
  index.readTexts(textsPath(gitdir, session), tip);
  return index;
}

/** A line of the file as this code writes it; anything else makes the hook read the chain back. */
const isEntry = (e: unknown): e is Entry =>
  Array.isArray(e) && e.length === 4 && typeof e[0] === 'string' && typeof e[1] === 'string' && typeof e[2] === 'string' && (e[3] === 0 || e[3] === 1);

/** The chain's messages as ids and hashes; merged as mergeSessions merges artifacts (a message replaces the one of its id, in place). */
export class ChainIndex implements KnownChain {
  private readonly at: Map<string, number>;
  /** the texts file's lines (TextsHead), from the chain's message `textsFrom` on */
  private texts: string[] | null = null;
  private textsFrom = 0;
  /** the JSON text of each message `same` was asked about, for `save` */
  private readonly seen = new Map<OpencodeMessage, string>();
  constructor(
    private readonly entries: Entry[],
    private readonly hash: (text: string) => string,
  ) {
    this.at = new Map(entries.map((e, i) => [e[0], i]));
  }

  /** An index of messages as the chain holds them; null when one has no string id (newTurns then needs the messages themselves). */
  static async of(messages: readonly OpencodeMessage[]): Promise<ChainIndex | null> {
    const index = new ChainIndex([], await textHasher());
    return index.add(messages) ? index : null;
  }

  get ids(): string[] {
    return this.entries.map((e) => e[0]);
  }

  get lastCompaction(): number {
    for (let i = this.entries.length - 1; i >= 0; i--) if (this.entries[i][3]) return i;
    return -1;
  }

  /**
   * As `differs` in session.ts answers: the same JSON text, or else the same canonical JSON. A text
   * equal to the one the message had when the index was saved is the same: that message was then
   * either written onto the chain or found the same as the chain's.
   */
  same(j: number, m: OpencodeMessage): boolean {
    const e = this.entries[j];
    const text = JSON.stringify(m);
    this.seen.set(m, text);
    if (this.texts !== null && j >= this.textsFrom && this.texts[j - this.textsFrom] === text) return true;
    return this.hash(text) === e[1] || this.hash(canonicalJson(m)) === e[2];
  }

  /** The texts file written with this index at `tip`; a file for another tip, or not as `save` writes it, is none. */
  readTexts(file: string, tip: string): void {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      return;
    }
    const nl = text.indexOf('\n');
    let head: TextsHead;
    try {
      head = JSON.parse(text.slice(0, nl)) as TextsHead;
    } catch {
      return;
    }
    if (head?.v !== 1 || head.tip !== tip || !Number.isSafeInteger(head.from) || !Number.isSafeInteger(head.count) || head.from < 0 || head.count < 0) return;
    if (!text.endsWith('\n')) return;
    const lines = text.slice(nl + 1, -1).split('\n');
    if (head.count === 0 ? text.length !== nl + 1 : lines.length !== head.count) return;
    this.texts = head.count === 0 ? [] : lines;
    this.textsFrom = head.from;
  }

  /** Messages written onto the chain, in order; false when one has no string id. */
  add(messages: readonly OpencodeMessage[]): boolean {
    for (const m of messages) {
      const id = m.info.id;
      if (typeof id !== 'string') return false;
      const e: Entry = [id, this.hash(JSON.stringify(m)), this.hash(canonicalJson(m)), isCompactionRequest(m) ? 1 : 0];
      const i = this.at.get(id);
      if (i !== undefined) this.entries[i] = e;
      else {
        this.at.set(id, this.entries.length);
        this.entries.push(e);
      }
    }
    return true;
  }

  /**
   * The index for the chain at `tip`, and with `messages` (the session just captured, every message
   * of it on the chain or found the same as the chain's), the texts file of the messages from the
   * last compaction on. Messages with one id twice leave no texts file.
   */
  save(gitdir: string, session: string, branch: string, tip: string, messages?: readonly OpencodeMessage[]): void {
    derivedDir(gitdir, 'hooks');
    const texts = textsPath(gitdir, session);
    const byId = messages && new Map(messages.map((m) => [m.info.id, m]));
    if (byId && byId.size === messages.length) {
      const from = Math.max(this.lastCompaction, 0);
      const lines = this.entries.slice(from).map((e) => {
        const m = byId.get(e[0]);
        return m === undefined ? '' : (this.seen.get(m) ?? JSON.stringify(m));
      });
      const head: TextsHead = { v: 1, tip, from, count: lines.length };
      writeDerived(texts, `${JSON.stringify(head)}\n${lines.map((l) => `${l}\n`).join('')}`);
    }
    writeDerived(path(gitdir, session), `${JSON.stringify({ v: 1, branch, tip, messages: this.entries } satisfies IndexFile)}\n`);
  }
}
