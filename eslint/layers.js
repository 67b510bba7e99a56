// A small local ESLint rule that keeps Rapport's layers apart. It resolves each relative
// import (static, re-export and dynamic `import('...')`) against the importing file, so it
// judges where the import lands, not how the path is spelt: `../../db/x.ts` from
// src/personality/text/ and `../db/x.ts` from src/personality/ are the same thing.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Repository-relative, forward-slash path of a file or folder. */
const rel = (absolute) => path.relative(root, absolute).split(path.sep).join('/');
const inside = (file, folder) => file === folder || file.startsWith(`${folder}/`);

/** @type {import('eslint').Rule.RuleModule} */
const boundaries = {
  meta: {
    type: 'problem',
    docs: { description: 'Keep the layers: some folders may not import from others.' },
    schema: [
      {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            from: { type: 'string' },
            forbid: { type: 'array', items: { type: 'string' } },
            except: { type: 'array', items: { type: 'string' } },
            because: { type: 'string' },
          },
          required: ['from', 'forbid'],
          additionalProperties: false,
        },
      },
    ],
    messages: { forbidden: '{{from}} may not import {{target}}: {{because}}' },
  },
  create(context) {
    const rules = context.options[0] ?? [];
    const file = rel(context.physicalFilename ?? context.filename);
    const mine = rules.filter((r) => inside(file, r.from));
    if (mine.length === 0) return {};
    const check = (node, source) => {
      if (!source || typeof source.value !== 'string') return;
      const spec = source.value;
      // Only relative and repository-absolute paths can reach another layer; packages cannot.
      if (!spec.startsWith('.') && !spec.startsWith('/')) return;
      const target = rel(path.resolve(path.dirname(path.resolve(root, file)), spec));
      for (const r of mine) {
        const hit = r.forbid.find((f) => inside(target, f));
        if (hit && !(r.except ?? []).some((e) => inside(target, e))) {
          context.report({ node, messageId: 'forbidden', data: { from: r.from, target: hit, because: r.because ?? 'layer rule' } });
          return;
        }
      }
    };
    return {
      ImportDeclaration: (node) => check(node, node.source),
      ExportNamedDeclaration: (node) => check(node, node.source),
      ExportAllDeclaration: (node) => check(node, node.source),
      ImportExpression: (node) => check(node, node.source.type === 'Literal' ? node.source : null),
    };
  },
};

export default { rules: { boundaries } };
