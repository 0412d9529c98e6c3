// The metadata flags shared by checkpoint, import and compact (DESIGN.md §6): declared once.
import type { CommitFields } from '../api/write/write.js';
import type { OptionDecl } from './command.js';

export interface MetadataFlags {
  template?: string;
  principal?: string;
  machine?: string;
  session?: string;
  trigger?: string;
  ticket?: string;
  thread?: string;
  author?: string;
  summary?: string;
  secrets?: string;
}

export const SECRETS_OPTION: OptionDecl = { flags: '--secrets <policy>', description: 'found secrets: redact, block or warn (default: git config ctx.secrets, else redact)', choices: ['redact', 'block', 'warn'] };

export const METADATA_OPTIONS: readonly OptionDecl[] = [
  { flags: '--template <name>', description: "what kind of agent (default: $CTX_TEMPLATE, else agent; the runtime's name on import)" },
  { flags: '--principal <name>', description: 'who ran it (default: $CTX_PRINCIPAL or the OS user)' },
  { flags: '--machine <name>', description: 'where it ran (default: $CTX_MACHINE or the host name)' },
  { flags: '--session <id>', description: "session id (default: $CTX_SESSION; the transcript's on import)" },
  {
    flags: '--trigger <t>',
    description: 'turn_boundary, tool_call, compaction, session_end, explicit (default) or import (default on import)',
    values: ['turn_boundary', 'tool_call', 'compaction', 'session_end', 'explicit', 'import'],
  },
  { flags: '--ticket <id>', description: 'associated ticket' },
  { flags: '--thread <id>', description: 'associated thread (ctx threads lists them; log and materialize --thread filter by it)' },
  { flags: '--author <agent>', description: "the agent whose entries these are (materialize --for AGENT shows them as the agent's own)" },
  { flags: '--summary <text>', description: 'summary of the commit' },
  SECRETS_OPTION,
];

/** Who annotates: annotate and summarize. */
export const ANNOTATOR_OPTION: OptionDecl = { flags: '--principal <name>', description: 'who annotates (default: $CTX_PRINCIPAL or the OS user)' };

/** The materialize stop, shared by materialize, budget and export. */
export const STOP_OPTION: OptionDecl = { flags: '--stop <stop>', description: 'compaction (default), root, or an ancestor id', default: 'compaction', values: ['compaction', 'root'] };

export function metadataFields(f: MetadataFlags): CommitFields {
  const out: CommitFields = {};
  if (f.template !== undefined) out.template = f.template;
  if (f.principal !== undefined) out.principal = f.principal;
  if (f.machine !== undefined) out.machine = f.machine;
  if (f.session !== undefined) out.session = f.session;
  if (f.trigger !== undefined) out.trigger = f.trigger as CommitFields['trigger'];
  if (f.ticket !== undefined) out.ticket = f.ticket;
  if (f.thread !== undefined) out.thread = f.thread;
  if (f.author !== undefined) out.author = f.author;
  if (f.summary !== undefined) out.summary = f.summary;
  if (f.secrets !== undefined) out.secrets = f.secrets as CommitFields['secrets'];
  return out;
}
