// `<name>-ext-v<N>`: the bytes of a runtime from outside (docs/runtime-protocol.md), stored exactly as
// its transcript holds them and joined by appending. ctx reads no structure in them: messages come
// only from the runtime's own `to-neutral`, given here when the user's command named that runtime.
import type { NeutralMessage } from '../core/neutral.js';
import { concatBytes, type StorageFormat } from './format.js';

/** A format a runtime from outside may name: `<its name>-ext-v<version>`, no other runtime's name. */
export const EXTERNAL_FORMAT = /^[a-z][a-z0-9-]{0,39}-ext-v[1-9][0-9]{0,3}$/;

const utf8 = new TextDecoder('utf-8');

/** An opaque append format; `toNeutral`: the runtime's translation of the whole run's bytes. */
export function externalFormat(name: string, toNeutral?: (bytes: Uint8Array) => NeutralMessage[]): StorageFormat {
  return {
    name,
    ext: 'data',
    // one entry: the bytes themselves (ctx knows no lines in them)
    parse: (bytes) => [bytes],
    concat: concatBytes,
    concatRule: 'append',
    count: () => 0,
    // a token estimate over the text as it is
    tokenTexts: (entries) => entries.map((b) => utf8.decode(b as Uint8Array)),
    ...(toNeutral ? { toNeutral: (entries: readonly unknown[]) => toNeutral(concatBytes(entries as Uint8Array[])) } : {}),
  };
}
