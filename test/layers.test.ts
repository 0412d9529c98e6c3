// The layer table of docs/architecture.md ("Layers"), as a test (after entireio/cli's
// agent/architecture_test.go): every import of src/ (static, `export … from`, dynamic `import()`)
// is read from the source text and checked against the table; file and folder cycles, a pure core,
// runtime and format names outside their plug-ins, and runtimes missing from the registry all fail,
// each rule in its own test, listing every violation.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { expect, it } from 'vitest';
import { ROOT } from './helpers.js';

const SRC = join(ROOT, 'src');

type Layer = 'adapters' | 'cli' | 'commands' | 'library' | 'api' | 'runtimes' | 'formats' | 'output' | 'store' | 'core' | 'errors' | 'serve' | 'mcp' | 'web';

/** May import: a layer, every file of it; `{ files }`: only those; `{ types }`: `import type` only. */
type Allowed = Layer | { layer: Layer; files?: string[]; types?: true };
const RUNTIME_REGISTRY = 'src/runtimes/registry.ts';
const LAYERS: Record<Layer, Allowed[]> = {
  // the subpath exports (agent-ctx/langgraph, agent-ctx/openai-agents, …): clients of api, as runtimes
  // are, of the library's types and of a runtime's capture
  adapters: [{ layer: 'library', types: true }, 'api', 'runtimes', 'formats', 'store', 'core', 'errors'],
  cli: ['commands', 'output', 'api', 'errors', 'core'],
  commands: ['api', 'output', 'core', 'errors', 'formats', { layer: 'runtimes', files: [RUNTIME_REGISTRY] }, 'serve', 'mcp'],
  library: ['api', 'core', 'errors', 'formats', { layer: 'runtimes', files: [RUNTIME_REGISTRY] }, 'serve'],
  api: ['core', 'formats', { layer: 'runtimes', files: [RUNTIME_REGISTRY] }, 'store', 'errors'],
  runtimes: ['core', 'formats', 'store', 'errors', 'api'],
  formats: ['core', 'errors'],
  output: ['core', 'errors', { layer: 'api', types: true }],
  store: ['core', 'errors'],
  core: ['errors'],
  errors: [],
  serve: ['api', 'output', 'core', 'errors'],
  // `ctx mcp`: the MCP server, over the api, with the commands' --json records
  mcp: ['api', 'output', 'core', 'errors', 'formats'],
  // the browser bundle: the server's records and the neutral model as types, nothing that runs
  web: [{ layer: 'core', types: true }, { layer: 'output', types: true }, { layer: 'api', types: true }],
};

/** The packages esbuild bundles into the web view's app.js (devDependencies): markdown, highlighting, diffs, terminal colours. */
const WEB_PACKAGES = ['markdown-it', 'highlight.js', 'diff', 'ansi_up'];

/** Packages and node modules the pure core must not import (I/O); node:crypto and node:buffer are fine. */
const IMPURE = /^(node:)?(fs|child_process|net|http|https)(\/|$)|^isomorphic-git(\/|$)/;

/** Names of runtimes and formats: only their plug-ins and the two registries say them. */
const PLUGIN_NAMES = ['claude-code', 'claude-code-v1', 'codex', 'codex-rollout-v1', 'codex-rollout-v0', 'gemini-cli', 'gemini-cli-chat-v1', 'bureau-agent-v1', 'openai-chat-v1', 'openai-agents-v1'];
/**
 * Output-only formats: common words too, so only a literal that is exactly the name counts, and not
 * as a translation tier (`tier === 'raw'`, `type Tier = … | 'raw'`), which shares the name.
 */
const OUTPUT_FORMATS = ['markdown', 'raw'];
const isTier = (before: string) => /\btier\s*(?:[!=]==?|:)\s*['"`]$/i.test(before) || /\btype\s+\w*Tier\b/.test(before);
const mayNamePlugins = (file: string) => /^src\/(runtimes\/[^/]+\/|formats\/)/.test(file) || file === RUNTIME_REGISTRY;

interface Edge {
  from: string;
  to: string;
  line: number;
  /** `import type`, `export type`, `{ type A }` only, or `typeof import()`: gone at run time */
  types: boolean;
  dynamic: boolean;
}

interface Source {
  file: string;
  /** resolved imports of src/ files */
  edges: Edge[];
  /** bare specifiers (packages, node:*) */
  packages: { name: string; line: number; types: boolean }[];
  /** string and template literal texts, outside imports, with the code just before them */
  literals: { text: string; line: number; before: string }[];
}

function walk(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((f) => {
      const p = join(dir, f);
      return statSync(p).isDirectory() ? walk(p) : /\.ts$/.test(f) && !/\.test\.ts$/.test(f) && !/\.d\.ts$/.test(f) ? [p] : [];
    });
}

const rel = (p: string) => relative(ROOT, p).split('\\').join('/');

/**
 * Comments dropped and every string or template literal replaced by `\u0001N\u0001` (its index in
 * `literals`), so imports can be matched on the code alone; template `${…}` code stays code.
 */
function lex(text: string): { code: string; literals: { text: string; line: number }[] } {
  const literals: { text: string; line: number }[] = [];
  let code = '';
  let i = 0;
  let line = 1;
  const braces: number[] = []; // open `{` counts inside each `${`, innermost last
  const lastSignificant = () => {
    const m = /(\S)\s*$/.exec(code);
    return m ? m[1] : '';
  };
  const readTemplate = () => {
    // from after a backtick (or a `}` closing `${`) to the next backtick or `${`
    let s = '';
    const start = line;
    while (i < text.length && text[i] !== '`' && !(text[i] === '$' && text[i + 1] === '{')) {
      if (text[i] === '\\') {
        s += text[i + 1];
        i += 2;
        continue;
      }
      if (text[i] === '\n') line++;
      s += text[i++];
    }
    literals.push({ text: s, line: start });
    code += `\u0001${literals.length - 1}\u0001${'\n'.repeat(line - start)}`;
    if (text[i] === '`') {
      code += '`';
      i++;
    } else {
      code += '${';
      i += 2;
      braces.push(0);
    }
  };
  while (i < text.length) {
    const c = text[i];
    const next = text[i + 1];
    if (c === '\n') line++;
    if (c === '/' && next === '/') {
      while (i < text.length && text[i] !== '\n') i++;
      continue;
    }
    if (c === '/' && next === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end === -1 ? text.length : end + 2;
      const lines = text.slice(i, stop).split('\n').length - 1;
      line += lines;
      code += ` ${'\n'.repeat(lines)}`; // code keeps the source's line numbers
      i = stop;
      continue;
    }
    if (c === "'" || c === '"') {
      let s = '';
      const start = line;
      i++;
      while (i < text.length && text[i] !== c && text[i] !== '\n') {
        if (text[i] === '\\') {
          s += text[i + 1];
          i += 2;
          continue;
        }
        s += text[i++];
      }
      i++;
      literals.push({ text: s, line: start });
      code += `${c}\u0001${literals.length - 1}\u0001${c}`;
      continue;
    }
    if (c === '`') {
      code += '`';
      i++;
      readTemplate();
      continue;
    }
    if (braces.length && c === '{') braces[braces.length - 1]++;
    if (braces.length && c === '}') {
      if (braces[braces.length - 1] === 0) {
        braces.pop();
        code += '}';
        i++;
        readTemplate();
        continue;
      }
      braces[braces.length - 1]--;
    }
    // a regular expression literal: skip it whole, so its quotes start no string
    if (c === '/' && (/[(,=:[!&|?{};+\-*%<>~^]/.test(lastSignificant()) || /\b(return|typeof|case|of|in)\s*$/.test(code) || code.trim() === '')) {
      let k = i + 1;
      let inClass = false;
      while (k < text.length && text[k] !== '\n') {
        if (text[k] === '\\') k++;
        else if (text[k] === '[') inClass = true;
        else if (text[k] === ']') inClass = false;
        else if (text[k] === '/' && !inClass) break;
        k++;
      }
      if (text[k] === '/') {
        code += ' /re/ ';
        i = k + 1;
        continue;
      }
    }
    code += c;
    i++;
  }
  return { code, literals };
}

function read(file: string): Source {
  const { code, literals } = lex(readFileSync(file, 'utf8'));
  const lineAt = (index: number) => code.slice(0, index).split('\n').length;
  const specifiers: { spec: number; line: number; types: boolean; dynamic: boolean }[] = [];
  const LIT = `['"\`]\\u0001(\\d+)\\u0001['"\`]`;
  // import … from '…', export … from '…' (across lines), import '…'
  for (const m of code.matchAll(new RegExp(`(?<![\\w.$])(import|export)(\\s+type\\b)?([^;'"\`]*?)\\bfrom\\s*${LIT}`, 'g'))) {
    const clause = m[3].trim();
    const named = /^\{([^}]*)\}$/.exec(clause);
    const allTypes = !!named && named[1].split(',').map((s) => s.trim()).filter(Boolean).every((s) => /^type\s/.test(s));
    specifiers.push({ spec: Number(m[4]), line: lineAt(m.index!), types: !!m[2] || allTypes, dynamic: false });
  }
  for (const m of code.matchAll(new RegExp(`(?<![\\w.$])import\\s*${LIT}`, 'g'))) specifiers.push({ spec: Number(m[1]), line: lineAt(m.index!), types: false, dynamic: false });
  // import('…'), and typeof import('…') in a type
  for (const m of code.matchAll(new RegExp(`(typeof\\s+)?(?<![\\w.$])import\\s*\\(\\s*${LIT}\\s*\\)`, 'g'))) specifiers.push({ spec: Number(m[2]), line: lineAt(m.index!), types: !!m[1], dynamic: !m[1] });
  const used = new Set(specifiers.map((s) => s.spec));
  const context = (k: number) => {
    const at = code.indexOf(`\u0001${k}\u0001`);
    return code.slice(code.lastIndexOf('\n', at) + 1, at);
  };
  // a command's examples are help for people: they name real runtimes and formats, as a user types them
  const examples: [number, number][] = [];
  for (const m of code.matchAll(/\bexamples\s*:\s*\[/g)) {
    let depth = 0;
    let at = m.index! + m[0].length - 1;
    for (; at < code.length; at++) if (code[at] === '[') depth++;
    else if (code[at] === ']' && --depth === 0) break;
    examples.push([m.index!, at]);
  }
  const isExample = (k: number) => {
    const at = code.indexOf(`\u0001${k}\u0001`);
    return examples.some(([a, b]) => at > a && at < b);
  };
  const outside = literals.flatMap((l, k) => (used.has(k) || isExample(k) ? [] : [{ ...l, before: context(k) }]));
  const source: Source = { file: rel(file), edges: [], packages: [], literals: outside };
  for (const s of specifiers) {
    const name = literals[s.spec].text;
    if (!name.startsWith('.')) {
      source.packages.push({ name, line: s.line, types: s.types });
      continue;
    }
    const target = resolve(dirname(file), name.replace(/\.js$/, '.ts'));
    const to = existsSync(target) ? target : existsSync(join(target, 'index.ts')) ? join(target, 'index.ts') : target;
    source.edges.push({ from: rel(file), to: rel(to), line: s.line, types: s.types, dynamic: s.dynamic });
  }
  return source;
}

const SOURCES = walk(SRC).map(read);
const EDGES = SOURCES.flatMap((s) => s.edges);

function layerOf(file: string): Layer | undefined {
  if (file === 'src/index.ts') return 'library';
  const top = /^src\/([^/]+)\//.exec(file)?.[1];
  return top && top in LAYERS ? (top as Layer) : undefined;
}

const show = (e: Edge) => `${e.from}:${e.line} → ${e.to}${e.dynamic ? ' (import())' : e.types ? ' (type)' : ''}`;

function forbiddenArrows(layer: Layer): string[] {
  const out: string[] = [];
  for (const e of EDGES) {
    if (layerOf(e.from) !== layer) continue;
    const to = layerOf(e.to);
    if (to === undefined) {
      out.push(`${show(e)}: not in any layer${existsSync(join(ROOT, e.to)) ? '' : ' (no such file)'}`);
      continue;
    }
    if (to === layer) continue;
    const rule = LAYERS[layer].find((a) => (typeof a === 'string' ? a : a.layer) === to);
    if (rule === undefined) out.push(`${show(e)}: ${layer} may not import ${to}`);
    else if (typeof rule !== 'string' && rule.files && !rule.files.includes(e.to)) out.push(`${show(e)}: ${layer} may import only ${rule.files.join(', ')} of ${to}`);
    else if (typeof rule !== 'string' && rule.types && !e.types) out.push(`${show(e)}: ${layer} may import only types of ${to} (import type)`);
  }
  return out;
}

/** Strongly connected components of more than one node (or a node importing itself): its members, and one cycle through them. */
function cycles(edges: { from: string; to: string }[]): { path: string[]; group: string[] }[] {
  const next = new Map<string, Set<string>>();
  for (const e of edges) next.set(e.from, (next.get(e.from) ?? new Set()).add(e.to));
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const groups: string[][] = [];
  let n = 0;
  // Tarjan's algorithm, iterative
  for (const root of [...next.keys()].sort()) {
    if (index.has(root)) continue;
    const work: [string, string[]][] = [];
    const enter = (v: string) => {
      index.set(v, n);
      low.set(v, n++);
      stack.push(v);
      onStack.add(v);
      work.push([v, [...(next.get(v) ?? [])].sort()]);
    };
    enter(root);
    while (work.length) {
      const [v, rest] = work[work.length - 1];
      if (rest.length) {
        const w = rest.shift()!;
        if (!index.has(w)) enter(w);
        else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
        continue;
      }
      work.pop();
      if (work.length) low.set(work[work.length - 1][0], Math.min(low.get(work[work.length - 1][0])!, low.get(v)!));
      if (low.get(v) === index.get(v)) {
        const group: string[] = [];
        let w: string;
        do {
          w = stack.pop()!;
          onStack.delete(w);
          group.push(w);
        } while (w !== v);
        if (group.length > 1 || next.get(v)?.has(v)) groups.push(group.sort());
      }
    }
  }
  // one shortest cycle through the group's first member
  const paths = groups.map((group) => {
    const inGroup = new Set(group);
    const start = group[0];
    const from = new Map<string, string>();
    const queue = [start];
    while (queue.length) {
      const v = queue.shift()!;
      for (const w of [...(next.get(v) ?? [])].sort()) {
        if (!inGroup.has(w)) continue;
        if (w === start) {
          const path = [v];
          while (path[0] !== start) path.unshift(from.get(path[0])!);
          return [...path, start];
        }
        if (!from.has(w)) {
          from.set(w, v);
          queue.push(w);
        }
      }
    }
    return [start, start];
  });
  return paths.map((path, k) => ({ path, group: groups[k] }));
}

/** `a → b → a`, and every member when the cycle does not pass through all of them. */
function showCycle({ path, group }: { path: string[]; group: string[] }, steps = ''): string {
  const all = group.length > path.length - 1 ? ` (${group.length} in one another's imports: ${group.join(', ')})` : '';
  return `${path.join(' → ')}${steps}${all}`;
}

/**
 * The families of src/api/ (docs/architecture.md, "The api families"): each may import, at run time,
 * only the families listed; `import type` and `import()` are free. Every folder of src/api/ is listed.
 */
const API_FAMILIES: Record<string, string[]> = {
  repo: [],
  read: ['repo'],
  search: ['read', 'repo'],
  capture: ['read', 'repo'],
  write: ['capture', 'read', 'repo'],
  state: ['write', 'read', 'repo'],
  sync: ['state', 'write', 'read', 'repo'],
  maintain: ['state', 'read', 'repo'],
  links: ['search', 'capture', 'write', 'read', 'repo'],
  library: ['links', 'maintain', 'sync', 'state', 'write', 'capture', 'search', 'read', 'repo'],
};
const familyOf = (file: string) => /^src\/api\/([^/]+)\//.exec(file)?.[1];

const folderOf = (file: string) => (file === 'src/index.ts' ? 'src/index.ts' : dirname(file));

const RULES: [string, () => string[]][] = [
  ...(Object.keys(LAYERS) as Layer[]).map((layer): [string, () => string[]] => [
    `${layer} imports only ${LAYERS[layer].map((a) => (typeof a === 'string' ? a : `${a.layer} (${a.files ? `only ${a.files.join(', ')}` : 'types only'})`)).join(', ') || 'nothing'}`,
    () => forbiddenArrows(layer),
  ]),
  [
    'core is pure: no fs, child_process, net, http or isomorphic-git',
    () => SOURCES.filter((s) => layerOf(s.file) === 'core').flatMap((s) => s.packages.filter((p) => !p.types && IMPURE.test(p.name)).map((p) => `${s.file}:${p.line} → ${p.name}`)),
  ],
  [
    `web (the browser bundle) imports only the packages bundled into it (${WEB_PACKAGES.join(', ')}): it is served as it is built, offline`,
    () => SOURCES.filter((s) => layerOf(s.file) === 'web').flatMap((s) => s.packages.filter((p) => !p.types && !WEB_PACKAGES.includes(p.name.replace(/^((?:@[^/]+\/)?[^/]+).*$/, '$1'))).map((p) => `${s.file}:${p.line} → ${p.name}`)),
  ],
  [
    'no import cycle between files (import() counts; import type does not)',
    () => cycles(EDGES.filter((e) => !e.types)).map((c) => showCycle(c)),
  ],
  [
    'no import cycle between folders or layers (static imports; import type does not count)',
    () =>
      [folderOf, (f: string) => layerOf(f) ?? f].flatMap((group) => {
        const edges = EDGES.filter((e) => !e.types && !e.dynamic && group(e.from) !== group(e.to));
        return cycles(edges.map((e) => ({ from: group(e.from), to: group(e.to) }))).map((c) => {
          const steps = c.path.slice(1).map((to, k) => edges.find((e) => group(e.from) === c.path[k] && group(e.to) === to)!);
          return showCycle(c, ` (${steps.map(show).join('; ')})`);
        });
      }),
  ],
  [
    'each family of src/api/ imports only the families below it, and every folder of src/api/ is a listed family',
    () => [
      ...readdirSync(join(SRC, 'api'))
        .filter((f) => statSync(join(SRC, 'api', f)).isDirectory() && !(f in API_FAMILIES))
        .map((f) => `src/api/${f}/: not a family of API_FAMILIES`),
      ...readdirSync(join(SRC, 'api'))
        .filter((f) => !statSync(join(SRC, 'api', f)).isDirectory())
        .map((f) => `src/api/${f}: a file outside every family`),
      ...EDGES.filter((e) => !e.types && !e.dynamic && familyOf(e.from) && familyOf(e.to) && familyOf(e.from) !== familyOf(e.to) && !(API_FAMILIES[familyOf(e.from)!] ?? []).includes(familyOf(e.to)!)).map(
        (e) => `${show(e)}: api/${familyOf(e.from)} may not import api/${familyOf(e.to)}`,
      ),
    ],
  ],
  [
    'only runtimes/<name>/, formats/ and the registries name a runtime or a format (commands\' examples aside)',
    () =>
      SOURCES.filter((s) => !mayNamePlugins(s.file)).flatMap((s) =>
        s.literals.flatMap((l) => {
          const named = [
            ...PLUGIN_NAMES.filter((name) => new RegExp(`(^|[^a-z0-9-])${name}($|[^a-z0-9-])`).test(l.text)),
            ...OUTPUT_FORMATS.filter((name) => l.text === name && !isTier(l.before)),
          ];
          return named.length ? [`${s.file}:${l.line} ${JSON.stringify(l.text.length > 60 ? `${l.text.slice(0, 57)}...` : l.text)} names ${named.join(', ')}`] : [];
        }),
      ),
  ],
  [
    'every runtime folder is in src/runtimes/registry.ts',
    () => {
      const registry = join(ROOT, RUNTIME_REGISTRY);
      const folders = readdirSync(join(SRC, 'runtimes')).filter((f) => statSync(join(SRC, 'runtimes', f)).isDirectory()).sort();
      if (!existsSync(registry)) return folders.map((f) => `src/runtimes/${f}/: ${RUNTIME_REGISTRY} does not exist`);
      const targets = new Set(read(registry).edges.map((e) => e.to));
      return folders.filter((f) => ![...targets].some((t) => t.startsWith(`src/runtimes/${f}/`))).map((f) => `src/runtimes/${f}/: not imported by ${RUNTIME_REGISTRY}`);
    },
  ],
];

it('reads the imports of every source file', () => {
  expect(SOURCES.length).toBeGreaterThan(50);
  // a multi-line import, an `import type`, and a dynamic import are all seen
  expect(EDGES.some((e) => e.from === 'src/commands/index.ts' && e.dynamic && e.to === 'src/commands/log.ts')).toBe(true);
  expect(EDGES.some((e) => e.from === 'src/api/capture/sessions.ts' && e.types && e.to === 'src/api/capture/runtime.ts')).toBe(true);
});

it.each(RULES)('%s', (_, check) => {
  const violations = check();
  expect(violations.length, `${violations.length} violations:\n${violations.join('\n')}\n`).toBe(0);
});
