// Bulk writes through one `git fast-import` per batch: commits onto a temp ref that fast-import
// deletes at the end, their ids read back with `get-mark`.
import { nodeCrypto } from './node-crypto.js';
import { existsSync, readFileSync, rmSync, rmdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { CommitSpec } from './engine.js';
import { run } from './git-process.js';
import { entryOf, formatSignature, groupTreeFiles } from './tree-layout.js';

/** Quote a path for a fast-import `M` line when git would misread it bare. */
function fiPath(path: string): string {
  return path.startsWith('"') ? `"${path.replace(/["\\]/g, (c) => `\\${c}`)}"` : path;
}

export async function fastImport(gitdir: string, specs: readonly CommitSpec[]): Promise<string[]> {
  if (specs.length === 0) return [];
  const ref = `refs/ctx-tmp/${process.pid}-${nodeCrypto().randomBytes(6).toString('hex')}`;
  const parts: Uint8Array[] = [];
  let text = ''; // pending command text, flushed before each block of raw bytes
  const flush = () => {
    if (text) parts.push(Buffer.from(text, 'utf8'));
    text = '';
  };
  const data = (bytes: Uint8Array) => {
    text += `data ${bytes.byteLength}\n`;
    flush();
    parts.push(bytes);
    text += '\n';
  };
  specs.forEach((spec, i) => {
    const { root, dirs } = groupTreeFiles(spec.files); // validates paths as the isogit engine does
    const files = [...root.values(), ...[...dirs.values()].flatMap((d) => [...d.values()])];
    // A root commit must not inherit the temp branch's previous commit.
    if (spec.parents.length === 0) text += `reset ${ref}\n`;
    text += `commit ${ref}\nmark :${i + 1}\n`;
    text += `author ${formatSignature(spec.author)}\ncommitter ${formatSignature(spec.committer)}\n`;
    data(Buffer.from(spec.message, 'utf8'));
    spec.parents.forEach((p, k) => {
      let from: string;
      if (typeof p === 'string') {
        if (!/^[0-9a-f]{40,64}$/.test(p)) throw new Error(`parent is not an object id: ${p}`);
        from = p;
      } else {
        if (!(p.index >= 0 && p.index < i)) throw new Error(`parent index ${p.index} is not an earlier commit`);
        from = `:${p.index + 1}`;
      }
      text += `${k === 0 ? 'from' : 'merge'} ${from}\n`;
    });
    text += 'deleteall\n';
    for (const f of files) {
      if ('data' in f) {
        text += `M 100644 inline ${fiPath(f.path)}\n`;
        data(f.data);
      } else {
        const { mode, oid } = entryOf(f);
        if (!/^[0-9a-f]{40,64}$/.test(oid)) throw new Error(`not an object id: ${oid}`);
        text += `M ${mode === '40000' ? '040000' : mode} ${oid} ${fiPath(f.path)}\n`;
      }
    }
  });
  for (let i = 1; i <= specs.length; i++) text += `get-mark :${i}\n`;
  // Resetting without `from` makes fast-import delete the temp ref instead of writing it.
  text += `reset ${ref}\ndone\n`;
  flush();
  try {
    const { stdout } = await run(gitdir, ['fast-import', '--quiet', '--done'], parts);
    const ids = stdout.toString('latin1').split('\n').filter((l) => l !== '');
    if (ids.length !== specs.length || !ids.every((id) => /^[0-9a-f]{40,64}$/.test(id))) {
      throw new Error(`unexpected git fast-import output: ${ids.join(' ').slice(0, 200)}`);
    }
    return ids;
  } catch (e) {
    const pid = (e as { pid?: number }).pid;
    if (pid !== undefined) rmSync(join(gitdir, `fast_import_crash_${pid}`), { force: true });
    throw e;
  } finally {
    await removeTempRef(gitdir, ref);
  }
}

/** Make sure the temp ref is gone: its loose file, its now-empty directories, any packed-refs line. */
async function removeTempRef(gitdir: string, ref: string): Promise<void> {
  rmSync(join(gitdir, ref), { force: true });
  for (let d = dirname(ref); d !== 'refs'; d = dirname(d)) {
    try {
      rmdirSync(join(gitdir, d));
    } catch {
      break; // not empty, or never created
    }
  }
  const packed = join(gitdir, 'packed-refs');
  // fast-import never packs refs; this guards against a `git pack-refs` racing with us.
  if (existsSync(packed) && readFileSync(packed, 'latin1').includes(` ${ref}\n`)) await run(gitdir, ['update-ref', '-d', ref], []);
}
