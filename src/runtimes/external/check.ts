// `ctx runtime check NAME`: a runtime from outside against docs/runtime-protocol.md, one check per
// promise ctx relies on, each ok, FAIL with the reason, or skip when what it needs failed first.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { Segment } from '../../api/capture/capture.js';
import { UsageError } from '../../errors/index.js';
import { compact, type NeutralMessage } from '../../core/neutral.js';
import { describe, type Description } from './describe.js';
import { hook, render, sample, split, toNeutral, type Sample } from './ops.js';
import { NAME, PREFIX, ProtocolError, checkName, findExecutable, isExecutableFile, pathDirs, type Executable } from './protocol.js';

export interface Check {
  name: string;
  result: 'ok' | 'fail' | 'skip';
  /** why it failed, or why it was skipped */
  reason?: string;
}

export interface CheckReport {
  runtime: string;
  path: string;
  checks: Check[];
}

export function checkRuntime(name: string, builtIn: readonly string[], env: NodeJS.ProcessEnv): CheckReport {
  checkName(name);
  if (builtIn.includes(name)) throw new UsageError(`${name} is built into ctx: check runs a runtime from outside (${PREFIX}<name> on PATH)`);
  const path = findExecutable(name, env);
  if (path === null) throw new UsageError(`no executable ${PREFIX}${name} on PATH`, { hint: `put ${PREFIX}${name} in an absolute directory of PATH and make it executable` });
  const x: Executable = { name, path, env };
  const checks: Check[] = [];
  // each step's answer for the steps after it; undefined: it failed
  const step = <T>(check: string, needs: (string | undefined)[], f: () => T): T | undefined => {
    const missing = needs.find((n) => n !== undefined && !checks.some((c) => c.name === n && c.result === 'ok'));
    if (missing !== undefined) {
      checks.push({ name: check, result: 'skip', reason: `needs ${missing}` });
      return undefined;
    }
    try {
      const v = f();
      checks.push({ name: check, result: 'ok' });
      return v;
    } catch (e) {
      if (!(e instanceof ProtocolError)) throw e;
      const reason = e.message.replace(`${PREFIX}${name} (${path}): `, '');
      checks.push({ name: check, result: 'fail', reason: reason.startsWith(`${check}: `) ? reason.slice(check.length + 2) : reason });
      return undefined;
    }
  };
  const d = step('describe', [], () => describe(x));
  const can = (c: string) => d?.capabilities.includes(c as never) !== false;
  const s = step('sample', ['describe'], () => sample(x));
  if (can('import') || can('capture')) {
    const whole = step('split', ['sample'], () => checkSplit(x, s!));
    step('split-again', ['split'], () => checkSplitAgain(x, s!, whole!));
  }
  const messages = step('to-neutral', ['sample'], () => nonEmpty(x, toNeutral(x, s!.transcript)));
  if (can('export')) step('render', ['to-neutral'], () => checkRender(x, d!, messages!));
  if (can('capture')) step('hook', ['sample'], () => checkHook(x, s!));
  return { runtime: name, path, checks };
}

/** The sample's turns cover its bytes (`split` checks order and coverage), at least one. */
function checkSplit(x: Executable, s: Sample): Segment[] {
  const segments = split(x, s.transcript, true).segments;
  if (segments.length > 0) return segments;
  throw new ProtocolError(`split: no turn in the sample's ${s.transcript.length} bytes`);
}

/** Live capture splits what is new: the bytes after the first turn must split as the whole file's rest did. */
function checkSplitAgain(x: Executable, s: Sample, whole: Segment[]): void {
  if (whole.length < 2) return;
  const at = whole[0].end;
  const rest = split(x, s.transcript.subarray(at), true).segments.map((g) => [g.kind, g.start + at, g.end + at]);
  const expected = whole.slice(1).map((g) => [g.kind, g.start, g.end]);
  if (!isDeepStrictEqual(rest, expected)) throw new ProtocolError(`split: the bytes after the first turn (from ${at}) split as ${JSON.stringify(rest)}, not as the whole file's ${JSON.stringify(expected)}`);
}

function nonEmpty(x: Executable, messages: NeutralMessage[]): NeutralMessage[] {
  if (messages.length === 0) throw new ProtocolError(`to-neutral: no message in the sample`);
  return messages;
}

/** render then to-neutral gives the messages back (their source ids and times aside). */
function checkRender(x: Executable, d: Description, messages: NeutralMessage[]): void {
  const out = render(x, messages, '00000000-0000-4000-8000-000000000000', '/');
  if (!out.file.endsWith(d.sessions.suffix)) throw new ProtocolError(`render: file ${out.file} does not end with ${d.sessions.suffix}`);
  const back = toNeutral(x, out.bytes);
  const plain = (ms: NeutralMessage[]) => ms.map((m) => JSON.parse(JSON.stringify(compact({ ...m, ids: undefined, timestamp: undefined }))));
  const [a, b] = [plain(messages), plain(back)];
  const why = a.length !== b.length ? `${b.length} messages, not ${a.length}` : `message ${a.findIndex((m, k) => !isDeepStrictEqual(m, b[k]))} differs`;
  if (a.length !== b.length || !isDeepStrictEqual(a, b)) throw new ProtocolError(`render: to-neutral of what it rendered is not the messages it was given (${why})`);
}

function checkHook(x: Executable, s: Sample): void {
  if (hook(x, s.hook) === null) throw new ProtocolError(`hook: the sample's hook event gives nothing to capture`);
}

export interface Found {
  name: string;
  path: string;
}

/** The `ctx-runtime-<name>` executables on PATH, first of each name, without running any. */
export function foundOnPath(env: NodeJS.ProcessEnv): Found[] {
  const seen = new Map<string, string>();
  for (const dir of pathDirs(env)) {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      continue;
    }
    for (const f of names.sort()) {
      const name = f.slice(PREFIX.length);
      if (!f.startsWith(PREFIX) || !NAME.test(name) || seen.has(name) || !isExecutableFile(join(dir, f))) continue;
      seen.set(name, join(dir, f));
    }
  }
  return [...seen].map(([name, path]) => ({ name, path })).sort((a, b) => a.name.localeCompare(b.name));
}
