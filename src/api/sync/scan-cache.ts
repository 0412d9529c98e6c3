// Which commits the push scan already found clean, so a push (to a second remote, or again after a
// refusal) reads and scans only commits it never scanned. A derived file, never pushed:
// <store>/ctx/scan/clean-<rules>, commit ids appended one a line, one file per version of the rules
// (a commit id fixes its message, meta.json and artifact; new rules start an empty file). Only a
// clean result is kept, so a commit with a finding is scanned, and refused, every time.
import { createHash } from 'node:crypto';
import { closeSync, constants, fstatSync, openSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { SECRET_RULES, scanSecrets } from '../../core/secret-rules.js';
import { appendDerived, derivedDir } from '../../store/derived.js';

/** Past this the file starts over: a cache, not a record (~3 M commits). */
const MAX_BYTES = 64 << 20;
const LINE = /^[0-9a-f]{40}$/;

/** What decides a verdict: every rule's pattern, keywords, thresholds and check, and the scanner itself. */
function rulesDigest(): string {
  const rules = SECRET_RULES.map((r) => [r.id, r.pattern.source, r.pattern.flags, r.keywords ?? null, r.minEntropy ?? null, r.group ?? null, String(r.check ?? '')]);
  return createHash('sha256').update(JSON.stringify(rules)).update(String(scanSecrets)).digest('hex').slice(0, 16);
}

export interface ScanCache {
  has(commit: string): boolean;
  /** record commits found clean (appended; a concurrent push appends its own) */
  add(commits: readonly string[]): void;
}

export function openScanCache(gitdir: string): ScanCache {
  const dir = derivedDir(gitdir, 'scan');
  const name = `clean-${rulesDigest()}`;
  const path = join(dir, name);
  // files of other rule versions say nothing about these rules
  for (const f of readdirSync(dir)) if (f !== name && /^clean-[0-9a-f]+$/.test(f)) rmSync(join(dir, f), { force: true });
  const known = new Set<string>();
  for (const line of readClean(path).split('\n')) if (LINE.test(line)) known.add(line); // a torn line (two pushes appending at once) is left out
  return {
    has: (commit) => known.has(commit),
    add(commits) {
      const fresh = commits.filter((c) => !known.has(c));
      if (!fresh.length) return;
      appendDerived(path, `${fresh.join('\n')}\n`);
      for (const c of fresh) known.add(c);
    },
  };
}

/** The file's text, never through a link; one past MAX_BYTES (or not a file) is removed and reads as empty. */
function readClean(path: string): string {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return '';
    rmSync(path, { force: true }); // a link planted there
    return '';
  }
  try {
    const st = fstatSync(fd);
    if (st.isFile() && st.size <= MAX_BYTES) return readFileSync(fd, 'latin1');
  } finally {
    closeSync(fd);
  }
  rmSync(path, { force: true, recursive: true });
  return '';
}
