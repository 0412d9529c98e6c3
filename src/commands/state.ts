import { existsSync, readFileSync } from 'node:fs';
import { getState, initState, setState } from '../api/state/state.js';
import { shortId } from '../core/ids.js';
import { parseValue, type Json } from '../core/state/values.js';
import { BadInputError, UsageError } from '../errors/index.js';
import { stateValueJson, stateWriteJson } from '../output/records.js';
import type { CommandIO } from '../output/io.js';
import { defineCommand } from './command.js';
import { readStdin } from './stdin.js';
import type { StateValue, StateWrite } from '../api/state/state.js';
import { unknownName } from '../core/nearest.js';

interface Flags {
  as?: string;
  schema?: string;
  format?: string;
  delete?: boolean;
  retry?: boolean;
}

/** `--schema NAME` (shipped: reasoning-v1) or a JSON Schema file. */
function schemaArg(s: string | undefined): string | object | undefined {
  if (s === undefined || !(s.includes('/') || s.endsWith('.json')) || !existsSync(s)) return s;
  try {
    return JSON.parse(readFileSync(s, 'utf8')) as object;
  } catch (e) {
    throw new BadInputError(`${s} is not JSON: ${(e as Error).message}`);
  }
}

/** The agent a write is made as: --as, else $CTX_AGENT. */
export function agentOf(io: CommandIO, as: string | undefined, fallback?: string): string {
  const a = as ?? io.env.CTX_AGENT ?? fallback;
  if (!a) throw new UsageError('say which agent writes: --as AGENT (or CTX_AGENT)');
  return a;
}

/** The agent changing the policy or the schema: --as, else $CTX_AGENT, never a default (the write records it as a claim). */
export function adminOf(io: CommandIO, as: string | undefined, doing: string): string {
  const a = as ?? io.env.CTX_AGENT;
  if (!a) throw new UsageError(`say which agent ${doing}: --as AGENT (or CTX_AGENT), an agent with * in the policy (e.g. --as orchestrator)`);
  return a;
}

type Done = { write: StateWrite } | { read: StateValue };

export default defineCommand({
  name: 'state',
  summary: "structured state of a branch: init its namespaces and policy, set a key as an agent, get a value at any commit",
  description:
    'init: the schema\'s namespaces (reasoning-v1: metadata, reasoning, enrichment, retrieval, llm, diagnostics, audit) and the default policy, as a new branch or a commit on top. ' +
    'set: NAMESPACE.KEY to VALUE (JSON; a bare word is a string; - reads stdin) as --as AGENT, refused with exit 7 when the policy, schema or size limits do not allow it. ' +
    'get: the value as JSON at any commit (BRANCH~N), externalized values read back.',
  args: [
    { name: 'action', description: 'init, set or get', required: true, values: ['init', 'set', 'get'] },
    { name: 'branch', description: 'the branch (get: any commit, BRANCH~N)', required: true, values: 'branch' },
    { name: 'key', description: 'NAMESPACE.KEY (get: also NAMESPACE, or nothing for the whole state)' },
    { name: 'value', description: 'set: JSON, a bare word, or - for stdin' },
  ],
  options: [
    { flags: '--as <agent>', description: 'the agent writing (default: $CTX_AGENT; init: orchestrator)' },
    { flags: '--schema <schema>', description: 'init: reasoning-v1 (default) or a JSON Schema file whose $id is NAME-vN', values: ['reasoning-v1'] },
    { flags: '--format <format>', description: 'init of a new branch: the format of its (empty) artifacts', values: 'storage-format' },
    { flags: '--delete', description: 'set: remove the key instead' },
    { flags: '--retry', description: 'set: when another agent wrote first, read the new state and set again on top of it' },
  ],
  examples: [
    'ctx state init design-room --schema reasoning-v1',
    `ctx state set design-room reasoning.intents '[{"type":"query","confidence":0.95}]' --as intent_detection`,
    'ctx state set design-room llm.provider openai --as inference',
    `ctx state set design-room diagnostics.warnings '[{"message":"slow retrieval"}]' --as validation --retry`,
    'ctx state get design-room reasoning.intents --json',
    'ctx state get design-room~5 enrichment',
  ],
  async run(io, [action, branch, key, value]: [string, string, string | undefined, string | undefined], flags: Flags): Promise<Done> {
    if (action === 'init') {
      if (key !== undefined) throw new UsageError('state init takes a branch only');
      const schema = schemaArg(flags.schema);
      return { write: await io.withRepo(true, (repo) => initState(repo, branch, { schema, agent: agentOf(io, flags.as, 'orchestrator'), format: flags.format })) };
    }
    if (action === 'set') {
      if (key === undefined) throw new UsageError('state set takes NAMESPACE.KEY VALUE');
      if (flags.delete ? value !== undefined : value === undefined) throw new UsageError(flags.delete ? 'state set --delete takes no VALUE' : 'state set takes a VALUE (JSON, a bare word, or - for stdin)');
      const agent = agentOf(io, flags.as);
      let parsed: Json | undefined;
      if (value !== undefined) parsed = parseValue(value === '-' ? (await readStdin()).toString('utf8') : value);
      const write = await io.withRepo(false, (repo) => setState(repo, branch, key, parsed, agent, { retry: flags.retry }));
      for (const w of write.warnings ?? []) io.note(w);
      return { write };
    }
    if (action === 'get') {
      if (value !== undefined) throw new UsageError('state get takes BRANCH [NAMESPACE[.KEY]]');
      return { read: await io.withRepo(false, (repo) => getState(repo, branch, key)) };
    }
    throw new UsageError(unknownName('action', action, ['init', 'set', 'get'], `unknown action '${action}': init, set or get`, { closed: true }));
  },
  print(io, done) {
    if ('read' in done) {
      if (io.flags.json) return io.json(stateValueJson(done.read));
      return io.out(`${JSON.stringify(done.read.value, null, io.tty ? 2 : undefined)}\n`);
    }
    if (io.flags.json) return io.json(stateWriteJson(done.write));
    if (done.write.commit) io.out(`${shortId(done.write.commit.oid)}\n`);
    else io.note('ctx: unchanged: the value is already there');
  },
});
