/**
 * The lint rules that keep the layers must bite: each case lints a small source text as if it
 * lived at the given path, with the project's own eslint.config.js, and reads the rule ids that
 * fired. (`npx eslint --stdin --stdin-filename src/personality/x.ts` does the same by hand.)
 */
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/process.ts';
import { DOMAIN, EDGES } from './layers-map.ts';

const eslint = new ESLint({ cwd: REPO_ROOT });

async function rulesFired(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${REPO_ROOT}/${filePath}` });
  return (result?.messages ?? []).map((m) => m.ruleId ?? `fatal: ${m.message}`);
}

describe('layer rules', () => {
  it.each([
    ['src/personality/x.ts', "import { openDatabase } from '../db/open.ts';\nexport const f = openDatabase;\n"],
    ['src/personality/text/x.ts', "import { openDatabase } from '../../db/open.ts';\nexport const f = openDatabase;\n"],
    ['src/content/x.ts', "export { buildApp } from '../http/common/auth.ts';\n"],
    ['src/content/connect/x.ts', "export const page = () => import('../../pages/profile-page.ts');\n"],
    ['src/personality/x.ts', "export * from '../pages/html.ts';\n"],
    ['src/http/enterprise/x.ts', "import { usage } from '../assessment/usage.ts';\nexport const f = usage;\n"],
    ['src/http/connect/x.ts', "import { routes } from '../enterprise/index.ts';\nexport const f = routes;\n"],
    ['src/http/assessment/deeper/x.ts', "import { routes } from '../../connect/index.ts';\nexport const f = routes;\n"],
  ])('refuses %s importing across a layer', async (file, code) => {
    expect(await rulesFired(file, code)).toEqual(['layers/boundaries']);
  });

  // Every domain folder (and src/config.ts) against every edge, one planted import each: a
  // folder missing from eslint.config.js's DOMAIN_FOLDERS, or an edge missing from its EDGES, fails here.
  const domainToEdge = Object.keys(DOMAIN).flatMap((part) => {
    const file = part.endsWith('.ts') ? `src/${part}` : `src/${part}/deep/x.ts`;
    const up = part.endsWith('.ts') ? './' : '../../';
    return Object.keys(EDGES).map((edge) => {
      const target = edge.endsWith('.ts') ? edge : `${edge}/x.ts`;
      return [file, edge, `import { f } from '${up}${target}';\nexport const g = f;\n`];
    });
  });
  it.each(domainToEdge)('refuses %s importing the edge %s', async (file, _edge, code) => {
    expect(await rulesFired(file, code)).toEqual(['layers/boundaries']);
  });

  it.each([
    ['src/personality/x.ts', "import { AppError } from '../shared/errors.ts';\nexport const f = AppError;\n"],
    ['src/content/x.ts', "import { toDisc } from '../personality/circle.ts';\nexport const f = toDisc;\n"],
    ['src/http/enterprise/x.ts', "import { auth } from '../shared/auth.ts';\nexport const f = auth;\n"],
    // src/assessment is the domain, not the API group of the same name.
    ['src/http/enterprise/x.ts', "import { score } from '../../assessment/scoring.ts';\nexport const f = score;\n"],
    ['src/db/x.ts', "import { toDisc } from '../personality/circle.ts';\nexport const f = toDisc;\n"],
  ])('lets %s import within the rules', async (file, code) => {
    expect(await rulesFired(file, code)).toEqual([]);
  });
});

describe('forbidden constructs', () => {
  it('refuses any and non-null assertions', async () => {
    const code = 'export function f(x: any): number {\n  const m = new Map<string, number>();\n  return m.get(String(x))!;\n}\n';
    expect(await rulesFired('src/shared/x.ts', code)).toEqual(['@typescript-eslint/no-explicit-any', '@typescript-eslint/no-non-null-assertion']);
  });
});
