// `ctx runtime list|check`: the runtimes ctx can use (built in, and `ctx-runtime-<name>` executables
// on PATH, none of which a list runs), and the conformance check of one from outside against
// docs/runtime-protocol.md.
import { CtxError, UsageError } from '../errors/index.js';
import { unknownName } from '../core/nearest.js';
import { runtimeCheckJson, runtimeListJson } from '../output/records.js';
import { tsvLine } from '../output/style.js';
import { allRuntimes, checkExternalRuntime, externalRuntimes, type CheckReport } from '../runtimes/registry.js';
import { defineCommand } from './command.js';

const ACTIONS = ['list', 'check'] as const;
const CAPABILITIES = ['import', 'capture', 'hooks', 'export'] as const;

interface Listed {
  name: string;
  title?: string;
  capabilities?: string[];
  path?: string;
  used?: boolean;
}

type Data = { list: Listed[] } | { check: CheckReport };

export default defineCommand({
  name: 'runtime',
  summary: 'list the runtimes ctx can use (built in, and ctx-runtime-NAME executables on PATH), or check one from outside against the protocol',
  description:
    'A runtime from outside is an executable ctx-runtime-NAME in an absolute directory of PATH that answers the JSON protocol of docs/runtime-protocol.md. ' +
    'list runs none of them; check runs one: describe, sample, split, split-again, to-neutral, render, hook, each ok, FAIL with the reason, or skip when what it needs failed; exit 1 when one fails.',
  args: [
    { name: 'action', description: 'list, or check NAME', required: true, values: ACTIONS },
    { name: 'name', description: 'check: the runtime from outside (ctx-runtime-NAME on PATH)' },
  ],
  options: [],
  examples: ['ctx runtime list', 'ctx runtime check toy    # runs ctx-runtime-toy from PATH: each check ok or FAIL with the reason', 'ctx runtime check toy --json'],
  async run(io, [action, name]: [string, string?]): Promise<Data> {
    if (!(ACTIONS as readonly string[]).includes(action)) throw new UsageError(unknownName('action', action, ACTIONS, `unknown action '${action}' (${ACTIONS.join(', ')})`, { closed: true }));
    if (action === 'check') {
      if (name === undefined) throw new UsageError('ctx runtime check NAME: name the runtime (ctx-runtime-NAME on PATH)');
      return { check: await checkExternalRuntime(name, io.env) };
    }
    if (name !== undefined) throw new UsageError(`ctx runtime list takes no name (${name})`);
    const builtIn: Listed[] = (await allRuntimes()).map((r) => ({ name: r.name, title: r.title, capabilities: CAPABILITIES.filter((c) => r[c] !== undefined) }));
    const found: Listed[] = (await externalRuntimes(io.env)).map((f) => ({ ...f, used: !builtIn.some((b) => b.name === f.name) }));
    return { list: [...builtIn, ...found] };
  },
  print(io, data: Data) {
    if ('check' in data) {
      if (io.flags.json) return io.json(runtimeCheckJson(data.check));
      for (const c of data.check.checks) io.out(c.result === 'ok' ? `ok ${c.name}\n` : `${c.result === 'fail' ? 'FAIL' : 'skip'} ${c.name}: ${c.reason}\n`);
      return;
    }
    for (const r of data.list) {
      if (io.flags.json) io.json(runtimeListJson(r));
      else if (r.path === undefined) io.out(tsvLine([r.name, 'built-in', r.capabilities!.join(',')]));
      else io.out(tsvLine([r.name, r.path, r.used ? 'external' : 'not used: a built-in runtime has this name']));
    }
  },
  failure(data: Data) {
    if (!('check' in data)) return undefined;
    const failed = data.check.checks.filter((c) => c.result === 'fail').map((c) => c.name);
    return failed.length ? new CtxError(`ctx-runtime-${data.check.runtime}: ${failed.length} of ${data.check.checks.length} checks failed (${failed.join(', ')})`) : undefined;
  },
});
