// Derived data under <repo>/ctx/cache/: never trusted over the repo. Each entry carries the
// BLAKE3 of its bytes; an entry that does not match is ignored and rebuilt.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { artifactHash } from '../core/blake3.js';

const MAGIC = 'ctx-cache-1 ';

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
    if (nl < 0 || header !== `${MAGIC}${key} ${await artifactHash(body)}`) return null;
    return body;
  }

  async put(key: string, bytes: Uint8Array): Promise<void> {
    const path = this.path(key);
    try {
      mkdirSync(join(path, '..'), { recursive: true });
      const tmp = `${path}.${process.pid}.tmp`;
      writeFileSync(tmp, Buffer.concat([Buffer.from(`${MAGIC}${key} ${await artifactHash(bytes)}\n`), bytes]));
      renameSync(tmp, path);
    } catch {
      // a cache that cannot be written (read-only store) costs time, not correctness
    }
  }
}
