// A rolling window over a context read (`--since`): which of its parts, and which lines of the
// first, were said at or after the window's start.
import { windowCut, type WindowUnit } from '../../core/window.js';
import type { NeutralMessage } from '../../core/neutral.js';
import { knownFormat } from '../../formats/registry.js';
import { readEntries } from '../../store/context-commits.js';
import type { ContextPart } from './context-reader.js';
import type { RepoContext } from '../repo/repo-context.js';

/**
 * What a window starting at `start` (ms) keeps of the parts: from the first entry at or after it
 * (whole lines of an append format that records entry times), else from the first commit created
 * at or after it; a kept tool result keeps its call (windowCut). Empty: nothing is that recent.
 */
export async function windowParts(ctx: RepoContext, parts: readonly ContextPart[], start: number): Promise<ContextPart[]> {
  const entries = await readEntries(ctx.engine, parts);
  const units = parts.flatMap((p, i) => partUnits(p, Date.parse(entries[i].meta.created_at)).map((u) => ({ ...u, part: i })));
  const k = windowCut(units, start);
  if (k === units.length) return [];
  const { part, at } = units[k];
  return parts.slice(part).map((p, i) => (i === 0 && at > 0 ? { ...p, artifact: p.artifact.subarray(at) } : p));
}

/** A part's entries with their times, tool ids and byte offsets; one unit at commit time where entries carry no time. */
function partUnits(p: ContextPart, created: number): (WindowUnit & { at: number })[] {
  const whole = [{ time: created, calls: [], results: [], at: 0 }];
  const f = knownFormat(p.format);
  if (!f?.entryTime || f.concatRule !== 'append') return whole;
  let entries: unknown[];
  try {
    entries = f.parse(p.artifact, { lastOfFile: true });
  } catch {
    return whole;
  }
  const starts = [0];
  for (let at = p.artifact.indexOf(0x0a); at >= 0 && at + 1 < p.artifact.length; at = p.artifact.indexOf(0x0a, at + 1)) starts.push(at + 1);
  if (starts.length !== entries.length) return whole;
  const units = entries.map((e, i) => {
    const ms = Date.parse(f.entryTime!(e) ?? '');
    return { time: Number.isNaN(ms) ? undefined : ms, ...toolIds(f.toNeutral, e), at: starts[i] };
  });
  return units.some((u) => u.time !== undefined) ? units : whole;
}

/** The tool calls an entry makes and the calls its results answer, as the format reads it. */
function toolIds(toNeutral: ((entries: readonly unknown[]) => NeutralMessage[]) | undefined, entry: unknown): { calls: string[]; results: string[] } {
  let blocks: NeutralMessage['content'] = [];
  try {
    blocks = (toNeutral?.([entry]) ?? []).flatMap((m) => m.content);
  } catch {
    // an entry the format reads only with others around it: no ids of its own
  }
  return { calls: blocks.flatMap((b) => (b.type === 'tool_call' ? [b.id] : [])), results: blocks.flatMap((b) => (b.type === 'tool_result' ? [b.call_id] : [])) };
}
