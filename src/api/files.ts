// Files a user names (a transcript, an artifact, a summary): read whole, with one-line errors.
import { readFileSync } from 'node:fs';
import { BadInputError, NotFoundError } from '../errors/index.js';

export function readTranscript(file: string): Uint8Array {
  try {
    return readFileSync(file);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new NotFoundError(`no such file: ${file}`);
    throw new BadInputError(`cannot read ${file}: ${code ?? (e as Error).message}`);
  }
}
