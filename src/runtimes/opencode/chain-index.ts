// What the opencode hook keeps between turns (`ctx/hooks/<session>.opencode.json`): the message ids
// the chain holds, in order, with hashes of each message's JSON, so a turn is compared against the
// chain without reading it back from the root. Used only while it names the branch's tip.
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

/** The index of `branch` at `tip`, or null when there is none or it names another tip. */
export async function readIndex(gitdir: string, session: string, branch: string, tip: string): Promise<ChainIndex | null> {
  let f: IndexFile;
  try {
    f = JSON.parse(readFileSync(path(gitdir, session), 'utf8')) as IndexFile;
  } catch {
    return null;
  }
  if (f?.v !== 1 || f.branch !== branch || f.tip !== tip || !Array.isArray(f.messages) || !f.messages.every(isEntry)) return null;
  return new ChainIndex(f.messages, await textHasher());
}

/** A line of the file as this code writes it; anything else makes the hook read the chain back. */
const isEntry = (e: unknown): e is Entry =>
  Array.isArray(e) && e.length === 4 && typeof e[0] === 'string' && typeof e[1] === 'string' && typeof e[2] === 'string' && (e[3] === 0 || e[3] === 1);

/** The chain's messages as ids and hashes; merged as mergeSessions merges artifacts (a message replaces the one of its id, in place). */
export class ChainIndex implements KnownChain {
  private readonly at: Map<string, number>;
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

  /** As `differs` in session.ts answers: the same JSON text, or else the same canonical JSON. */
  same(j: number, m: OpencodeMessage): boolean {
    const e = this.entries[j];
    return this.hash(JSON.stringify(m)) === e[1] || this.hash(canonicalJson(m)) === e[2];
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

  save(gitdir: string, session: string, branch: string, tip: string): void {
    derivedDir(gitdir, 'hooks');
    writeDerived(path(gitdir, session), `${JSON.stringify({ v: 1, branch, tip, messages: this.entries } satisfies IndexFile)}\n`);
  }
}
