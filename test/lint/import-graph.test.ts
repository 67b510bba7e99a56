/**
 * The arrows between the parts of src/ (test/lint/folder-graph.ts builds the graph from every
 * relative import: static, type-only, re-export, dynamic). Two rules keep the code base
 * layered: no folder loop (a part that imports another is never imported back, however far
 * round), and the domain never reaches up into the edges. eslint.config.js holds the same
 * domain rule per file, so an editor shows it as the import is written; this test sees the
 * whole graph, loops included. Each rule is also run on a planted graph, to prove it fires.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/process.ts';
import { arrowsBetween, buildFolderGraph, folderLoops, graphOf, relativeImports } from './folder-graph.ts';
import { DOMAIN, EDGES, isDomain, isEdge } from './layers-map.ts';

const SRC = path.join(REPO_ROOT, 'src');

describe('the folder import graph of src/', () => {
  const graph = buildFolderGraph(SRC);

  it('places every folder and top-level file of src/ in the domain or an edge', () => {
    const parts = readdirSync(SRC, { withFileTypes: true })
      .filter((e) => e.isDirectory() || /\.(?:ts|mts)$/.test(e.name))
      .map((e) => e.name);
    expect(parts.filter((p) => !(p in DOMAIN) && !(p in EDGES))).toEqual([]);
    // and names none that is gone, so the lists stay true
    expect([...Object.keys(DOMAIN), ...Object.keys(EDGES)].filter((p) => !parts.includes(p))).toEqual([]);
  });

  it('reads the imports (the graph is not empty: the domain imports shared, the edge the domain)', () => {
    expect([...(graph.get('people')?.keys() ?? [])]).toContain('shared');
    expect([...(graph.get('http/web')?.keys() ?? [])]).toContain('users');
  });

  it('has no folder loop', () => {
    expect(folderLoops(graph)).toEqual([]);
  });

  it('has no arrow from the domain to an edge (HTTP, pages, operator, CLI, composition root)', () => {
    expect(arrowsBetween(graph, isDomain, isEdge)).toEqual([]);
  });
});

describe('the rules fire on a planted graph', () => {
  it('reads static, type-only, re-export and dynamic imports, not packages', () => {
    const text = [
      "import { a } from './a.ts';",
      "import type { B } from '../b/b.ts';",
      "export * from '../c/c.ts';",
      "export { d } from './d.ts';",
      "const e = () => import('../e/e.ts');",
      "import fastify from 'fastify';",
      "import { readFileSync } from 'node:fs';",
    ].join('\n');
    expect(relativeImports(text).sort()).toEqual(['../b/b.ts', '../c/c.ts', '../e/e.ts', './a.ts', './d.ts']);
  });

  it('finds a loop however far round, named by its parts', () => {
    const planted = graphOf(new Map([
      ['users/signup.ts', "import { issue } from '../confirmations/tokens.ts';"],
      ['confirmations/follow.ts', "import type { R } from '../takers/confirm.ts';"],
      ['takers/record.ts', "export { u } from '../users/users.ts';"],
      ['people/x.ts', "import { s } from '../shared/errors.ts';"],
    ]));
    expect(folderLoops(planted)).toEqual([['confirmations', 'takers', 'users']]);
  });

  it('finds a loop through a dynamic import', () => {
    const planted = graphOf(new Map([
      ['people/a.ts', "export const f = () => import('../takers/b.ts');"],
      ['takers/b.ts', "import { g } from '../people/a.ts';"],
    ]));
    expect(folderLoops(planted)).toEqual([['people', 'takers']]);
  });

  it.each([
    ['people/x.ts', '../http/common/auth.ts', 'people → http/common'],
    ['content/deep/x.ts', '../../pages/html.ts', 'content → pages'],
    ['users/x.ts', '../operator/verbs.ts', 'users → operator'],
    ['db/x.ts', '../cli/main.ts', 'db → cli'],
    ['jobs/x.ts', '../context.ts', 'jobs → context.ts'],
    ['config.ts', './server.ts', 'config.ts → server.ts'],
  ])('finds an arrow from the domain to an edge: %s importing %s', (file, spec, arrow) => {
    const planted = graphOf(new Map([[file, `import { x } from '${spec}';`]]));
    expect(arrowsBetween(planted, isDomain, isEdge)).toEqual([`${arrow} (src/${file})`]);
  });

  it('lets an edge import the domain, and the domain import the domain', () => {
    const planted = graphOf(new Map([
      ['http/web/x.ts', "import { a } from '../../users/users.ts';"],
      ['pages/x.ts', "import { b } from '../personality/circle.ts';"],
      ['takers/x.ts', "import { c } from '../people/normalize.ts';"],
    ]));
    expect(arrowsBetween(planted, isDomain, isEdge)).toEqual([]);
    expect(folderLoops(planted)).toEqual([]);
  });
});
