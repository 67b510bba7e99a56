/**
 * The folder import graph of src/, for test/lint/import-graph.test.ts: which part of the code
 * base imports which. A part is a folder directly under src/ (src/http's groups each count as
 * one: src/http/web, src/http/common, …) or a file directly under src/ (app.ts, context.ts, …).
 * Every relative import counts, whatever its kind: static, type-only, re-export, dynamic
 * `import('…')`; a package import (`fastify`, `node:fs`) names no part.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** part → the parts it imports (never itself), with one importing file per arrow for messages. */
export type FolderGraph = Map<string, Map<string, string>>;

const SOURCE = /\.(?:ts|mts|js|mjs)$/;

/** The relative module paths one source text imports, every kind (TypeScript's own scanner). */
export function relativeImports(text: string): string[] {
  const { importedFiles } = ts.preProcessFile(text, true, true);
  return importedFiles.map((f) => f.fileName).filter((name) => name.startsWith('.'));
}

/** The part a src-relative path (forward slashes) belongs to. */
export function partOf(srcRelative: string): string {
  const [first = '', second] = srcRelative.split('/');
  if (second === undefined) return first;
  return first === 'http' && srcRelative.split('/').length > 2 ? `http/${second}` : first;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => SOURCE.test(name) && !name.endsWith('.d.ts'))
    .map((name) => name.split(path.sep).join('/'));
}

/** The graph of a source tree: every file's relative imports, resolved against the file. */
export function buildFolderGraph(srcDir: string): FolderGraph {
  const sources = new Map<string, string>();
  for (const file of sourceFiles(srcDir)) sources.set(file, readFileSync(path.join(srcDir, file), 'utf8'));
  return graphOf(sources);
}

/** The graph of source texts by their src-relative path (the planted cases use it directly). */
export function graphOf(sources: ReadonlyMap<string, string>): FolderGraph {
  const graph: FolderGraph = new Map();
  for (const [file, text] of sources) {
    const from = partOf(file);
    if (!graph.has(from)) graph.set(from, new Map());
    for (const spec of relativeImports(text)) {
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), spec));
      if (target.startsWith('../')) continue; // outside src/: not a part (a test would catch it elsewhere)
      const to = partOf(target);
      if (to !== from && !graph.get(from)?.has(to)) graph.get(from)?.set(to, file);
    }
  }
  return graph;
}

/** The folder loops: strongly connected sets of two or more parts (Tarjan), each sorted. */
export function folderLoops(graph: FolderGraph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const loops: string[][] = [];
  let next = 0;
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next += 1;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v)?.keys() ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) ?? 0, low.get(w) ?? 0));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v) ?? 0, index.get(w) ?? 0));
      }
    }
    if (low.get(v) !== index.get(v)) return;
    const set: string[] = [];
    for (let w = stack.pop(); w !== undefined; w = stack.pop()) {
      onStack.delete(w);
      set.push(w);
      if (w === v) break;
    }
    if (set.length > 1) loops.push(set.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return loops;
}

/** Every arrow `from → to` whose `from` is in `froms` and `to` in `tos`, as "from → to (file)". */
export function arrowsBetween(graph: FolderGraph, froms: (part: string) => boolean, tos: (part: string) => boolean): string[] {
  const found: string[] = [];
  for (const [from, targets] of graph) {
    if (!froms(from)) continue;
    for (const [to, file] of targets) if (tos(to)) found.push(`${from} → ${to} (src/${file})`);
  }
  return found.sort();
}
