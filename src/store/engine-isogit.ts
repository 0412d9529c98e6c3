// The in-process engine: isomorphic-git over node:fs. Always available; slow in bulk.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import type { CommitSpec, Engine, GitObject, ObjectType, TreeFile } from './engine.js';
import { groupTreeFiles, serializeCommit } from './tree-layout.js';
import { walkFirstParents } from './objects.js';
import { UnreadableObject } from './damage.js';

// isomorphic-git is loaded on first use, so the git engine and `ctx --version` never pay for it; by
// require, not import(): the one-file bundles run through vm.Script with a code cache, where node 20
// has no dynamic import (bundle-load.ts).
type IsoGit = typeof import('isomorphic-git').default;
let isogit: Promise<IsoGit> | null = null;
export const loadIsogit = () => (isogit ??= Promise.resolve().then(() => (createRequire(import.meta.url)('isomorphic-git') as typeof import('isomorphic-git')).default));

// Errors isomorphic-git throws where native git would answer "missing".
const MISSING_CODES = new Set(['NotFoundError', 'ObjectTypeError', 'InvalidFilepathError']);

function isMissing(e: unknown): boolean {
  return typeof e === 'object' && e !== null && MISSING_CODES.has((e as { code?: string }).code ?? '');
}

export function createIsogitEngine(gitdir: string): Engine {
  const dir = resolve(gitdir);
  let git: IsoGit;
  // One cache for the engine's lifetime: it holds parsed pack indexes, without which packed reads crawl.
  const cache = {};

  async function read(oid: string, filepath?: string): Promise<GitObject | null> {
    git ??= await loadIsogit();
    try {
      const r = await git.readObject({ fs, gitdir: dir, oid, filepath, format: 'content', cache });
      return { type: r.type as ObjectType, data: r.object as Uint8Array };
    } catch (e) {
      if (isMissing(e)) return null;
      // a file system failure is not damage; anything else (a pack whose checksum fails, bad zlib data) is
      if ((e as NodeJS.ErrnoException).syscall !== undefined) throw e;
      throw new UnreadableObject(filepath === undefined ? oid : `${oid}:${filepath}`, e);
    }
  }

  async function requireObject(oid: string, type: ObjectType | null): Promise<void> {
    const r = type === null ? await exists(oid) : (await read(oid))?.type === type;
    if (!r) throw new Error(`${type ?? 'object'} ${oid} not found`);
  }

  async function exists(oid: string): Promise<boolean> {
    git ??= await loadIsogit();
    try {
      // 'deflated' skips inflating and hashing a loose object: we only ask whether it is there.
      await git.readObject({ fs, gitdir: dir, oid, format: 'deflated', cache });
      return true;
    } catch (e) {
      if (isMissing(e)) return false;
      throw e;
    }
  }

  async function blobOf(f: TreeFile, known: Set<string>): Promise<string> {
    if ('data' in f) return git.writeBlob({ fs, gitdir: dir, blob: f.data });
    const oid = 'tree' in f ? f.tree : f.oid;
    if (!known.has(oid)) {
      await requireObject(oid, 'tree' in f ? 'tree' : null);
      known.add(oid);
    }
    return oid;
  }

  async function writeTree(entries: { mode: string; path: string; oid: string; type: 'blob' | 'tree' }[]): Promise<string> {
    return git.writeTree({ fs, gitdir: dir, tree: entries });
  }

  return {
    name: 'isogit',

    readObject: (oid) => read(oid),

    async readObjects(specs) {
      const out: (GitObject | null)[] = [];
      for (const spec of specs) {
        const colon = spec.indexOf(':');
        out.push(colon < 0 ? await read(spec) : await read(spec.slice(0, colon), spec.slice(colon + 1)));
      }
      return out;
    },

    chain: (tip, max) => walkFirstParents((specs) => Promise.all(specs.map((o) => read(o))), tip, max),

    async writeCommits(specs: readonly CommitSpec[]) {
      git ??= await loadIsogit();
      const ids: string[] = [];
      const known = new Set<string>(); // blobs and parents already checked in this batch
      for (const spec of specs) {
        const { root, dirs } = groupTreeFiles(spec.files);
        const entries: { mode: string; path: string; oid: string; type: 'blob' | 'tree' }[] = [];
        for (const [name, f] of root) entries.push('tree' in f ? { mode: '040000', path: name, oid: await blobOf(f, known), type: 'tree' } : { mode: '100644', path: name, oid: await blobOf(f, known), type: 'blob' });
        for (const [d, files] of dirs) {
          const sub = [];
          for (const [name, f] of files) sub.push({ mode: '100644', path: name, oid: await blobOf(f, known), type: 'blob' as const });
          entries.push({ mode: '040000', path: d, oid: await writeTree(sub), type: 'tree' });
        }
        const tree = await writeTree(entries);
        const parents: string[] = [];
        for (const p of spec.parents) {
          if (typeof p === 'string') {
            if (!known.has(p)) await requireObject(p, 'commit');
            known.add(p);
            parents.push(p);
          } else {
            if (!(p.index >= 0 && p.index < ids.length)) throw new Error(`parent index ${p.index} is not an earlier commit`);
            parents.push(ids[p.index]);
          }
        }
        ids.push(await git.writeObject({ fs, gitdir: dir, type: 'commit', format: 'content', object: serializeCommit(tree, parents, spec) }));
      }
      return ids;
    },

    async close() {},
  };
}
