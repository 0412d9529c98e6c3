// The command table and the declarations agree; commands load lazily; help shows examples;
// commands and output never reach up into cli/ (nor commands into store/ or a runtime).
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../src/commands/index.js';
import { ROOT, ctx, tempDir } from './helpers.js';

const decls = await Promise.all(COMMANDS.map(async (e) => ({ entry: e, decl: (await e.load()).default })));

describe('the command table', () => {
  it("lists each command's own name, summary and usage", () => {
    for (const { entry, decl } of decls) {
      expect(decl.name).toBe(entry.name);
      expect(decl.summary).toBe(entry.summary);
      const args = decl.args.map((a) => (a.required ? `<${a.name}>` : `[${a.name}]`));
      expect(entry.usage).toBe([...(decl.options.length ? ['[options]'] : []), ...args].join(' '));
    }
    expect(COMMANDS.map((e) => e.name)).toEqual([...new Set(COMMANDS.map((e) => e.name))]);
  });

  it('gives every command examples that name branches, never ids of one store', () => {
    for (const { decl } of decls) {
      expect(decl.examples.length).toBeGreaterThan(0);
      for (const x of decl.examples) {
        expect(x).toMatch(new RegExp(`\\bctx (--\\S+ \\S+ )*${decl.name}\\b`));
        expect(x).not.toMatch(/ctx-[0-9a-f]{4}/);
      }
    }
  });

  it('every man page has its examples and ctx.1 lists every command', () => {
    const roff = (name: string) => readFileSync(join(ROOT, 'man', `${name}.1`), 'utf8').replace(/\\-/g, '-').replace(/\\\(aq/g, "'").replace(/\\e/g, '\\');
    for (const { decl } of decls) {
      const page = roff(`ctx-${decl.name}`);
      const examples = page.slice(page.indexOf('\n.SH EXAMPLES\n'), page.indexOf('\n.SH SEE ALSO\n'));
      for (const x of decl.examples) expect(examples).toContain(`\n$ ${x}\n`);
      expect(roff('ctx')).toContain(`\n.TP\n.B ${decl.name}\n`);
    }
  });

  it('--help shows options, then the examples', () => {
    for (const { decl } of decls) {
      const help = ctx(join(tempDir(), 'none'), [decl.name, '--help']);
      expect(help.code).toBe(0);
      const examples = help.stdout.indexOf('\nExamples:\n');
      expect(examples).toBeGreaterThan(help.stdout.indexOf('\nOptions:\n'));
      expect(help.stdout.slice(examples)).toBe(`\nExamples:\n${decl.examples.map((x) => `  ${x}\n`).join('')}`);
    }
    // one ctx process per command: minutes on a loaded 2-core machine
  }, 300_000);
});

/** Every file the bundle's entry loads without an `import()`: what `ctx --version` and `ctx --help` pay for. */
function staticClosure(entry: string): Map<string, string> {
  const seen = new Map<string, string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    const text = readFileSync(file, 'utf8');
    seen.set(file, text);
    for (const m of text.matchAll(/(?:^|\n)\s*(?:import|export)\s*(?:[^'"()]*?\bfrom\s*)?["'](\.[^"']+)["']/g)) visit(join(file, '..', m[1]));
  };
  visit(entry);
  return seen;
}

describe('the bundle', () => {
  const dist = join(ROOT, 'dist');
  const chunkOf = (needle: string) => readdirSync(join(dist, 'chunks')).filter((f) => f.endsWith('.js') && readFileSync(join(dist, 'chunks', f), 'utf8').includes(needle));

  it('loads neither commander nor any command before it knows which command runs', () => {
    const start = [...staticClosure(join(dist, 'cli.cjs')).values()].join('\n');
    expect(start).not.toContain('class CommanderError');
    expect(start).not.toContain('defineCommand');
  });

  it('builds the program without loading a command; each command is its own chunk', () => {
    const [program] = chunkOf("Store an AI agent's context as chains of commits");
    expect(program).toBeDefined();
    const loaded = [...staticClosure(join(dist, 'chunks', program)).values()].join('\n');
    for (const { decl } of decls) {
      expect(loaded).not.toContain(`name: "${decl.name}",\n  summary:`);
      expect(chunkOf(`name: "${decl.name}",\n  summary:`)).toHaveLength(1);
    }
  });
});

describe('layers', () => {
  const imports = (dir: string) =>
    readdirSync(join(ROOT, 'src', dir))
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
      .flatMap((f) => [...readFileSync(join(ROOT, 'src', dir, f), 'utf8').matchAll(/(?:from|import\()\s*'([^']+)'/g)].map((m) => `${dir}/${f} → ${m[1]}`));

  it('commands import api, output, core, errors (and the format and runtime registries for names), never cli, store or a runtime', () => {
    const bad = imports('commands').filter((l) => /'?\.\.\/(cli|store|runtimes\/(?!registry))/.test(l.split(' → ')[1]) || /\.\.\/formats\/(?!registry)/.test(l));
    expect(bad).toEqual([]);
  });

  it('output never imports cli or commands; cli never imports store', () => {
    expect(imports('output').filter((l) => /\.\.\/(cli|commands|store|runtimes)\//.test(l))).toEqual([]);
    expect(imports('cli').filter((l) => /\.\.\/(store|runtimes)\//.test(l))).toEqual([]);
  });
});
