// raw: output only; every artifact as it is, with its format, in one JSON envelope.
import type { RawArtifact } from './format.js';

const utf8 = new TextDecoder('utf-8', { fatal: true });

export function renderRaw(artifacts: readonly RawArtifact[]): Uint8Array {
  const records = artifacts.map((a) => {
    let data: string;
    let encoding = 'utf8';
    try {
      data = utf8.decode(a.bytes);
    } catch {
      data = Buffer.from(a.bytes).toString('base64');
      encoding = 'base64';
    }
    return { id: a.id, type: a.type, format: a.format, encoding, data };
  });
  return Buffer.from(`${JSON.stringify({ v: 1, format: 'raw', artifacts: records })}\n`);
}
