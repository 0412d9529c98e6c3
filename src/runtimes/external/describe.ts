// `describe`: what a runtime from outside says it is and can do, checked field by field.
import { EXTERNAL_FORMAT } from '../../formats/external.js';
import { PROTOCOL, bad, call, type Executable } from './protocol.js';

export const CAPABILITIES = ['import', 'capture', 'export'] as const;
export type Capability = (typeof CAPABILITIES)[number];

export interface Description {
  name: string;
  title: string;
  /** what its bytes are stored as: `<name>-ext-v1` unless it names another `<name>-ext-v<N>` */
  format: string;
  capabilities: Capability[];
  /** where its sessions live (`~/` is the user's home) and the ending of a session file's name */
  sessions: { dir: string; suffix: string };
  /** what resumes a session: `{session}` stands for its id */
  resume?: string;
}

/** Asks the executable; ProtocolError naming the first field that is missing or wrong. */
export function describe(x: Executable): Description {
  return checkDescription(x, call(x, 'describe'));
}

export function checkDescription(x: Executable, a: Record<string, unknown>): Description {
  const no = (what: string): never => bad(x, 'describe', what);
  if (a.protocol !== PROTOCOL) no(`protocol is ${JSON.stringify(a.protocol)}, not ${PROTOCOL}`);
  if (a.name !== x.name) no(`name is ${JSON.stringify(a.name)}, not "${x.name}"`);
  if (typeof a.title !== 'string' || a.title.trim() === '' || /[\u0000-\u001f]/.test(a.title)) no('title is not a one-line string');
  const format = a.format ?? `${x.name}-ext-v1`;
  if (typeof format !== 'string' || !EXTERNAL_FORMAT.test(format) || !format.startsWith(`${x.name}-ext-v`)) no(`format ${JSON.stringify(format)} is not ${x.name}-ext-v<N>`);
  const caps = a.capabilities;
  if (!Array.isArray(caps) || caps.some((c) => !(CAPABILITIES as readonly unknown[]).includes(c))) no(`capabilities is not a list of ${CAPABILITIES.join(', ')}`);
  const s = a.sessions as { dir?: unknown; suffix?: unknown } | undefined;
  if (s === null || typeof s !== 'object' || typeof s.dir !== 'string' || s.dir === '') no('sessions.dir is missing');
  if (typeof s!.suffix !== 'string' || !/^\.[A-Za-z0-9._-]{1,20}$/.test(s!.suffix)) no('sessions.suffix is not a file ending such as ".jsonl"');
  const resume = a.resume;
  if (resume !== undefined && (typeof resume !== 'string' || !resume.includes('{session}'))) no('resume does not contain {session}');
  if ((caps as string[]).includes('export') && resume === undefined) no('resume is missing (export needs it)');
  return { name: x.name, title: a.title as string, format: format as string, capabilities: [...new Set(caps as Capability[])], sessions: { dir: s!.dir as string, suffix: s!.suffix as string }, ...(resume !== undefined ? { resume: resume as string } : {}) };
}
