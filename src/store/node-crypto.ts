// node:crypto, required on first use: its fourteen modules cost ~7 M instructions (~2 ms) to load, which
// every process loading the store's modules paid, hashing or not (ctx blame on an indexed store hashes nothing).
import { createRequire } from 'node:module';

type NodeCrypto = typeof import('node:crypto');
let loaded: NodeCrypto | undefined;

/** node:crypto, loaded the first time it is asked for. */
export const nodeCrypto = (): NodeCrypto => (loaded ??= createRequire(import.meta.url)('node:crypto') as NodeCrypto);
