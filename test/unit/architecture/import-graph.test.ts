// The layers of src-main, read from the import statements themselves: the core has no import loop, the
// desk is its top floor (no other core file imports it), and the shells (the CLI with its web mode, the
// Electron main process) reach the core only through createDesk and a short list of pure helpers.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const SRC = join(ROOT, 'src-main');

/** What a shell may import from the core: createDesk, and the shell kit's constants, parsers and formatters (no state). */
const SHELL_HELPERS = [
  'core/desk/index.ts', // createDesk and the Desk type
  'core/desk/shell-kit.ts', // the pure helpers the CLI and Electron read arguments and print results with
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

/** Every module specifier of a file: static imports and re-exports (type-only ones too), dynamic imports, import(...) types. */
export function specifiers(source: string): string[] {
  const found: string[] = [];
  const patterns = [
    /\b(?:import|export)\s+(?:type\s+)?[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]/g,
    /\bimport\s*['"]([^'"]+)['"]/g,
    /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
  ];
  for (const pattern of patterns) for (const m of source.matchAll(pattern)) found.push(m[1]!);
  return found;
}

function resolveImport(from: string, spec: string): string | null {
  if (!spec.startsWith('.')) return null;
  const base = resolve(dirname(from), spec);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  throw new Error(`${relative(ROOT, from)}: cannot resolve "${spec}"`);
}

function importGraph(files: string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets = specifiers(readFileSync(file, 'utf8'))
      .map((s) => resolveImport(file, s))
      .filter((t): t is string => t !== null);
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** The first loop found (as a path that starts and ends at the same file), or null. */
function findCycle(graph: Map<string, string[]>, within: (file: string) => boolean): string[] | null {
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (file: string): string[] | null => {
    state.set(file, 'open');
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (!within(next)) continue;
      if (state.get(next) === 'open') return [...stack.slice(stack.indexOf(next)), next];
      if (state.get(next) === undefined) {
        const cycle = visit(next);
        if (cycle) return cycle;
      }
    }
    stack.pop();
    state.set(file, 'done');
    return null;
  };
  for (const file of graph.keys()) {
    if (!within(file) || state.has(file)) continue;
    const cycle = visit(file);
    if (cycle) return cycle;
  }
  return null;
}

const graph = importGraph(sourceFiles(SRC));
const rel = (file: string): string => relative(SRC, file).split('\\').join('/');
const inCore = (file: string): boolean => rel(file).startsWith('core/');
const inDesk = (file: string): boolean => rel(file).startsWith('core/desk/');

describe('the import graph of src-main', () => {
  it('reads the imports it is about (the parser sees what the compiler sees)', () => {
    expect(
      specifiers(
        "import type { A } from './a';\nimport { b,\n c } from \"../b\";\nexport { d } from './d';\nexport * from './e';\nimport './f';\nconst g = await import('./g');\ntype H = import('./h').H;",
      ),
    ).toEqual(['./a', '../b', './d', './e', './f', './g', './h']);
    expect(graph.get(join(SRC, 'core/desk/index.ts'))?.map(rel)).toContain('core/desk/context.ts');
  });

  it('has no import loop in the core, type-only imports included', () => {
    const cycle = findCycle(graph, inCore);
    expect(cycle?.map(rel) ?? null).toBeNull();
  });

  it('finds a loop when there is one', () => {
    const a = join(SRC, 'core/a.ts');
    const b = join(SRC, 'core/b.ts');
    expect(
      findCycle(
        new Map([
          [a, [b]],
          [b, [a]],
        ]),
        inCore,
      )?.map(rel),
    ).toEqual(['core/a.ts', 'core/b.ts', 'core/a.ts']);
  });

  it('keeps the desk the top floor of the core: no other core file imports core/desk', () => {
    const upward = [...graph].flatMap(([file, targets]) =>
      inCore(file) && !inDesk(file) ? targets.filter(inDesk).map((t) => `${rel(file)} -> ${rel(t)}`) : [],
    );
    expect(upward).toEqual([]);
  });

  it('lets the shells reach the core only through createDesk and the listed pure helpers', () => {
    const shell = (file: string): boolean => /^(cli|electron|preload)\//.test(rel(file));
    const reached = [...graph].flatMap(([file, targets]) => (shell(file) ? targets.filter(inCore).map((t) => [rel(file), rel(t)] as const) : []));
    expect(reached.filter(([, target]) => !SHELL_HELPERS.includes(target)).map(([from, to]) => `${from} -> ${to}`)).toEqual([]);
    expect(reached.length).toBeGreaterThan(0);
  });

  it('keeps shared, the preload and the renderer free of the core', () => {
    const renderer = sourceFiles(join(ROOT, 'src-renderer'));
    const rendererGraph = importGraph(renderer);
    const outside = [...graph, ...rendererGraph].flatMap(([file, targets]) =>
      /^(shared|preload)\//.test(rel(file)) || file.startsWith(join(ROOT, 'src-renderer'))
        ? targets.filter(inCore).map((t) => `${relative(ROOT, file)} -> ${rel(t)}`)
        : [],
    );
    expect(outside).toEqual([]);
  });
});
