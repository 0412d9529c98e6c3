// What both engines accept in a commit spec, checked the same way so they refuse the same inputs.
import type { CommitSpec, Signature, TreeFile } from './engine.js';

/** Validate and split `name` or `dir/name`; both engines reject the same paths. */
export function splitTreePath(path: string): { dir: string | null; name: string } {
  const parts = path.split('/');
  const bad = parts.length > 2 || parts.some((p) => p === '' || p === '.' || p === '..' || /^\.git$/i.test(p) || /[\0\n]/.test(p));
  if (bad) throw new Error(`invalid tree path: ${JSON.stringify(path)}`);
  return parts.length === 2 ? { dir: parts[0], name: parts[1] } : { dir: null, name: parts[0] };
}

/** The `name <email> <seconds> +0000` part of an author or committer line. */
export function formatSignature(s: Signature): string {
  if (s.name === '' || /[<>\n]/.test(s.name) || /[<>\n]/.test(s.email) || s.name.trim() !== s.name) {
    throw new Error(`invalid signature: ${JSON.stringify(`${s.name} <${s.email}>`)}`);
  }
  if (!Number.isSafeInteger(s.timestamp) || s.timestamp < 0) throw new Error(`invalid timestamp: ${s.timestamp}`);
  return `${s.name} <${s.email}> ${s.timestamp} +0000`;
}

/** Group a commit's files into root entries and one-level subdirectories, rejecting clashes. */
export function groupTreeFiles(files: readonly TreeFile[]): { root: Map<string, TreeFile>; dirs: Map<string, Map<string, TreeFile>> } {
  const root = new Map<string, TreeFile>();
  const dirs = new Map<string, Map<string, TreeFile>>();
  for (const f of files) {
    const { dir, name } = splitTreePath(f.path);
    const clash = dir === null ? root.has(name) || dirs.has(name) : root.has(dir) || dirs.get(dir)?.has(name);
    if (clash) throw new Error(`duplicate tree path: ${JSON.stringify(f.path)}`);
    if ('tree' in f && (dir !== null || !/^[0-9a-f]{40,64}$/.test(f.tree))) throw new Error(`invalid subtree: ${JSON.stringify(f.path)}`);
    if (dir === null) root.set(name, f);
    else {
      let d = dirs.get(dir);
      if (!d) dirs.set(dir, (d = new Map()));
      d.set(name, f);
    }
  }
  return { root, dirs };
}

/** A root entry's mode and object: a blob by id, or a subtree carried over (`tree`). */
export function entryOf(f: TreeFile & ({ oid: string } | { tree: string })): { mode: '100644' | '40000'; oid: string } {
  return 'tree' in f ? { mode: '40000', oid: f.tree } : { mode: '100644', oid: f.oid };
}

/** The commit object's bytes as git writes them; isomorphic-git's writeCommit would normalise the message. */
export function serializeCommit(tree: string, parents: readonly string[], spec: CommitSpec): Uint8Array {
  let head = `tree ${tree}\n`;
  for (const p of parents) head += `parent ${p}\n`;
  head += `author ${formatSignature(spec.author)}\ncommitter ${formatSignature(spec.committer)}\n\n`;
  return Buffer.from(head + spec.message, 'utf8');
}
