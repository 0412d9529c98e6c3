// Whether a file is the runtime's own before anything is written: its first lines (or the whole
// file, when it is one JSON document) are put to every runtime's recognizer. The first line some
// runtime claims decides; lines no runtime claims are passed over; a file with none is refused.
import { shellQuote } from '../../core/shell.js';
import { statSync } from 'node:fs';
import { isRecord } from '../../core/neutral.js';
import { UsageError } from '../../errors/index.js';
import { parseHeads } from '../../formats/jsonl.js';
import { eachLine, readTranscript } from '../read/files.js';
import type { Runtime } from './runtime.js';

/** Lines read before a file with none a runtime claims is refused. */
const SCAN_LINES = 200;
/** A file whose first line is not JSON is read as one JSON document up to this size. */
const DOCUMENT_MAX = 256 << 20;

const STOP = Symbol('stop');
const NOT_JSON = Symbol('not JSON');

/**
 * Throws UsageError (exit 2) unless `file` is one `r` writes: naming the runtime whose file it
 * looks like (and its import command), or why it is nobody's; `named`: the message starts with the file's
 * name (a directory import prints it first itself). A runtime without a recognizer takes any file.
 */
export function checkRecognized(r: Runtime, all: readonly Runtime[], file: string, named = true): void {
  const mine = r.import?.recognizer;
  if (!mine) return;
  const others = all.filter((o) => o.name !== r.name && o.import?.recognizer);
  const claimants = (value: unknown, document: boolean) => [r, ...others].filter((o) => o.import!.recognizer!.claims(value, document));
  let lines = 0;
  let first: unknown = NOT_JSON;
  let found: Runtime[] = [];
  try {
    eachLine(file, (bytes) => {
      lines++;
      let value: unknown = NOT_JSON;
      try {
        value = parseHeads(bytes[bytes.length - 1] === 0x0a ? bytes.subarray(0, -1) : bytes);
      } catch {}
      if (lines === 1) first = value;
      if (value !== NOT_JSON) found = claimants(value, false);
      if (found.length || lines >= SCAN_LINES) throw STOP;
    });
  } catch (e) {
    if (e !== STOP) throw e;
  }
  // an empty file: the importer says so
  if (lines === 0) return;
  // one JSON document: a single line's value, or the whole file when its first line is not JSON
  if (!found.length && lines === 1 && first !== NOT_JSON) found = claimants(first, true);
  let document: unknown = NOT_JSON;
  let notJson = '';
  if (!found.length && lines > 1 && first === NOT_JSON && statSync(file).size <= DOCUMENT_MAX) {
    try {
      document = JSON.parse(Buffer.from(readTranscript(file)).toString('utf8'));
      found = claimants(document, true);
    } catch (e) {
      // a document cut short (a chat file being written, a bad copy) says why, not "no known type"
      notJson = (e as Error).message.split('\n')[0];
    }
  }
  if (found.includes(r)) return;
  const what = `${named ? `${file} is ` : ''}not ${article(mine.kind)} ${mine.kind}`;
  const other = found[0];
  if (other) throw new UsageError(`${what}: this looks like ${article(other.import!.recognizer!.kind)} ${other.import!.recognizer!.kind}: ctx import ${other.name} ${shellQuote(file)}`);
  const why =
    document !== NOT_JSON ? 'a JSON document of no known shape'
    : notJson ? `its first line is not JSON, nor is the whole file: ${notJson}`
    : lines === 1 ? (first === NOT_JSON ? 'line 1 is not JSON' : isRecord(first) ? 'line 1 has no known type' : 'line 1 is not a JSON object')
    : lines >= SCAN_LINES ? `none of its first ${lines} lines has a known type`
    : `none of its ${lines} lines has a known type`;
  throw new UsageError(`${what} (${why})`);
}

const article = (noun: string) => (/^[AEIOU]/.test(noun) ? 'an' : 'a');

