// The runtime protocol's transport (docs/runtime-protocol.md): one JSON request on stdin of
// `ctx-runtime-<name>`, one JSON object back on stdout, exit 0. Only an executable of exactly that
// name in an absolute directory of PATH is run (as git runs `git-<cmd>`), never through a shell,
// with a timeout and a cap on what it writes; anything else is a ProtocolError naming it and why.
import { spawnSync } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';
import { ProtocolError, UsageError } from '../../errors/index.js';

export { ProtocolError };

export const PROTOCOL = 1;
export const PREFIX = 'ctx-runtime-';
/** What a runtime's name may be: a file name of its own, no path, no dots. */
export const NAME = /^[a-z][a-z0-9-]{0,39}$/;
const TIMEOUT_MS = 10_000;
const MAX_OUTPUT = 64 << 20;

/** Refuses a name that could be a path (exit 2) before anything is looked up. */
export function checkName(name: string): string {
  if (!NAME.test(name)) throw new UsageError(`'${name}' is no runtime name: an external runtime's name is lowercase letters, digits and '-', at most 40, starting with a letter`);
  return name;
}

/** `ctx-runtime-<name>` in the first absolute PATH directory that has it executable; null: none. */
export function findExecutable(name: string, env: NodeJS.ProcessEnv = process.env): string | null {
  checkName(name);
  for (const dir of pathDirs(env)) {
    const file = join(dir, PREFIX + name);
    if (isExecutableFile(file)) return file;
  }
  return null;
}

/** PATH's absolute directories: a relative one would resolve against the agent's working directory. */
export function pathDirs(env: NodeJS.ProcessEnv): string[] {
  return (env.PATH ?? '').split(delimiter).filter((d) => d !== '' && isAbsolute(d));
}

export function isExecutableFile(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export interface Limits {
  timeoutMs: number;
  maxOutput: number;
}

/** The caps: 10 s and 64 MiB a call, or $CTX_RUNTIME_TIMEOUT_MS and $CTX_RUNTIME_MAX_OUTPUT. */
export function limits(env: NodeJS.ProcessEnv = process.env): Limits {
  const num = (v: string | undefined, d: number) => (v !== undefined && /^[1-9][0-9]*$/.test(v) ? Number(v) : d);
  return { timeoutMs: num(env.CTX_RUNTIME_TIMEOUT_MS, TIMEOUT_MS), maxOutput: num(env.CTX_RUNTIME_MAX_OUTPUT, MAX_OUTPUT) };
}

/** One executable and how ctx calls it. */
export interface Executable {
  name: string;
  path: string;
  env: NodeJS.ProcessEnv;
}

/** One request → the answer object; ProtocolError when the executable failed or answered no JSON object. */
export function call(x: Executable, op: string, body: Record<string, unknown> = {}): Record<string, unknown> {
  const { timeoutMs, maxOutput } = limits(x.env);
  const who = `${PREFIX}${x.name} (${x.path})`;
  const r = spawnSync(x.path, [], {
    input: `${JSON.stringify({ protocol: PROTOCOL, op, ...body })}\n`,
    env: { ...x.env, CTX_RUNTIME_PROTOCOL: String(PROTOCOL) },
    timeout: timeoutMs,
    killSignal: 'SIGKILL',
    maxBuffer: maxOutput,
    stdio: ['pipe', 'pipe', 'pipe'],
    shell: false,
    windowsHide: true,
  });
  const err = r.error as NodeJS.ErrnoException | undefined;
  if (err?.code === 'ETIMEDOUT') throw new ProtocolError(`${who}: ${op}: no answer within ${timeoutMs} ms; killed`);
  if (err?.code === 'ENOBUFS') throw new ProtocolError(`${who}: ${op}: wrote more than ${maxOutput} bytes; killed`);
  if (err) throw new ProtocolError(`${who}: ${op}: cannot run it: ${err.code ?? err.message}`);
  if (r.status !== 0) {
    const why = firstLine(r.stderr) || (r.signal ? `killed by ${r.signal}` : `exit ${r.status}`);
    throw new ProtocolError(`${who}: ${op} failed: ${why}`);
  }
  let answer: unknown;
  try {
    answer = JSON.parse(r.stdout.toString('utf8'));
  } catch {
    throw new ProtocolError(`${who}: ${op}: the answer is not JSON: ${JSON.stringify(firstLine(r.stdout).slice(0, 60))}`);
  }
  if (answer === null || typeof answer !== 'object' || Array.isArray(answer)) throw new ProtocolError(`${who}: ${op}: the answer is not a JSON object`);
  return answer as Record<string, unknown>;
}

/** Throws ProtocolError naming the executable, the op and what its answer lacks. */
export function bad(x: Executable, op: string, what: string): never {
  throw new ProtocolError(`${PREFIX}${x.name} (${x.path}): ${op}: ${what}`);
}

const firstLine = (b: Buffer) => b.toString('utf8').trim().split('\n')[0]?.trim() ?? '';

/** Bytes as the protocol carries them: text when they are UTF-8, else base64. */
export function encodeData(bytes: Uint8Array): { text: string } | { base64: string } {
  const text = Buffer.from(bytes).toString('utf8');
  return Buffer.from(text, 'utf8').equals(bytes) ? { text } : { base64: Buffer.from(bytes).toString('base64') };
}

/** `{text}` or `{base64}` → bytes; null when it is neither. */
export function decodeData(v: unknown): Uint8Array | null {
  if (v === null || typeof v !== 'object') return null;
  const d = v as { text?: unknown; base64?: unknown };
  if (typeof d.text === 'string') return Buffer.from(d.text, 'utf8');
  if (typeof d.base64 === 'string' && /^[A-Za-z0-9+/]*={0,2}$/.test(d.base64)) return Buffer.from(d.base64, 'base64');
  return null;
}
