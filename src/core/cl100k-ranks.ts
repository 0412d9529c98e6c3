// cl100k_base's ranks, serialized for bpe.ts. Run from source this builds them from gpt-tokenizer's
// list (~80 ms); the build (build.mjs) replaces this module with the serialized bytes themselves.
import ranks from 'gpt-tokenizer/bpeRanks/cl100k_base';
import { serializeRanks } from './bpe.js';

export function rankTable(): Uint8Array {
  return serializeRanks(ranks);
}
