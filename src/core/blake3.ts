// BLAKE3 of artifact bytes, as `blake3:<64 hex>`. hash-wasm: measured faster than blake3-wasm here
// (bench/blake3.mjs), and blake3-wasm 3.0.0 does not install.
import { createBLAKE3, type IHasher } from 'hash-wasm';

let hasher: Promise<IHasher> | null = null;

export async function artifactHash(bytes: Uint8Array): Promise<string> {
  const h = await (hasher ??= createBLAKE3());
  h.init();
  h.update(bytes);
  return `blake3:${h.digest('hex')}`;
}
