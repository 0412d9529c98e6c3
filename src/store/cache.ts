// Derived data under <repo>/ctx/cache/: never trusted over the repo. Each entry carries the
// SHA-256 of its bytes (node's native hash: no wasm to load on the cached path); an entry that
// does not match is ignored and rebuilt.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { derivedDir, writeDerived } from './derived.js';

const MAGIC = 'ctx-cache-2 ';
const checksum = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

export class MaterializeCache {
  constructor(private readonly gitdir: string) {}

  static forRepo(gitdir: string) {
    return new MaterializeCache(gitdir);
  }

  private path(key: string) {
    const h = createHash('sha256').update(key).digest('hex');
    return join(this.gitdir, 'ctx', 'cache', h.slice(0, 2), h.slice(2));
  }

  async get(key: string): Promise<Uint8Array | null> {
    let file: Buffer;
    try {
      file = readFileSync(this.path(key));
    } catch {
      return null;
    }
    const nl = file.indexOf(0x0a);
    const header = file.toString('utf8', 0, nl);
    const body = file.subarray(nl + 1);
    if (nl < 0 || header !== `${MAGIC}${key} ${checksum(body)}`) return null;
    return body;
  }

  async put(key: string, bytes: Uint8Array): Promise<void> {
    const path = this.path(key);
    try {
      derivedDir(this.gitdir, 'cache', basename(dirname(path)));
      writeDerived(path, `${MAGIC}${key} ${checksum(bytes)}\n`, bytes);
    } catch {
      // a cache that cannot be written (read-only store) costs time, not correctness
    }
  }
}
