// bureau-agent-v1: a CBOR array of message maps; concatenation decodes, merges and encodes once.
import { decode, encode } from 'cbor-x';
import { BadInputError } from '../errors/index.js';
import { contentChars, tokensFromChars, type StorageFormat } from './format.js';

function decodeMessages(bytes: Uint8Array): Record<string, unknown>[] {
  let value: unknown;
  try {
    value = decode(bytes);
  } catch (e) {
    throw new BadInputError(`not CBOR: ${(e as Error).message}`);
  }
  if (!Array.isArray(value)) throw new BadInputError('CBOR artifact is not an array of messages');
  value.forEach((m, i) => {
    if (m === null || typeof m !== 'object' || Array.isArray(m) || m instanceof Map || typeof (m as { role?: unknown }).role !== 'string')
      throw new BadInputError(`message ${i} is not a map with a string role`);
  });
  return value as Record<string, unknown>[];
}

export const bureauAgent: StorageFormat = {
  name: 'bureau-agent-v1',
  ext: 'cbor',
  parse: decodeMessages,
  concat: (parts) => encode(parts.flatMap(decodeMessages)),
  count: (entries) => entries.length,
  estimateTokens: (entries) => tokensFromChars(entries.reduce((n: number, m) => n + contentChars((m as { content?: unknown }).content), 0)),
};
