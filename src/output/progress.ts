// Progress on stderr for people: one line redrawn in place (`\r` … erase to end of line), counts,
// rate and ETA. Nothing at all unless stderr is a terminal and $CI is unset. Hand-written rather
// than a library: ora (a spinner, no counts) looped forever on a 0-column terminal, and a bar is one
// line of text; this one writes only on updates, keeps no timer, hides no cursor, so there is
// nothing to restore when the process is killed and nothing that can spin whatever the terminal says.

export type ProgressUnit = 'commits' | 'bytes' | '';

export interface Progress {
  /** `done` of `total` (total 0 or unknown: counts without a bar) */
  update(done: number, total?: number): void;
  /** a line of text instead of counts (a transport's own report); `phase N/M` gets a bar */
  status(text: string): void;
  /** erase the line; safe to call twice, or without any update */
  done(): void;
}

export interface ProgressStream {
  isTTY?: boolean;
  columns?: number;
  write(text: string): unknown;
}

const SILENT: Progress = { update() {}, status() {}, done() {} };
/** redraws at most this often, except the first and the last */
const EVERY_MS = 100;
const BAR = 20;

/** Whether progress is shown at all: a terminal on stderr and no CI. */
export function progressWanted(stream: ProgressStream, env: NodeJS.ProcessEnv): boolean {
  return Boolean(stream.isTTY) && !env.CI;
}

export function progress(label: string, unit: ProgressUnit, stream: ProgressStream = process.stderr, env: NodeJS.ProcessEnv = process.env, now: () => number = Date.now): Progress {
  if (!progressWanted(stream, env)) return SILENT;
  const started = now();
  let last = -Infinity;
  let shown = false;
  let finished = false;
  const draw = (what: string, rest: string, force: boolean) => {
    const t = now();
    if (finished || (!force && t - last < EVERY_MS)) return;
    last = t;
    shown = true;
    write(stream, `\r${fit(what, rest, stream.columns)}\x1b[K`);
  };
  const counts = (done: number, total: number | undefined, unitName: ProgressUnit) => {
    const whole = total !== undefined && total > 0;
    const secs = (now() - started) / 1000;
    const rate = secs > 0 ? done / secs : 0;
    const parts: string[] = [];
    if (whole) parts.push(bar(done / total));
    parts.push(whole ? `${amount(done, unitName, false)}/${amount(total, unitName, true)}` : amount(done, unitName, true));
    if (rate > 0) parts.push(`${amount(rate, unitName, true)}/s`);
    if (whole && rate > 0 && done < total) parts.push(`ETA ${duration((total - done) / rate)}`);
    return parts.join('  ');
  };
  return {
    update: (done, total) => draw(label, counts(done, total, unit), !shown || (total !== undefined && done >= total)),
    status: (text) => {
      const m = /^(.*?)\s*(\d+)\/(\d+)$/.exec(text);
      if (m) draw(`${label}: ${m[1]}`, counts(Number(m[2]), Number(m[3]), ''), !shown || m[2] === m[3]);
      else draw(`${label}: ${text}`, '', !shown);
    },
    done: () => {
      if (shown && !finished) write(stream, '\r\x1b[K');
      finished = true;
    },
  };
}

function write(stream: ProgressStream, text: string): void {
  try {
    stream.write(text);
  } catch {
    // a terminal that went away: progress is not worth an error
  }
}

/**
 * `what  rest` in fewer characters than the terminal is wide, so it never wraps: the label gives way
 * first (its middle elided), then the tail. 0, missing or absurd widths count as 80.
 */
export function fit(what: string, rest: string, columns: number | undefined): string {
  const width = columns !== undefined && Number.isFinite(columns) && columns >= 10 ? Math.min(columns, 500) : 80;
  const label = [...what];
  const room = width - 1 - (rest ? [...rest].length + 2 : 0);
  const head = label.length <= room ? what : room >= 12 ? `${label.slice(0, room - 8).join('')}…${label.slice(-7).join('')}` : label.slice(0, Math.max(room, 10)).join('');
  const line = [...(rest ? `${head}  ${rest}` : head)];
  return line.length < width ? line.join('') : `${line.slice(0, width - 2).join('')}…`;
}

export function bar(fraction: number): string {
  const f = Math.max(0, Math.min(1, Number.isFinite(fraction) ? fraction : 0));
  const full = Math.round(f * BAR);
  return `[${'#'.repeat(full)}${'.'.repeat(BAR - full)}] ${String(Math.floor(f * 100)).padStart(3)}%`;
}

function amount(n: number, unit: ProgressUnit, withUnit: boolean): string {
  if (unit === 'bytes') return bytes(n);
  const num = Number.isInteger(n) ? String(n) : n.toFixed(1);
  return withUnit && unit ? `${num} ${unit}` : num;
}

function bytes(n: number): string {
  if (n < 1024) return `${Math.round(n)} B`;
  const units = ['KiB', 'MiB', 'GiB'];
  let v = n / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v.toFixed(1)} ${units[i]}`;
}

function duration(secs: number): string {
  if (!Number.isFinite(secs)) return '?';
  const s = Math.ceil(secs);
  return s < 60 ? `${s}s` : s < 3600 ? `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s` : `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}
