import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SETTING_NAMES, settingSchema, type SettingName } from '../src/config-schema.ts';

/**
 * The settings table in the docs (README.md or docs/*.md, wherever `| Variable | Default |`
 * is) lists exactly the variables of src/config-schema.ts, with the schema's defaults: a
 * setting added, removed or given a new default in the schema fails here until the table says so.
 */
const root = new URL('../', import.meta.url);
const HEADER = '| Variable | Default | Meaning |';
/** Read, but documented in the rows they affect rather than rows of their own. */
const NOT_IN_TABLE: SettingName[] = ['NODE_ENV'];

function settingsTable(): { file: string; rows: { names: string[]; fallback: string }[] } {
  const candidates = ['README.md', ...readdirSync(new URL('docs/', root)).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)];
  const file = candidates.find((name) => readFileSync(new URL(name, root), 'utf8').includes(HEADER));
  if (!file) throw new Error(`No settings table (${HEADER}) in README.md or docs/`);
  const text = readFileSync(new URL(file, root), 'utf8');
  const lines = text.slice(text.indexOf(HEADER)).split('\n').slice(2);
  const rows = [];
  for (const line of lines) {
    if (!line.startsWith('|')) break;
    const [, names = '', fallback = ''] = line.split('|');
    rows.push({ names: [...names.matchAll(/`([A-Z0-9_]+)`/g)].map((match) => match[1] ?? ''), fallback: fallback.replace(/`/g, '').trim() });
  }
  return { file, rows };
}

/** The default as the table writes it. */
function documented(name: SettingName): string | undefined {
  const schema = settingSchema(name);
  if (schema.defaultNote) return schema.defaultNote;
  if (schema.default === undefined) return undefined;
  if (schema.kind === 'size' && typeof schema.default === 'number') return `${schema.default / (1024 * 1024)}mb`;
  return String(schema.default);
}

describe('the settings table in the docs', () => {
  const { file, rows } = settingsTable();

  it('lists every variable of the schema, and no other', () => {
    const listed = rows.flatMap((row) => row.names).sort();
    const expected = SETTING_NAMES.filter((name) => !NOT_IN_TABLE.includes(name)).sort();
    expect(listed, `${file} against src/config-schema.ts`).toEqual(expected);
  });

  it("gives each one the schema's default", () => {
    for (const row of rows) {
      for (const name of row.names) {
        const fallback = documented(name as SettingName);
        if (fallback !== undefined) expect(row.fallback, `${name} in ${file}`).toContain(fallback);
      }
    }
  });
});
