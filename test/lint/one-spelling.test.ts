import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/process.ts';
import { isDomain } from './layers-map.ts';

/**
 * One spelling: the domain's types are camelCase; snake_case is the contract's spelling, written
 * only by the shape functions of the edges (src/http, the pages, the operator's JSON views), and
 * by the database's columns. This test lists every property declared with an underscore in a type
 * of a domain part (test/lint/layers-map.ts) and fails on any that is not a row type below.
 */

/**
 * Row types: they mirror SQL columns (a `SELECT … RETURNING` or a table's columns), which are
 * snake_case in the database; mapping them to camelCase happens in the function that reads the
 * row (`fromRow` and the like). Nothing else belongs here: a domain type that is not a row is
 * written in camelCase and shaped into the contract's spelling at the edge.
 */
const ROW_TYPES: Record<string, readonly string[]> = {
  // api_tokens columns.
  'src/access/tokens.ts': ['TokenRow'],
  'src/users/api-token.ts': ['TokenRow'],
  // analyses columns.
  'src/analysis/repository.ts': ['AnalysisRow'],
  // confirmations columns.
  'src/confirmations/tokens.ts': ['ConfirmationRow'],
  // profile_requests columns.
  'src/connect/requests.ts': ['RequestRow'],
  // people columns; the name search's candidate columns; an upsert's RETURNING.
  'src/people/repository.ts': ['PersonRow'],
  'src/people/search.ts': ['Candidate'],
  'src/people/upsert.ts': ['FoundRow'],
  // the stored texts' hash an import compares before reading a person's texts ahead.
  'src/people/analysis-threads.ts': ['StoredTextsRow'],
  // assessments and people columns read while confirming, listing and removing a result.
  'src/takers/confirm.ts': ['ResultRow', 'PersonState'],
  'src/takers/queries.ts': ['ResultRow'],
  'src/takers/remove.ts': ['DeletedRow'],
  // hiring_links columns; the submissions a taker already sent.
  'src/takers/hiring.ts': ['HiringRow'],
  'src/takers/record.ts': ['SeenRow'],
  // users columns.
  'src/users/users.ts': ['UserRow'],
  // webhook_endpoints and webhook_deliveries columns.
  'src/webhooks/deliveries.ts': ['PendingRow'],
  'src/webhooks/endpoints.ts': ['EndpointRow', 'DeliveryRow'],
  'src/webhooks/events.ts': ['SubscribedRow'],
};

/**
 * The type argument of a query call (`db.query<{ user_id: string }>(…)`, `queryOne<…>(…)`) is the
 * shape of the rows that statement returns: a row type written in place.
 */
const QUERY_CALLS = /^(query|queryOne)$/;

export interface SnakeField {
  file: string;
  type: string;
  field: string;
  line: number;
}

function inQueryTypeArgument(node: ts.Node): boolean {
  for (let at: ts.Node | undefined = node.parent; at; at = at.parent) {
    if (ts.isCallExpression(at)) {
      const callee = ts.isPropertyAccessExpression(at.expression) ? at.expression.name.text : ts.isIdentifier(at.expression) ? at.expression.text : '';
      return QUERY_CALLS.test(callee) && (at.typeArguments ?? []).some((argument) => argument.pos <= node.pos && node.end <= argument.end);
    }
    if (ts.isBlock(at) || ts.isSourceFile(at)) return false;
  }
  return false;
}

/** Properties declared with an underscore in the file's types (interfaces, type aliases, type literals, classes), rows excepted. */
export function snakeFields(file: string, text: string, rows: Record<string, readonly string[]> = ROW_TYPES): SnakeField[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const allowed = new Set(rows[file] ?? []);
  const found: SnakeField[] = [];
  const visit = (node: ts.Node, owner: string): void => {
    if ((ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node) || ts.isClassDeclaration(node)) && node.name) owner = node.name.text;
    if ((ts.isPropertySignature(node) || ts.isPropertyDeclaration(node)) && (ts.isIdentifier(node.name) || ts.isStringLiteral(node.name)) && node.name.text.includes('_')) {
      // A row's own fields, and `TokenRow & { already_revoked: boolean }`: the extra column of a query on that row.
      const row = allowed.has(owner) || inQueryTypeArgument(node);
      if (!row) found.push({ file, type: owner, field: node.name.text, line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1 });
    }
    ts.forEachChild(node, (child) => visit(child, owner));
  };
  visit(source, '(inline)');
  return found;
}

/** The TypeScript files of the domain parts of src/ (folders and top-level files). */
function domainFiles(): string[] {
  const walk = (relative: string): string[] =>
    readdirSync(path.join(REPO_ROOT, relative), { withFileTypes: true }).flatMap((entry) => {
      const child = `${relative}/${entry.name}`;
      if (entry.isDirectory()) return walk(child);
      return entry.name.endsWith('.ts') ? [child] : [];
    });
  return readdirSync(path.join(REPO_ROOT, 'src'), { withFileTypes: true })
    .filter((entry) => isDomain(entry.name))
    .flatMap((entry) => (entry.isDirectory() ? walk(`src/${entry.name}`) : [`src/${entry.name}`]))
    .filter((file) => file.endsWith('.ts'));
}

describe('one spelling in the domain', () => {
  it('declares no snake_case field outside the row types', () => {
    const files = domainFiles();
    expect(files).toContain('src/personality/views.ts');
    expect(files.some((file) => file.startsWith('src/http/'))).toBe(false);
    const found = files.flatMap((file) => snakeFields(file, readFileSync(path.join(REPO_ROOT, file), 'utf8')));
    expect(found.map((f) => `${f.file}:${f.line} ${f.type}.${f.field}`)).toEqual([]);
  });

  it('every row type named in the allow-list still exists (a stale entry would hide a domain type of the same name)', () => {
    const stale = Object.entries(ROW_TYPES).flatMap(([file, types]) => {
      const text = readFileSync(path.join(REPO_ROOT, file), 'utf8');
      return types.filter((type) => !new RegExp(`\\b(interface|type)\\s+${type}\\b`).test(text)).map((type) => `${file} ${type}`);
    });
    expect(stale).toEqual([]);
  });

  it('finds a planted snake_case field, and lets rows and query rows pass (the check itself)', () => {
    const planted = [
      'export interface PersonalityView { angle: number; disc_type: string }',
      'export type Summary = { rows_removed: number; nested: { exported_at: string } };',
      'class Holder { private last_seen_at = 0; }',
      "interface Quoted { 'data_dir': string }",
      'interface TokenRow { created_at: Date }',
      "const row = await queryOne<{ user_id: string }>(db, 'SELECT user_id FROM users');",
      "const rows = await db.query<TokenRow & { already_revoked: boolean }>('…');",
    ].join('\n');
    const found = snakeFields('src/planted.ts', planted, { 'src/planted.ts': ['TokenRow'] });
    expect(found.map((f) => `${f.type}.${f.field}`)).toEqual(['PersonalityView.disc_type', 'Summary.rows_removed', 'Summary.exported_at', 'Holder.last_seen_at', 'Quoted.data_dir']);
    // The same row type in a file the allow-list does not name is reported.
    expect(snakeFields('src/other.ts', 'interface TokenRow { created_at: Date }', { 'src/planted.ts': ['TokenRow'] })).toHaveLength(1);
  });
});
