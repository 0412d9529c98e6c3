// A runtime from outside: `ctx-runtime-<name>` on PATH, speaking docs/runtime-protocol.md, as a
// Runtime of the registry. It is asked what it is once per process (`describe`); what it can do
// follows from its answer. It has no hook settings (it installs its own hooks to run
// `ctx hook <name>`) and no live-session catch-up (that would run it because the store named it).
import type { Runtime } from '../../api/capture/runtime.js';
import { registerExternalFormat } from '../../formats/registry.js';
import { UsageError } from '../../errors/index.js';
import { writeSession } from '../session-file.js';
import { describe } from './describe.js';
import { captureEvent, captureExternal, exportExternal, exportPath, importExternal, type External } from './flows.js';
import { split, toNeutral } from './ops.js';
import { checkName, findExecutable, type Executable } from './protocol.js';

const loaded = new Map<string, Runtime>();

/** The runtime `ctx-runtime-<name>` on PATH; UsageError when the name is no name or none is there. */
export function externalRuntime(name: string, unknown: () => string, env: NodeJS.ProcessEnv = process.env): Runtime {
  checkName(name);
  const cached = loaded.get(name);
  if (cached) return cached;
  const path = findExecutable(name, env);
  if (path === null) throw new UsageError(unknown());
  const r = fromExecutable({ name, path, env });
  loaded.set(name, r);
  return r;
}

/** Asks the executable what it is and builds the Runtime its answer describes. */
export function fromExecutable(x: Executable): Runtime {
  const d = describe(x);
  const e: External = {
    x,
    d,
    stream: { format: d.format, template: d.name, split: (bytes) => split(x, bytes, false).segments },
    branch: (session) => `${d.name}/${session}`,
  };
  // the user named this runtime: its stored bytes read into messages through it from now on
  registerExternalFormat(d.format, (bytes) => toNeutral(x, bytes));
  const can = (c: string) => d.capabilities.includes(c as never);
  return {
    name: d.name,
    title: d.title,
    formats: [d.format],
    sessionBranch: e.branch,
    import: can('import')
      ? { accepts: `a ${d.title} session (*${d.sessions.suffix})`, files: new RegExp(`${d.sessions.suffix.replace(/[.]/g, '\\.')}$`), run: (ctx, file, opts) => importExternal(e, ctx, file, opts) }
      : undefined,
    transcript: can('import') || can('capture') ? e.stream : undefined,
    capture: can('capture') ? { parse: (input) => captureEvent(e, input), run: (ctx, event, note) => captureExternal(e, ctx, event, note) } : undefined,
    export: can('export') ? { render: (ctx, spec, opts) => exportExternal(e, ctx, spec, opts), path: (out, opts) => exportPath(e, out, opts), write: writeSession } : undefined,
  };
}
