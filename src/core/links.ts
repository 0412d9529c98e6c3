// Links between code commits and contexts (DESIGN.md §8, seed 000's `context_id` on what an agent
// mutates): the trailers a code commit carries, and the link records a context commit's note holds.
// Both come from someone else (a commit message anyone can write, notes a fetch brought), so each
// is checked here before anything reads it.

/** The trailer naming a context: one per session whose tool calls touched the commit's files. */
export const CONTEXT_TRAILER = 'Ctx-Context';
/** The Linux kernel's trailer for AI-assisted changes: `Assisted-by: <runtime>:<model>`. */
export const ASSISTED_TRAILER = 'Assisted-by';

/** How a link is known: written by ctx's git hooks, or carried over by a rewrite (amend, rebase). */
export type LinkHow = 'recorded' | 'rewritten';

/** One code commit a context led to, as its note records it. */
export interface LinkRecord {
  /** the code commit, 40 (or 64) lowercase hex */
  code: string;
  how: LinkHow;
  /** for `rewritten`: the code commit it replaced */
  from?: string;
  /** the committed files the context's tool calls touched, relative to the code repository's top */
  files?: string[];
  /** the code repository, for people: its origin URL (credentials removed) or its directory's name */
  repo?: string;
  /** when and by whom the record was written */
  at: string;
  by: string;
}

const HEX = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;
const MAX_FILES = 10_000;

/** A note record's link, when it is one and well formed; null for any other record. */
export function linkOfRecord(r: Record<string, unknown>): LinkRecord | null {
  const l = r.link;
  if (!l || typeof l !== 'object' || Array.isArray(l)) return null;
  const { code, how, from, files, repo } = l as Record<string, unknown>;
  if (typeof code !== 'string' || !HEX.test(code)) return null;
  if (how !== 'recorded' && how !== 'rewritten') return null;
  if (from !== undefined && (typeof from !== 'string' || !HEX.test(from))) return null;
  if (files !== undefined && (!Array.isArray(files) || files.length > MAX_FILES || !files.every((f) => typeof f === 'string' && f !== '' && !f.includes('\0')))) return null;
  if (repo !== undefined && (typeof repo !== 'string' || repo.length > 4096)) return null;
  return {
    code,
    how,
    ...(from !== undefined ? { from } : {}),
    ...(files !== undefined ? { files: files as string[] } : {}),
    ...(repo !== undefined ? { repo } : {}),
    at: typeof r.at === 'string' ? r.at : '',
    by: typeof r.by === 'string' ? r.by : '',
  };
}

/** Whether a note record is a link record (well formed or not): it carries no annotation field. */
export const isLinkRecord = (r: Record<string, unknown>): boolean => r.link !== undefined;

/** The note fields of a link (what `appendRecord` adds `v`, `at`, `by` to). */
export function linkFields(l: Omit<LinkRecord, 'at' | 'by'>): Record<string, unknown> {
  return { link: { code: l.code, how: l.how, ...(l.from ? { from: l.from } : {}), ...(l.files ? { files: l.files } : {}), ...(l.repo ? { repo: l.repo } : {}) } };
}

/**
 * The contexts a commit message names: every `Ctx-Context: ctx-<40 hex>` line, in the trailer block
 * or anywhere in the body (a squash merge lists the squashed commits' trailers there), in order, once
 * each, as 40 hex. A claim only: `why` verifies it against what the context's tool calls did.
 */
export function contextClaims(message: string): string[] {
  const out: string[] = [];
  for (const m of message.matchAll(/^[ \t]*ctx-context:[ \t]*ctx-([0-9a-f]{40})[ \t]*$/gim)) {
    const hex = m[1].toLowerCase();
    if (!out.includes(hex)) out.push(hex);
  }
  return out;
}

/** The `(cherry picked from commit X)` lines `git cherry-pick -x` adds, as 40 hex. */
export function cherryPickedFrom(message: string): string[] {
  return [...message.matchAll(/^\(cherry picked from commit ([0-9a-f]{40})\)$/gm)].map((m) => m[1]);
}

/** The `Assisted-by:` values of a message, in order. */
export function assistedBy(message: string): string[] {
  return [...message.matchAll(/^[ \t]*assisted-by:[ \t]*(\S.*?)[ \t]*$/gim)].map((m) => m[1]);
}

/** `<runtime>:<model>` for the trailer; a model unknown is `unknown`. Spaces are not allowed in either part. */
export function assistedValue(runtime: string, model: string | undefined): string {
  const clean = (s: string) => s.trim().replace(/\s+/g, '-') || 'unknown';
  return `${clean(runtime)}:${clean(model ?? '')}`;
}
