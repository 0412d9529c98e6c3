// The metadata flags shared by checkpoint and import (DESIGN.md §6).
import type { CommitFields } from '../api/write.js';

export interface MetadataFlags {
  template?: string;
  principal?: string;
  machine?: string;
  session?: string;
  trigger?: string;
  ticket?: string;
  thread?: string;
  summary?: string;
  secrets?: string;
}

export function metadataFields(f: MetadataFlags): CommitFields {
  const out: CommitFields = {};
  if (f.template !== undefined) out.template = f.template;
  if (f.principal !== undefined) out.principal = f.principal;
  if (f.machine !== undefined) out.machine = f.machine;
  if (f.session !== undefined) out.session = f.session;
  if (f.trigger !== undefined) out.trigger = f.trigger as CommitFields['trigger'];
  if (f.ticket !== undefined) out.ticket = f.ticket;
  if (f.thread !== undefined) out.thread = f.thread;
  if (f.summary !== undefined) out.summary = f.summary;
  if (f.secrets !== undefined) out.secrets = f.secrets as CommitFields['secrets'];
  return out;
}
