/**
 * The lint rules that keep the layers must bite: each case lints a small source text as if it
 * lived at the given path, with the project's own eslint.config.js, and reads the rule ids that
 * fired. (`npx eslint --stdin --stdin-filename src/personality/x.ts` does the same by hand.)
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/process.ts';
import { DOMAIN, EDGES } from './layers-map.ts';

// The planted texts lie at paths no file is at, where the type-aware rules have no program to
// read: those rules are off here, and the last case plants a real file for them.
const eslint = new ESLint({ cwd: REPO_ROOT, overrideConfig: tseslint.configs.disableTypeChecked });

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

describe('type-aware rules', () => {
  // A real file (the project service reads files, not texts) in a folder with its own small
  // tsconfig.json, so the program it loads is this file alone, not the whole repository.
  it('refuse a floating promise and a promise where a callback returns nothing', { timeout: 120_000 }, async () => {
    const dir = path.join(REPO_ROOT, 'test/lint/.planted', String(process.pid));
    mkdirSync(dir, { recursive: true });
    try {
      writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true, target: 'ES2022', module: 'NodeNext', noEmit: true, types: [] }, include: ['*.ts'] }));
      const code = [
        'async function save(): Promise<number> {',
        '  return 1;',
        '}',
        'save();',
        '[1, 2].forEach(async () => {',
        '  await save();',
        '});',
        'void save(); // fire-and-forget on purpose: allowed',
        '',
      ].join('\n');
      const file = path.join(dir, 'planted.ts');
      writeFileSync(file, code);
      // eslint.config.js ignores this folder (so a lint run beside this test never trips on it): not here.
      const [result] = await new ESLint({ cwd: REPO_ROOT, ignore: false }).lintFiles([file]);
      const fired = (result?.messages ?? []).map((m) => `${m.line}: ${m.ruleId ?? `fatal: ${m.message}`}`);
      expect(fired).toEqual(['4: @typescript-eslint/no-floating-promises', '5: @typescript-eslint/no-misused-promises']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
