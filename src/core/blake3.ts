// BLAKE3 of artifact bytes, as `blake3:<64 hex>`. hash-wasm, not blake3-wasm: as fast within noise
// (bench/blake3.mjs), maintained, and blake3-wasm 3.0.0 does not install (its internal package is
// missing from the registry) while 2.1.5 dates from 2020.
import { createBLAKE3, type IHasher } from 'hash-wasm';

let hasher: Promise<IHasher> | null = null;

export async function artifactHash(bytes: Uint8Array): Promise<string> {
  const h = await (hasher ??= createBLAKE3());
  h.init();
  h.update(bytes);
  return `blake3:${h.digest('hex')}`;
}

/** BLAKE3 of bytes handed over in pieces (an artifact read chunk by chunk), as artifactHash gives it. */
export async function artifactHasher(): Promise<{ update(bytes: Uint8Array): void; digest(): string }> {
  const h = await createBLAKE3();
  h.init();
  return {
    update: (bytes) => void h.update(bytes),
    digest: () => {
      const d = `blake3:${h.digest('hex')}`;
      h.init();
      return d;
    },
  };
}

/** BLAKE3 of strings (their UTF-8), as hex: keys compared later, not ids. */
export async function textHasher(): Promise<(text: string) => string> {
  const h = await (hasher ??= createBLAKE3());
  return (text) => {
    h.init();
    h.update(text);
    return h.digest('hex');
  };
}
