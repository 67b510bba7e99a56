import { createReadStream, type ReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import type { Db } from '../db/client.ts';
import type { Progress } from '../shared/progress.ts';
import { AppError } from '../shared/errors.ts';
import type { TextModel } from '../personality/text/index.ts';
import { ImportAnalysis, type ImportLog, type PendingRead, type ReadAhead } from './analysis-threads.ts';
import { analyzerFor } from './analyze.ts';
import { checkUtf8File } from './encoding.ts';
import type { PersonInput, PersonSource } from './person.ts';
import { readCsv, readJsonLines, type CsvHeader, type ShortRow, type SourceRecord } from './readers.ts';
import { upsertBatch, type Analyze, type RowOutcome, type UpsertOptions } from './upsert.ts';
import { validatePersonRecord } from './validate.ts';

export const IMPORT_FORMATS = ['jsonl', 'csv'] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

/** Rows per transaction: large enough to amortise a round trip, small enough to keep memory flat. */
export const IMPORT_BATCH_SIZE = 500;
const MAX_REPORTED_ERRORS = 100;
const PROGRESS_EVERY_MS = 250;

export interface ImportOptions {
  format?: ImportFormat;
  /** Stored in people.source: 'import' by default, 'demo' for the demo people. */
  source?: PersonSource;
  batchSize?: number;
  analyze?: Analyze;
  /**
   * Threads that read the texts one batch ahead of the writes (analysis-threads.ts): by default
   * one fewer than the machine's cores, at least one; 0 reads them inline. Only with the
   * model's file (deps.modelPath) and no `analyze` of the caller's, and only for a file of more
   * than one batch.
   */
  analysisThreads?: number;
  progress?: Progress;
}

export interface ImportDeps {
  db: Db;
  model: TextModel;
  /** The file `model` was loaded from, for the analysis threads; without it the texts are read inline. */
  modelPath?: string | undefined;
  /** Told when the analysis threads fail and the import goes on inline (once an import, no person data). */
  logger?: ImportLog | undefined;
}

export interface ImportCounts {
  read: number;
  inserted: number;
  updated: number;
  unchanged: number;
  skipped: number;
  /** Rows stored (inserted, updated or unchanged) whose person has no personality. */
  withoutPersonality: number;
}

export interface ImportSummary extends ImportCounts {
  file: string;
  format: ImportFormat;
  /** The first 100 skipped rows; `skipped` counts them all. */
  errors: { line: number; reason: string }[];
  /** CSV columns that are not ours and were not read. */
  ignoredColumns: string[];
  /** Ignored columns that look like a misspelt one of ours → the column they likely meant (`bio` → text_bio). */
  columnHints: Record<string, string>;
  /** Things the operator should know although nothing was refused: a CSV file with no rows. */
  warnings: string[];
  seconds: number;
  rowsPerSecond: number;
}

export function detectFormat(file: string, override?: string): ImportFormat {
  if (override !== undefined) {
    const format = IMPORT_FORMATS.find((f) => f === override.toLowerCase());
    if (!format) throw new AppError('bad_request', `Unknown format ${override}: use ${IMPORT_FORMATS.join(' or ')}.`);
    return format;
  }
  const ext = path.extname(file).toLowerCase();
  if (ext === '.csv') return 'csv';
  if (ext === '.jsonl' || ext === '.ndjson' || ext === '.json') return 'jsonl';
  throw new AppError('bad_request', `Cannot tell the format of ${path.basename(file)} from its extension: name it .jsonl or .csv, or pass --format jsonl|csv.`);
}

/**
 * A short CSV row that was refused: its cells were read left to right, so a missing cell in the
 * middle moves every later value under the wrong name ("Too,Few,columns" puts "columns" under
 * email). The column count is what to fix; the validation problem comes after it.
 */
function shortRowReason(columns: ShortRow, reason: string): string {
  return `expected ${columns.expected} columns, found ${columns.found}, so values may be under the wrong columns (${reason})`;
}

/**
 * The lines that gave each identifier, so that a person named twice in one file is imported
 * once: otherwise the later row silently overwrites the earlier one, and importing the file again
 * "updates" both every time. Grows with the people in the file (about 100 bytes per identifier).
 */
class SeenPeople {
  private readonly emails = new Map<string, number>();
  private readonly linkedinKeys = new Map<string, number>();

  /** Why the row is skipped if an earlier row named the same person; null (and noted) if not. */
  check(line: number, input: PersonInput): string | null {
    const byEmail = input.emailNormalized === null ? undefined : this.emails.get(input.emailNormalized);
    if (byEmail !== undefined) return `same person as line ${byEmail} (email ${JSON.stringify(input.email ?? '')})`;
    const byUrl = input.linkedinKey === null ? undefined : this.linkedinKeys.get(input.linkedinKey);
    if (byUrl !== undefined) return `same person as line ${byUrl} (linkedin_url ${JSON.stringify((input.linkedinUrl ?? '').slice(0, 80))})`;
    if (input.emailNormalized !== null) this.emails.set(input.emailNormalized, line);
    if (input.linkedinKey !== null) this.linkedinKeys.set(input.linkedinKey, line);
    return null;
  }
}

/**
 * A statement the database refused because of the data in it (SQLSTATE class 22, data
 * exception: text it cannot store, a value out of range; class 23, a constraint): the fault of a
 * row, not of the database. Anything else (a lost connection) still stops the import.
 */
function refusedData(error: unknown): string | null {
  const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : '';
  if (!/^2[23][0-9A-Z]{3}$/.test(code)) return null;
  const message = error instanceof Error ? error.message.replace(/"[^"]*"/g, '"…"') : code;
  return `the database refused the row (${message})`;
}

/**
 * Opens the file, or fails with a message naming it, before anything is imported: one that is
 * not UTF-8 text, or has nothing in it, is refused here too.
 */
async function openFile(file: string): Promise<{ stream: ReadStream; size: number }> {
  try {
    const info = await stat(file);
    if (!info.isFile()) throw new AppError('bad_request', `Cannot read ${file}: not a regular file.`);
    if ((await checkUtf8File(file)).empty) throw new AppError('bad_request', `${file} is empty: there are no people in it to import.`);
    const stream = createReadStream(file);
    await new Promise<void>((resolve, reject) => {
      stream.once('open', () => resolve());
      stream.once('error', reject);
    });
    return { stream, size: info.size };
  } catch (error) {
    if (error instanceof AppError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new AppError('not_found', `Cannot read ${file}: no such file.`);
    throw new AppError('bad_request', `Cannot read ${file}: ${(error as Error).message}.`);
  }
}

/**
 * Streams a JSON Lines or CSV file of people into the database in batches, one transaction per
 * batch, computing each person's personality on the way. Bad rows are counted and reported with
 * their line number; they never stop the import. Importing the same file again writes nothing.
 */
export async function importPeople(deps: ImportDeps, file: string, options: ImportOptions = {}): Promise<ImportSummary> {
  const { db } = deps;
  const format = detectFormat(file, options.format);
  const { stream, size } = await openFile(file);
  const header: CsvHeader = { ignored: [], hints: {} };
  const records: AsyncGenerator<SourceRecord> = format === 'csv' ? readCsv(stream, header) : readJsonLines(stream);
  const batchSize = options.batchSize ?? IMPORT_BATCH_SIZE;
  const source = options.source ?? 'import';
  const inline = options.analyze ?? analyzerFor(deps.model);
  const threads = options.analysisThreads ?? Math.max(1, availableParallelism() - 1);
  const analysis = options.analyze === undefined && deps.modelPath !== undefined && threads > 0 ? new ImportAnalysis(deps.model, deps.modelPath, threads, deps.logger) : null;
  const counts: ImportCounts = { read: 0, inserted: 0, updated: 0, unchanged: 0, skipped: 0, withoutPersonality: 0 };
  const errors: { line: number; reason: string }[] = [];
  const seen = new SeenPeople();
  const started = performance.now();
  let lastProgress = 0;

  const rate = () => {
    const seconds = (performance.now() - started) / 1000;
    return { seconds: Math.round(seconds * 1000) / 1000, rowsPerSecond: seconds > 0 ? Math.round(counts.read / seconds) : 0 };
  };
  const report = (force: boolean) => {
    if (!options.progress || (!force && performance.now() - lastProgress < PROGRESS_EVERY_MS)) return;
    lastProgress = performance.now();
    // The progress event keeps the spelling the CLI's display and the admin socket's lines have always had.
    const { withoutPersonality, ...rest } = counts;
    options.progress({ phase: 'import', ...rest, without_personality: withoutPersonality, rows_per_second: rate().rowsPerSecond, bytes_read: stream.bytesRead, bytes_total: size });
  };
  const skip = (line: number, reason: string) => {
    counts.skipped += 1;
    if (errors.length < MAX_REPORTED_ERRORS) errors.push({ line, reason });
  };

  // A batch is one transaction. One the database refuses for its data is written again row by
  // row, so that the row it could not take is skipped with the reason and the others are stored
  // (validatePersonRecord catches what it knows of first: this is for what it does not).
  const writeBatch = async (rows: readonly { line: number; input: PersonInput }[], ready: ReadAhead | null): Promise<RowOutcome[]> => {
    const upsert: UpsertOptions = { source, ...(analysis && ready ? analysis.readWith(ready) : { analyze: inline }) };
    try {
      return await db.transaction((tx) => upsertBatch(tx, rows.map((r) => r.input), upsert));
    } catch (error) {
      const reason = refusedData(error);
      if (reason === null) throw error;
      if (rows.length === 1) return [{ kind: 'skipped', reason }];
    }
    const outcomes: RowOutcome[] = [];
    for (const row of rows) {
      try {
        outcomes.push(...(await db.transaction((tx) => upsertBatch(tx, [row.input], upsert))));
      } catch (error) {
        const reason = refusedData(error);
        if (reason === null) throw error;
        outcomes.push({ kind: 'skipped', reason });
      }
    }
    return outcomes;
  };

  type Row = { line: number; input: PersonInput };
  type Batch = { rows: Row[]; ready: Promise<PendingRead> | null };
  let batch: Row[] = [];
  /** The batch whose texts the threads are reading while the one before it is written. */
  let ahead: Batch | null = null;
  /** Hands the batch filled to the analysis threads, then writes the one handed over before it. */
  const write = async (last: boolean) => {
    const rows = batch;
    const previous = ahead;
    batch = [];
    ahead = null;
    // A file of one batch is read inline: starting threads would cost more than they save.
    const readAhead = analysis !== null && !(last && previous === null);
    if (rows.length > 0) ahead = { rows, ready: readAhead ? analysis.readAhead(db, rows.map((r) => r.input)) : null };
    if (previous) await store(previous);
    if (last && ahead) {
      const final = ahead;
      ahead = null;
      await store(final);
    }
  };
  const store = async ({ rows, ready }: Batch) => {
    const outcomes = await writeBatch(rows, ready ? await (await ready).collect() : null);
    outcomes.forEach((outcome, i) => {
      if (outcome.kind === 'skipped') return skip(rows[i]?.line ?? 0, outcome.reason);
      counts[outcome.kind] += 1;
      if (!outcome.hasPersonality) counts.withoutPersonality += 1;
    });
    report(false);
  };

  try {
    for await (const item of records) {
      counts.read += 1;
      // A long run of bad rows writes nothing, but the operator still sees it move.
      if (counts.read % batchSize === 0) report(false);
      if ('error' in item) {
        skip(item.line, item.error);
        continue;
      }
      const valid = validatePersonRecord(item.record);
      if (!valid.ok) {
        skip(item.line, item.columns ? shortRowReason(item.columns, valid.reason) : valid.reason);
        continue;
      }
      const duplicate = seen.check(item.line, valid.input);
      if (duplicate !== null) skip(item.line, duplicate);
      else batch.push({ line: item.line, input: valid.input });
      if (batch.length >= batchSize) await write(false);
    }
    await write(true);
  } finally {
    stream.destroy();
    await analysis?.close();
  }
  errors.sort((a, b) => a.line - b.line);
  report(true);
  // An empty file was refused when it was opened: with no rows read, only a header line is left.
  const warnings = counts.read === 0 ? [`${file} has no people in it: ${format === 'csv' ? 'there is a header line but no rows under it' : 'no line holds a person'}.`] : [];
  return { file, format, ...counts, errors, ignoredColumns: header.ignored, columnHints: header.hints, warnings, ...rate() };
}
