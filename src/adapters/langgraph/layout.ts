// A checkpoint commit's `langgraph/` entries: what each holds and what it is named, so a value is
// stored once per channel and version (a blob's id is its content: an unchanged value is the same blob).
import { escapeId, unescapeId } from './names.js';

export const DIR = 'langgraph';
export const CHECKPOINT = 'checkpoint';
export const METADATA = 'metadata';

/** A channel's value at a version: `v.<channel>.<version>`. */
export const valueName = (channel: string, version: string | number): string => `v.${escapeId(channel)}.${escapeId(String(version))}`;

/** A pending write: `w.<task>.<idx>` (idx negative for LangGraph's special channels). */
export const writeName = (task: string, idx: number): string => `w.${escapeId(task)}.${idx}`;

/** The task and index of a pending write's entry, or null for another entry. */
export function parseWriteName(name: string): { task: string; idx: number } | null {
  const m = /^w\.([^.]+)\.(-?\d+)$/.exec(name);
  const task = m ? unescapeId(m[1]) : null;
  return m && task !== null ? { task, idx: Number(m[2]) } : null;
}

/** What the serializer gave (its type tag and bytes) as one blob: `<type>\n<bytes>`. */
export function typedBlob(type: string, bytes: Uint8Array, header: readonly unknown[] = []): Buffer {
  return Buffer.concat([Buffer.from(`${JSON.stringify([type, ...header])}\n`), bytes]);
}

/** typedBlob read back: the type, the header fields after it, and the bytes. */
export function readTypedBlob(data: Uint8Array): { type: string; header: unknown[]; bytes: Uint8Array } {
  const buf = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  const nl = buf.indexOf(0x0a);
  const [type, ...header] = JSON.parse(buf.toString('utf8', 0, nl)) as [string, ...unknown[]];
  return { type, header, bytes: buf.subarray(nl + 1) };
}
