// A save's `Ctx-Save:` record as read back from a tag, which a fetch may have brought from anyone:
// each field checked before a listing prints it or a restore uses it.
import { checkBranchName } from '../../store/refs.js';

/** A save tag's whole message at most: ctx save writes a few kB, and a listing holds every save. */
export const MAX_SAVE_MESSAGE = 1024 * 1024;

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const STOPS: readonly unknown[] = ['compaction', 'root'];

/** A value from the record, for a one-line message: JSON, cut at 40 characters (control characters escaped). */
function shown(v: unknown): string {
  const text = typeof v === 'number' ? String(v) : (JSON.stringify(v) ?? String(v));
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

const isTime = (v: unknown) => typeof v === 'string' && ISO_MS.test(v) && !Number.isNaN(Date.parse(v));
const isCount = (v: unknown) => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function isBranchName(v: unknown): boolean {
  if (typeof v !== 'string' || v.length > 1024) return false;
  try {
    checkBranchName(v);
    return true;
  } catch {
    return false;
  }
}

/** What is wrong with a version-1 record (the first thing found), or null when every field is as ctx save writes it. */
export function saveRecordProblem(r: Record<string, unknown>): string | null {
  if (!isBranchName(r.branch)) return `branch is not a branch name (${shown(r.branch)})`;
  if (!isTime(r.saved_at)) return `saved_at is not an ISO 8601 UTC time (${shown(r.saved_at)})`;
  if (typeof r.summary !== 'string') return `summary is not a string (${shown(r.summary)})`;
  for (const k of ['message_count', 'token_count'] as const) if (r[k] !== null && !isCount(r[k])) return `${k} is not a whole number from 0 (${shown(r[k])})`;
  if (typeof r.format !== 'string' || !/^[\x21-\x7e]{1,100}$/.test(r.format)) return `format is not a format name (${shown(r.format)})`;
  const w = r.window;
  if (!isObject(w)) return `window is not an object (${shown(w)})`;
  if (w.since !== null && !isTime(w.since)) return `window.since is not an ISO 8601 UTC time (${shown(w.since)})`;
  if (!STOPS.includes(w.stop)) return `window.stop is not compaction or root (${shown(w.stop)})`;
  if (w.from !== null && (typeof w.from !== 'string' || !/^ctx-[0-9a-f]{40}$/.test(w.from))) return `window.from is not a commit id (${shown(w.from)})`;
  if (!isCount(w.commits)) return `window.commits is not a whole number from 0 (${shown(w.commits)})`;
  if (r.redactions !== undefined && (!isObject(r.redactions) || !Object.values(r.redactions).every(isCount))) return `redactions is not a count per rule (${shown(r.redactions)})`;
  return null;
}

/** `2.0 MiB` */
export const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
