import type { Readable } from 'node:stream';
import type * as CsvParse from 'csv-parse';
import { AppError } from '../shared/errors.ts';
import { loadOnUse } from '../shared/load-on-use.ts';
import { TEXT_TYPES, isTextType } from './person.ts';
import { editDistance } from './search.ts';
import { SCALAR_FIELDS } from './validate.ts';

/**
 * Streaming readers for import files: one record at a time with its line number, so a file of
 * any size is never held in memory. A line that cannot be read is reported, not fatal.
 */

/**
 * A CSV row with fewer cells than the header is read (hand-made files often leave out trailing
 * empty cells), but `columns` says so: if the row is then refused, its values may simply be under
 * the wrong names, and the column count is the problem to report.
 */
export interface ShortRow {
  expected: number;
  found: number;
}

/** Why a line or record could not be read, for callers that report a code rather than the sentence. */
export type ReadProblem = 'line_too_long' | 'invalid_json' | 'not_an_object' | 'unreadable_csv_record';

export type SourceRecord =
  | { line: number; record: Record<string, unknown>; columns?: ShortRow }
  | { line: number; error: string; problem: ReadProblem };

/** One JSON line or CSV record above this many characters is refused (real rows are far smaller). */
export const MAX_RECORD_CHARS = 1_000_000;

/**
 * Lines of a text stream. A line longer than MAX_RECORD_CHARS is not kept in memory: it is
 * dropped as it streams past and reported as `null`. Read errors reach the caller.
 */
async function* readLines(input: Readable): AsyncGenerator<string | null> {
  input.setEncoding('utf8');
  let carry = '';
  let tooLong = false;
  for await (const chunk of input as AsyncIterable<string>) {
    let start = 0;
    for (let newline = chunk.indexOf('\n'); newline >= 0; newline = chunk.indexOf('\n', start)) {
      const piece = chunk.slice(start, newline);
      start = newline + 1;
      if (tooLong) yield null;
      else yield (carry + piece).replace(/\r$/, '');
      carry = '';
      tooLong = false;
    }
    if (!tooLong) carry += chunk.slice(start);
    if (carry.length > MAX_RECORD_CHARS) {
      carry = '';
      tooLong = true;
    }
  }
  if (tooLong) yield null;
  else if (carry !== '') yield carry.replace(/\r$/, '');
}

export async function* readJsonLines(input: Readable): AsyncGenerator<SourceRecord> {
  let line = 0;
  for await (const raw of readLines(input)) {
    line += 1;
    if (raw === null) {
      yield { line, error: `line is longer than ${MAX_RECORD_CHARS} characters`, problem: 'line_too_long' };
      continue;
    }
    const text = line === 1 ? raw.replace(/^\uFEFF/, '') : raw;
    if (text.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      yield { line, error: `invalid JSON: ${(error as Error).message}`, problem: 'invalid_json' };
      continue;
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) yield { line, error: 'not a JSON object', problem: 'not_an_object' };
    else yield { line, record: value as Record<string, unknown> };
  }
}

/**
 * CSV columns: the scalar fields by their JSON names, plus one column per text type named
 * `text_<type>` (text_email, text_various, text_bio, text_resume), so an email *text* can never be
 * confused with the `email` address column.
 */
export const CSV_TEXT_COLUMNS = TEXT_TYPES.map((type) => `text_${type}`);

/** Other names spreadsheets and exports give the columns (matched like the names themselves). */
export const CSV_COLUMN_ALIASES: Readonly<Record<string, string>> = {
  email_address: 'email',
  linkedin: 'linkedin_url',
  linkedin_profile: 'linkedin_url',
  linkedin_profile_url: 'linkedin_url',
  company: 'company_name',
  job_title: 'title',
};

/**
 * A header name as it is compared: case, spaces around it, and the separators between its words
 * (space, hyphen, dot, underscore, or none) do not matter, so `First Name`, `first-name`,
 * `FIRST_NAME` and `firstName` are all first_name.
 */
function headerKey(name: string): string {
  return name.trim().toLowerCase().replace(/[\s._-]+/g, '');
}

/** The same with the separators turned into underscores: `Text Tweet` → text_tweet. */
function headerSnakeCase(name: string): string {
  return name.trim().toLowerCase().replace(/[\s._-]+/g, '_').replace(/^_+|_+$/g, '');
}

/** Header key → the column it names. */
const CSV_COLUMNS_BY_KEY: ReadonlyMap<string, string> = new Map([
  ...[...SCALAR_FIELDS, ...CSV_TEXT_COLUMNS].map((column): [string, string] => [headerKey(column), column]),
  ...Object.entries(CSV_COLUMN_ALIASES).map(([alias, column]): [string, string] => [headerKey(alias), column]),
]);

export interface CsvHeader {
  ignored: string[];
  /** An ignored header → the column it most likely meant (`bio` → text_bio), where one stands out. */
  hints: Record<string, string>;
}

/**
 * The one column an unread header was likely meant to be, or null: a text type without its
 * `text_` prefix (`Bio` → text_bio), or a small misspelling (one edit in a short name, two in a
 * name of 8 or more letters: `Emial` → email). A column the file already reads is never suggested,
 * and neither is a guess between two columns.
 */
function nearMiss(name: string, read: ReadonlySet<string>): string | null {
  const key = headerKey(name);
  if (key.length < 3) return null;
  const allowed = key.length >= 8 ? 2 : 1;
  const candidates = new Set<string>();
  for (const [known, column] of CSV_COLUMNS_BY_KEY) {
    if (read.has(column)) continue;
    if (known === `text${key}` || editDistance(key, known) <= allowed) candidates.add(column);
  }
  const [only] = candidates;
  return candidates.size === 1 && only !== undefined ? only : null;
}

/** Delimiters people export by mistake ("CSV" from a spreadsheet set to another locale), by name. */
const OTHER_DELIMITERS: readonly [string, string][] = [
  [';', 'semicolons'],
  ['\t', 'tabs'],
  ['|', 'vertical bars'],
];

/** Without an email or linkedin_url column no row can be imported; say why in the likeliest case. */
function missingIdentifierMessage(header: string[]): string {
  const problem = 'The CSV header has neither an email nor a linkedin_url column';
  const line = header.join(',');
  const delimiter = OTHER_DELIMITERS.find(([character]) => line.includes(character));
  if (delimiter) return `${problem}, and it contains ${delimiter[1]}: the file must be comma-separated (a comma between columns).`;
  return `${problem} (the first line must name the columns).`;
}

/** The column name each header cell maps to, or false for a column that is not read. */
/** Header keys of the column names themselves (not aliases): a column named as such wins over an alias. */
const EXACT_KEYS: ReadonlySet<string> = new Set([...SCALAR_FIELDS, ...CSV_TEXT_COLUMNS].map(headerKey));

function mapHeader(header: string[], seen: CsvHeader): (string | false)[] {
  const mapped = header.map((h) => CSV_COLUMNS_BY_KEY.get(headerKey(h)) ?? false);
  // `Company` beside `Company Name`: the alias is another column of the export, left unread.
  const columns = mapped.map((column, i) =>
    column !== false && !EXACT_KEYS.has(headerKey(header[i] ?? '')) && mapped.some((other, j) => j !== i && other === column && EXACT_KEYS.has(headerKey(header[j] ?? '')))
      ? false
      : column,
  );
  const unknownText = header.filter((h, i) => columns[i] === false && headerSnakeCase(h).startsWith('text_'));
  if (unknownText.length > 0) {
    throw new AppError('bad_request', `Unknown text column ${unknownText.map((h) => h.trim()).join(', ')}: text columns are ${CSV_TEXT_COLUMNS.join(', ')}.`);
  }
  const duplicate = columns.findIndex((c, i) => c !== false && columns.indexOf(c) !== i);
  if (duplicate >= 0) {
    const column = columns[duplicate];
    const spellings = header.filter((_, i) => columns[i] === column).map((h) => JSON.stringify(h.trim()));
    throw new AppError('bad_request', `Column ${String(column)} appears twice in the CSV header (${spellings.join(' and ')}).`);
  }
  if (!columns.includes('email') && !columns.includes('linkedin_url')) throw new AppError('bad_request', missingIdentifierMessage(header));
  seen.ignored = header.filter((_, i) => columns[i] === false);
  const read = new Set(columns.filter((c): c is string => c !== false));
  for (const name of seen.ignored) {
    const hint = nearMiss(name, read);
    if (hint !== null) seen.hints[name] = hint;
  }
  return columns;
}

/** The cells of one row under their column names; cells past the end of a short row are absent. */
function csvRecord(columns: readonly (string | false)[], cells: readonly string[]): Record<string, unknown> {
  const record: Record<string, unknown> = {};
  const texts: { type: string; text: string }[] = [];
  cells.forEach((value, i) => {
    const column = columns[i];
    if (typeof column !== 'string') return;
    const type = column.startsWith('text_') ? column.slice(5) : null;
    if (type !== null && isTextType(type)) {
      if (value.trim() !== '') texts.push({ type, text: value });
    } else record[column] = value;
  });
  record.texts = texts;
  return record;
}

/** One data row: too many cells is an error (the values cannot be placed), too few is noted. */
function csvRow(columns: readonly (string | false)[], cells: readonly string[], line: number): SourceRecord {
  const expected = columns.length;
  const found = cells.length;
  if (found > expected) {
    return { line, error: `expected ${expected} columns, found ${found} (a value that contains a comma must be in double quotes)`, problem: 'unreadable_csv_record' };
  }
  const record = csvRecord(columns, cells);
  return found < expected ? { line, record, columns: { expected, found } } : { line, record };
}

export async function* readCsv(input: Readable, header: CsvHeader = { ignored: [], hints: {} }): AsyncGenerator<SourceRecord> {
  const skipped: SourceRecord[] = [];
  // Loaded by the first CSV import, not by every process that can import (the service's admin socket).
  const { parse } = loadOnUse('csv-parse') as typeof CsvParse;
  const parser = input.pipe(
    parse({
      bom: true,
      // Rows come as arrays and are matched to the header here, so every row's cell count is known.
      info: true,
      skip_empty_lines: true,
      skip_records_with_error: true,
      // Stray quotes inside a field are kept as text instead of derailing every following line.
      relax_quotes: true,
      // Short and long rows both reach csvRow, which decides what each means.
      relax_column_count: true,
      max_record_size: MAX_RECORD_CHARS,
    }),
  );
  parser.on('skip', (error: Error & { code?: string; lines?: number }) => {
    // csv-parse drops the rest of its buffer after an oversized record: stop rather than lose rows.
    if (error.code === 'CSV_MAX_RECORD_SIZE') {
      parser.destroy(new AppError('bad_request', `Line ${error.lines ?? '?'}: a CSV record is longer than ${MAX_RECORD_CHARS} characters (a quote left open?). Import stopped there.`));
    } else skipped.push({ line: error.lines ?? 0, error: `unreadable CSV record: ${error.message}`, problem: 'unreadable_csv_record' });
  });
  input.on('error', (error) => parser.destroy(error));
  let columns: (string | false)[] | null = null;
  for await (const item of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
    if (columns === null) {
      columns = mapHeader(item.record, header);
      continue;
    }
    // The parser reports bad records while it reads ahead: put them back in line order.
    while (skipped[0] && skipped[0].line <= item.info.lines) yield skipped.shift() as SourceRecord;
    yield csvRow(columns, item.record, item.info.lines);
  }
  yield* skipped;
}
