// The links a store keeps: each code commit a context led to is a link record in the note on the
// context commit (refs/notes/ctx, so it syncs with push and fetch and merges as a union), and the
// other way round, code commit → contexts, is an index of every note's link records, derived data
// under <repo>/ctx/ rebuilt when the notes ref moves.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { linkFields, linkOfRecord, type LinkRecord } from '../../core/links.js';
import { derivedDir, writeDerived } from '../../store/derived.js';
import { notesIndexAt, readNotes } from '../../store/notes.js';
import { refs } from '../../store/refs.js';
import { noteRecords } from '../read/read.js';
import { appendRecord } from '../write/branch-ops.js';
import type { RepoContext } from '../repo/repo-context.js';

export type { LinkRecord } from '../../core/links.js';

/** A link as the index holds it: the context commit (40 hex) and its record. */
export interface ContextLink {
  context: string;
  link: LinkRecord;
}

/** Record that the context commit `context` led to a code commit. */
export async function recordLink(ctx: RepoContext, context: string, link: Omit<LinkRecord, 'at' | 'by'>, principal?: string): Promise<LinkRecord> {
  const r = await appendRecord(ctx, context, principal ?? ctx.defaults.principal, linkFields(link));
  return linkOfRecord(r)!;
}

/** The code commits a context commit led to, in the order they were recorded (one per code commit: the first record). */
export async function linksOf(ctx: RepoContext, context: string): Promise<LinkRecord[]> {
  const notes = await readNotes(ctx.engine, ctx.refs, [context]);
  return uniqueLinks(noteRecords(notes.get(context)).flatMap((r) => linkOfRecord(r) ?? []));
}

function uniqueLinks(links: LinkRecord[]): LinkRecord[] {
  const seen = new Set<string>();
  return links.filter((l) => !seen.has(l.code) && seen.add(l.code));
}

interface IndexFile {
  v: 1;
  /** the notes ref's tip the index was built at */
  notes: string;
  links: [string, LinkRecord][];
}

/** code commit (hex) → the contexts linked to it, over every note; kept in <repo>/ctx/links/index.json while the notes tip is the same. */
export async function linkIndex(ctx: RepoContext): Promise<Map<string, ContextLink[]>> {
  const tip = ctx.refs.read(refs.notes);
  const out = new Map<string, ContextLink[]>();
  if (!tip) return out;
  const file = join(ctx.gitdir, 'ctx', 'links', 'index.json');
  let pairs: [string, LinkRecord][] | null = null;
  try {
    const f = JSON.parse(readFileSync(file, 'utf8')) as IndexFile;
    if (f.v === 1 && f.notes === tip && Array.isArray(f.links)) pairs = f.links;
  } catch {
    // none yet, or unreadable: rebuilt below
  }
  if (pairs === null) {
    const index = await notesIndexAt(ctx.engine, tip);
    const notes = await readNotes(ctx.engine, ctx.refs, [...index.keys()]);
    pairs = [];
    for (const [context, text] of notes) {
      if (!text.includes('"link"')) continue;
      for (const l of uniqueLinks(noteRecords(text).flatMap((r) => linkOfRecord(r) ?? []))) pairs.push([context, l]);
    }
    try {
      writeDerived(join(derivedDir(ctx.gitdir, 'links'), 'index.json'), JSON.stringify({ v: 1, notes: tip, links: pairs } satisfies IndexFile));
    } catch {
      // a read-only store still answers
    }
  }
  for (const [context, raw] of pairs) {
    // the file is derived data: each entry is checked as a note's record is
    const link = typeof context === 'string' && /^[0-9a-f]{40}$/.test(context) ? linkOfRecord({ link: raw, at: raw?.at, by: raw?.by }) : null;
    if (!link) continue;
    const list = out.get(link.code);
    if (list) list.push({ context, link });
    else out.set(link.code, [{ context, link }]);
  }
  return out;
}
