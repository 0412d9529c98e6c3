// Derived data under <repo>/ctx/cache/: never trusted over the repo. Each entry carries the
// SHA-256 of its bytes (node's native hash: no wasm to load on the cached path); an entry that
// does not match is ignored and rebuilt.
import { createHash } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { join } from 'node:path';

const MAGIC = 'ctx-cache-2 ';
const checksum = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

export class MaterializeCache {
  constructor(private readonly dir: string) {}

  static forRepo(gitdir: string) {
    return new MaterializeCache(join(gitdir, 'ctx', 'cache'));
  }

  private path(key: string) {
    const h = createHash('sha256').update(key).digest('hex');
    return join(this.dir, h.slice(0, 2), h.slice(2));
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
      mkdirSync(join(path, '..'), { recursive: true });
      const tmp = `${path}.${process.pid}.tmp`;
      const fd = openSync(tmp, 'w');
      try {
        writeSync(fd, `${MAGIC}${key} ${checksum(bytes)}\n`);
        writeSync(fd, bytes);
      } finally {
        closeSync(fd);
      }
      renameSync(tmp, path);
    } catch {
      // a cache that cannot be written (read-only store) costs time, not correctness
    }
  }
}
