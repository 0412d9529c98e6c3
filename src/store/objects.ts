// Parsing git commit and tree objects (the bytes an engine returns).
import type { ChainLink, GitObject } from './engine.js';
import { StoreDamage, UnreadableObject } from './damage.js';

const dec = new TextDecoder();

export interface ParsedCommit {
  tree: string;
  parents: string[];
  author: string;
  committer: string;
  message: string;
}

export function parseCommit(data: Uint8Array): ParsedCommit {
  const text = dec.decode(data);
  const split = text.indexOf('\n\n');
  const head = split === -1 ? text : text.slice(0, split);
  const c: ParsedCommit = { tree: '', parents: [], author: '', committer: '', message: split === -1 ? '' : text.slice(split + 2) };
  for (const line of head.split('\n')) {
    const sp = line.indexOf(' ');
    const key = line.slice(0, sp);
    const val = line.slice(sp + 1);
    if (key === 'tree') c.tree = val;
    else if (key === 'parent') c.parents.push(val);
    else if (key === 'author') c.author = val;
    else if (key === 'committer') c.committer = val;
  }
  return c;
}

export interface TreeEntry {
  mode: string;
  name: string;
  oid: string;
}

export function parseTree(data: Uint8Array): TreeEntry[] {
  const out: TreeEntry[] = [];
  const buf = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  let i = 0;
  while (i < buf.length) {
    const sp = buf.indexOf(0x20, i);
    const nul = buf.indexOf(0, sp);
    out.push({ mode: buf.toString('latin1', i, sp), name: buf.toString('utf8', sp + 1, nul), oid: buf.toString('hex', nul + 1, nul + 21) });
    i = nul + 21;
  }
  return out;
}

/** `Name <email> 1700000000 +0000` → seconds. */
export function personTime(person: string): number {
  const m = / (\d+) [+-]\d{4}$/.exec(person);
  return m ? Number(m[1]) : NaN;
}

/**
 * First parents from `tip` (inclusive), read object by object, at most `max`: isomorphic-git's walk,
 * and the git engine's when rev-list fails, to name where the chain breaks.
 */
export async function walkFirstParents(read: (specs: string[]) => Promise<(GitObject | null)[]>, tip: string, max = Infinity): Promise<ChainLink[]> {
  const links: ChainLink[] = [];
  let child: string | null = null;
  for (let oid: string | undefined = tip; oid !== undefined && links.length < max; ) {
    let obj: GitObject | null;
    try {
      [obj] = await read([oid]);
    } catch (e) {
      if (e instanceof UnreadableObject) throw new StoreDamage(child === null ? `object ${oid}` : child, child === null ? e.problem : `its parent ${oid.slice(0, 12)} cannot be read, the object store is damaged`, { cause: e });
      throw e;
    }
    if (obj?.type !== 'commit') {
      const what = obj ? `is a ${obj.type}, not a commit` : 'is missing';
      throw child === null ? new StoreDamage(`object ${oid}`, what) : new StoreDamage(child, `its parent ${oid.slice(0, 12)} ${what}`);
    }
    const c = parseCommit(obj.data);
    links.push({ oid, tree: c.tree, message: c.message });
    child = oid;
    oid = c.parents[0];
  }
  return links;
}
