// A format plug-in (DESIGN.md §4): one module per format, registered in registry.ts.
import type { NeutralMessage } from '../core/neutral.js';

export interface StorageFormat {
  name: string;
  /** extension of the artifact's tree entry: `delta.<ext>` */
  ext: string;
  /**
   * Decode and check artifact bytes; throws BadInputError naming the problem. `lastOfFile`: the
   * artifact ends an imported file, whose own last line may lack its newline.
   */
  parse(bytes: Uint8Array, opts?: { lastOfFile?: boolean }): unknown[];
  /** Ordered artifacts → one artifact. */
  concat(parts: readonly Uint8Array[]): Uint8Array;
  /** Messages among parsed entries. */
  count(entries: readonly unknown[]): number;
  /** The message texts among parsed entries that token estimates count (meta.json's token_count, ctx budget). */
  tokenTexts(entries: readonly unknown[]): string[];
  /**
   * For binary formats (CBOR): the artifact re-encoded with every string passed through `map`.
   * Text formats leave it out: secret redaction then replaces bytes in place.
   */
  mapStrings?(bytes: Uint8Array, map: (s: string) => string): Uint8Array;
  /** Parsed entries → neutral messages (structural translation reads through this). */
  toNeutral?(entries: readonly unknown[]): NeutralMessage[];
  /** Neutral messages → one artifact of this format (structural translation writes through this). */
  fromNeutral?(messages: readonly NeutralMessage[]): Uint8Array;
  /** An older version of a runtime's format: how its fields map into the newer one (the field-level tier). */
  fieldMap?: FieldMap;
}

export interface FieldMap {
  /** the newer format the entries map into */
  to: string;
  /**
   * Parsed entries of one run of consecutive artifacts → one artifact of `to`. `timestamp`: the
   * run's first commit's created_at, for lines that need one before the entries give any.
   */
  upgrade(entries: readonly unknown[], opts: { timestamp: string }): Uint8Array;
}

export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0];
  return Buffer.concat(parts);
}

/** The texts an entry's content carries: strings, text and thinking, tool names and JSON inputs, result texts. */
export function contentTexts(content: unknown): string[] {
  if (typeof content === 'string') return [content];
  if (Array.isArray(content)) return content.flatMap(contentTexts);
  if (content === null || typeof content !== 'object') return [];
  const b = content as Record<string, unknown>;
  switch (b.type) {
    case 'text':
      return typeof b.text === 'string' ? [b.text] : [];
    case 'thinking':
      return typeof b.thinking === 'string' ? [b.thinking] : [];
    case 'tool_use':
      return [String(b.name ?? ''), JSON.stringify(b.input ?? {})];
    case 'tool_result':
      return contentTexts(b.content);
    case 'image':
      return [];
    default:
      return contentTexts(b.content ?? b.text ?? '');
  }
}
