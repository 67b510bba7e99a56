import type { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import { AppError } from '../shared/errors.ts';
import { TEXT_TYPES, isTextType } from './person.ts';
import { SCALAR_FIELDS } from './validate.ts';

/**
 * Streaming readers for import files: one record at a time with its line number, so a file of
 * any size is never held in memory. A line that cannot be read is reported, not fatal.
 */

export type SourceRecord = { line: number; record: Record<string, unknown> } | { line: number; error: string };

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
      yield { line, error: `line is longer than ${MAX_RECORD_CHARS} characters` };
      continue;
    }
    const text = line === 1 ? raw.replace(/^\uFEFF/, '') : raw;
    if (text.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      yield { line, error: `invalid JSON: ${(error as Error).message}` };
      continue;
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) yield { line, error: 'not a JSON object' };
    else yield { line, record: value as Record<string, unknown> };
  }
}

/**
 * CSV columns: the scalar fields by their JSON names, plus one column per text type named
 * `text_<type>` (text_email, text_various, text_bio, text_resume), so an email *text* can never be
 * confused with the `email` address column. Header names are trimmed and case-insensitive.
 */
export const CSV_TEXT_COLUMNS = TEXT_TYPES.map((type) => `text_${type}`);

export interface CsvHeader {
  ignored: string[];
}

function mapHeader(header: string[], seen: CsvHeader): (string | false)[] {
  const known = new Set<string>([...SCALAR_FIELDS, ...CSV_TEXT_COLUMNS]);
  const names = header.map((h) => h.trim().toLowerCase());
  const unknownText = names.filter((n) => n.startsWith('text_') && !known.has(n));
  if (unknownText.length > 0) {
    throw new AppError('bad_request', `Unknown text column ${unknownText.join(', ')}: text columns are ${CSV_TEXT_COLUMNS.join(', ')}.`);
  }
  const duplicate = names.find((n, i) => known.has(n) && names.indexOf(n) !== i);
  if (duplicate) throw new AppError('bad_request', `Column ${duplicate} appears twice in the CSV header.`);
  if (!names.includes('email') && !names.includes('linkedin_url')) {
    throw new AppError('bad_request', 'The CSV header has neither an email nor a linkedin_url column (the first line must name the columns).');
  }
  seen.ignored = header.filter((_, i) => !known.has(names[i] ?? ''));
  return names.map((n) => (known.has(n) ? n : false));
}

function csvRecord(row: Record<string, string>): Record<string, unknown> {
  const record: Record<string, unknown> = {};
  const texts: { type: string; text: string }[] = [];
  for (const [column, value] of Object.entries(row)) {
    const type = column.startsWith('text_') ? column.slice(5) : null;
    if (type !== null && isTextType(type)) {
      if (value.trim() !== '') texts.push({ type, text: value });
    } else record[column] = value;
  }
  record.texts = texts;
  return record;
}

export async function* readCsv(input: Readable, header: CsvHeader = { ignored: [] }): AsyncGenerator<SourceRecord> {
  const skipped: SourceRecord[] = [];
  const parser = input.pipe(
    parse({
      bom: true,
      columns: (names: string[]) => mapHeader(names, header),
      info: true,
      skip_empty_lines: true,
      skip_records_with_error: true,
      // Stray quotes inside a field are kept as text instead of derailing every following line.
      relax_quotes: true,
      // Rows that leave out trailing empty cells are common in hand-made files.
      relax_column_count_less: true,
      max_record_size: MAX_RECORD_CHARS,
    }),
  );
  parser.on('skip', (error: Error & { code?: string; lines?: number }) => {
    // csv-parse drops the rest of its buffer after an oversized record: stop rather than lose rows.
    if (error.code === 'CSV_MAX_RECORD_SIZE') {
      parser.destroy(new AppError('bad_request', `Line ${error.lines ?? '?'}: a CSV record is longer than ${MAX_RECORD_CHARS} characters (a quote left open?). Import stopped there.`));
    } else skipped.push({ line: error.lines ?? 0, error: `unreadable CSV record: ${error.message}` });
  });
  input.on('error', (error) => parser.destroy(error));
  for await (const item of parser as AsyncIterable<{ record: Record<string, string>; info: { lines: number } }>) {
    // The parser reports bad records while it reads ahead: put them back in line order.
    while (skipped[0] && skipped[0].line <= item.info.lines) yield skipped.shift() as SourceRecord;
    yield { line: item.info.lines, record: csvRecord(item.record) };
  }
  yield* skipped;
}
