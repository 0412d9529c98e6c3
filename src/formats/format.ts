// A format plug-in (DESIGN.md §4): one module per format, registered in registry.ts.
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
  /** Estimated tokens of parsed entries (characters of message content / 4). */
  estimateTokens(entries: readonly unknown[]): number;
  /**
   * For binary formats (CBOR): the artifact re-encoded with every string passed through `map`.
   * Text formats leave it out: secret redaction then replaces bytes in place.
   */
  mapStrings?(bytes: Uint8Array, map: (s: string) => string): Uint8Array;
}

export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0];
  return Buffer.concat(parts);
}

/** The characters/4 heuristic, rounded up. */
export function tokensFromChars(chars: number): number {
  return Math.ceil(chars / 4);
}

/** Characters of the text an entry's content carries: strings, text/thinking, tool input and output. */
export function contentChars(content: unknown): number {
  if (typeof content === 'string') return content.length;
  if (Array.isArray(content)) return content.reduce((n: number, b) => n + contentChars(b), 0);
  if (content === null || typeof content !== 'object') return 0;
  const b = content as Record<string, unknown>;
  switch (b.type) {
    case 'text':
      return typeof b.text === 'string' ? b.text.length : 0;
    case 'thinking':
      return typeof b.thinking === 'string' ? b.thinking.length : 0;
    case 'tool_use':
      return JSON.stringify(b.input ?? {}).length + String(b.name ?? '').length;
    case 'tool_result':
      return contentChars(b.content);
    case 'image':
      return 0;
    default:
      return contentChars(b.content ?? b.text ?? '');
  }
}
