// A format plug-in (DESIGN.md §4): one module per format, registered in registry.ts. Code outside
// formats/ asks a format for its traits (how it concatenates, whether it is binary, whether its
// compactions keep original lines) and never tests its name.
import type { CompactionResult } from '../core/compaction.js';
import type { NeutralMessage } from '../core/neutral.js';
import type { LongStrings } from './jsonl.js';

/**
 * How a format's artifacts join into one context: `append` (bytes, each artifact whole lines),
 * `merge` (decoded arrays merged, encoded once), `snapshot` (each artifact is the whole; the last wins).
 */
export type ConcatRule = 'append' | 'merge' | 'snapshot';

export interface StorageFormat {
  name: string;
  /** extension of the artifact's tree entry: `delta.<ext>` */
  ext: string;
  /**
   * Decode and check artifact bytes; throws BadInputError naming the problem. `lastOfFile`: the
   * artifact ends an imported file, whose own last line may lack its newline.
   */
  parse(bytes: Uint8Array, opts?: { lastOfFile?: boolean }): unknown[];
  /**
   * `parse` without holding the entries: each one to `each` as it is decoded, the same errors. For
   * formats whose `count` and `tokenTexts` of each entry alone add up to theirs over all entries:
   * meta.json's counts of a large artifact then never hold it parsed whole.
   */
  eachEntry?(bytes: Uint8Array, opts: { lastOfFile?: boolean; long?: LongStrings } | undefined, each: (entry: unknown) => void): void;
  /**
   * `eachEntry` takes `long` (its long strings then markers) and `tokenTexts` give an entry's strings
   * unchanged: a long text is counted a piece at a time, never held whole.
   */
  longTexts?: boolean;
  /** Ordered artifacts → one artifact, by `concatRule`. */
  concat(parts: readonly Uint8Array[]): Uint8Array;
  concatRule: ConcatRule;
  /** artifacts are bytes, not text (JSON output carries them base64) */
  binary?: boolean;
  /**
   * Parsed entries (as `parse` gives them) → one artifact: what an agent loop appends through the
   * library's session. Append formats of JSON lines need none (a line per entry).
   */
  encode?(entries: readonly unknown[]): Uint8Array;
  /** Messages among parsed entries. */
  count(entries: readonly unknown[]): number;
  /** The message texts among parsed entries that token estimates count (meta.json's token_count, ctx budget). */
  tokenTexts(entries: readonly unknown[]): string[];
  /**
   * For binary formats (CBOR): the artifact re-encoded with every string passed through `map`.
   * Text formats leave it out: secret redaction then replaces bytes in place.
   */
  mapStrings?(bytes: Uint8Array, map: (s: string) => string): Uint8Array;
  /**
   * The runtime whose sessions this format holds, as its messages' `origin.runtime` names it: a
   * translation into this format leaves out another runtime's preamble (the runtime adds its own).
   */
  runtime?: string;
  /** Parsed entries → neutral messages (structural translation reads through this). */
  toNeutral?(entries: readonly unknown[]): NeutralMessage[];
  /** Neutral messages → one artifact of this format (structural translation writes through this). */
  fromNeutral?(messages: readonly NeutralMessage[]): Uint8Array;
  /** An older version of a runtime's format: how its fields map into the newer one (the field-level tier). */
  fieldMap?: FieldMap;
  /**
   * A compaction written in this format's own shape, keeping the kept messages as their original
   * entries (Claude Code's compact_boundary + summary + kept lines). Without it, a compaction in
   * this format is written from the neutral messages (`fromNeutral`).
   */
  writeCompaction?(c: CompactionWrite): Uint8Array;
  /**
   * A context that starts at a compaction keeping entries from before it (Claude Code 2.1.3xx's
   * `compactMetadata.preservedMessages`): the context with those entries where the runtime's own
   * resume reads them. Null: it keeps none (known from the context's first lines alone); else what
   * puts them in, given `before`, which reads the context up to the compaction.
   */
  withKept?(context: Uint8Array): ((before: () => Promise<Uint8Array>) => Promise<Uint8Array>) | null;
  /**
   * The time a parsed entry records (ISO), for formats that keep one per entry: a window (`--since`)
   * then cuts inside an artifact, between whole entries. Without it, a window goes by commit time.
   */
  entryTime?(entry: unknown): string | undefined;
  /**
   * What an artifact says about its session as a whole (a title the runtime gave it, the pull
   * request it is linked to); the newest wins, and a chain's commits carry it forward in meta.source.
   */
  sessionInfo?(bytes: Uint8Array): SessionInfo;
  /**
   * The token usage the model API reported, one record per response among parsed entries (`ctx
   * usage`); a response written more than once carries the same `id`, counted once.
   */
  usage?(entries: readonly unknown[]): UsageRecord[];
}

/** One API response's tokens; `input` excludes the cached tokens read or written. */
export interface UsageRecord {
  /** the response's id (a message or request id), when the format keeps one */
  id?: string;
  /** the model named by the response, or the last one the entries named before it */
  model?: string;
  /** ISO time of the entry */
  time?: string;
  /** the working directory the entries name (the project) */
  cwd?: string;
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

/** A non-negative safe integer field, else 0. */
export const tokens = (v: unknown): number => (Number.isSafeInteger(v) && (v as number) >= 0 ? (v as number) : 0);

/** A string field, else undefined. */
export const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** A session's title and pull request, as meta.source keeps them. */
export interface SessionInfo {
  title?: string;
  pr?: { number: number; url: string; repository: string };
}

/** What `writeCompaction` gets: the context as read, and what the compaction pipeline made of it. */
export interface CompactionWrite {
  /** the context's bytes in this format, the entries the messages were read from */
  source: Uint8Array;
  /** the messages the pipeline read, in order */
  input: readonly NeutralMessage[];
  /** for each input message: read from `source` (else from another format's artifacts) */
  inSource: readonly boolean[];
  out: Pick<CompactionResult, 'messages' | 'origins' | 'summaryAt' | 'tokensBefore'>;
  /** the compaction's time */
  timestamp: string;
  /** the commit compacted: ids derived from it make the same compaction give the same bytes */
  tip: string;
}

/** An output-only format: rendered from neutral messages (markdown), or every artifact as it is (raw). */
export type OutputFormat =
  | { name: string; tier: 'rendering'; render(messages: readonly NeutralMessage[], first?: number): Uint8Array }
  | { name: string; tier: 'raw'; render(artifacts: readonly RawArtifact[]): Uint8Array };

/** An artifact as stored, for the raw output. */
export interface RawArtifact {
  id: string;
  type: string;
  format: string;
  bytes: Uint8Array;
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

/** An entry's own `timestamp` field (Claude Code, Codex and Gemini CLI lines). */
export const timestampField = (entry: unknown): string | undefined =>
  entry !== null && typeof entry === 'object' && typeof (entry as { timestamp?: unknown }).timestamp === 'string' ? (entry as { timestamp: string }).timestamp : undefined;

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
