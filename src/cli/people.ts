import path from 'node:path';
import { InvalidArgumentError, type Command } from 'commander';
import type CliProgress from 'cli-progress';
import type { ImportFormat } from '../people/import.ts';
import type { ImportSummaryView, RecomputeSummaryView } from '../operator/people-verbs.ts';
import { loadOnUse } from '../shared/load-on-use.ts';
import { checkReadable } from './files.ts';
import { printJson, withExecutor } from './run-with.ts';

/** On a terminal a live bar; in a log (non-TTY) one line every few seconds, never a carriage-return mess. */
const LOG_EVERY_MS = 5000;

interface Display {
  update(event: Record<string, unknown>): void;
  stop(): void;
}

function num(event: Record<string, unknown>, key: string): number {
  const value = event[key];
  return typeof value === 'number' ? value : 0;
}

function createDisplay(kind: 'import' | 'recompute', quiet: boolean): Display {
  const describe = (e: Record<string, unknown>) =>
    kind === 'import'
      ? `${num(e, 'read')} rows read, ${num(e, 'inserted')} new, ${num(e, 'updated')} updated, ${num(e, 'unchanged')} unchanged, ${num(e, 'skipped')} skipped, ${num(e, 'rows_per_second')} rows/s`
      : `${num(e, 'recomputed')} of ${num(e, 'total')} recomputed, ${num(e, 'rows_per_second')} people/s`;
  if (quiet) return { update: () => undefined, stop: () => undefined };
  if (!process.stderr.isTTY) {
    let last = Date.now();
    return {
      update(event) {
        if (Date.now() - last < LOG_EVERY_MS) return;
        last = Date.now();
        process.stderr.write(`${kind}: ${describe(event)}\n`);
      },
      stop: () => undefined,
    };
  }
  // The bar's package loads only for a terminal: the other commands, and output to a file or pipe, do without it.
  const cliProgress = loadOnUse('cli-progress') as typeof CliProgress;
  const bar = new cliProgress.SingleBar({ format: `${kind} [{bar}] {percentage}% | {detail}`, hideCursor: true, clearOnComplete: false }, cliProgress.Presets.shades_classic);
  let started = false;
  return {
    update(event) {
      // Imports measure progress in bytes of the file, recomputes in people.
      const total = kind === 'import' ? num(event, 'bytes_total') : num(event, 'total');
      const value = kind === 'import' ? num(event, 'bytes_read') : num(event, 'recomputed');
      if (!started) {
        bar.start(Math.max(total, 1), value, { detail: describe(event) });
        started = true;
      } else bar.update(value, { detail: describe(event) });
    },
    stop() {
      if (started) bar.stop();
    },
  };
}

/** The import finished, but not every row went in: distinct from 1, the command itself failing. */
const SOME_ROWS_SKIPPED = 2;

function parseFormat(value: string): ImportFormat {
  if (value !== 'jsonl' && value !== 'csv') throw new InvalidArgumentError('expected jsonl or csv');
  return value;
}

function printImportSummary(summary: ImportSummaryView): void {
  const lines = [
    `Imported ${summary.file} (${summary.format}) in ${summary.seconds.toFixed(1)} s, ${summary.rows_per_second} rows/s.`,
    `  read                 ${summary.read}`,
    `  inserted             ${summary.inserted}`,
    `  updated              ${summary.updated}`,
    `  unchanged            ${summary.unchanged}`,
    `  skipped              ${summary.skipped}`,
    `  without personality  ${summary.without_personality}`,
  ];
  if (summary.ignored_columns.length > 0) {
    const named = summary.ignored_columns.map((column) => {
      const hint = summary.column_hints[column];
      return hint === undefined ? column : `${column} (did you mean ${hint}?)`;
    });
    lines.push(`Columns not read: ${named.join(', ')}`);
  }
  if (summary.errors.length > 0) {
    lines.push('Skipped rows:');
    for (const error of summary.errors) lines.push(`  line ${error.line}: ${error.reason}`);
    if (summary.skipped > summary.errors.length) lines.push(`  … and ${summary.skipped - summary.errors.length} more`);
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}

/** What a recompute did, in a sentence; a run with nothing to do says why instead of "0". */
function describeRecompute(summary: RecomputeSummaryView): string {
  if (summary.recomputed === 0) {
    if (summary.up_to_date === 0) return 'There are no profiles to recompute.\n';
    const profiles = summary.up_to_date === 1 ? 'The 1 profile is' : `All ${summary.up_to_date} profiles are`;
    return `${profiles} already computed with model ${summary.model_version}; use --all to recompute them anyway.\n`;
  }
  const kept = summary.up_to_date > 0 ? ` ${summary.up_to_date} already made by this model were left as they are.` : '';
  return (
    `Recomputed ${summary.recomputed} profiles with model ${summary.model_version} in ${summary.seconds.toFixed(1)} s ` +
    `(${summary.with_personality} with a personality, ${summary.without_personality} without).${kept}\n`
  );
}

export function registerPeopleCommands(program: Command): void {
  program
    .command('import')
    .description('import people from a JSON Lines or CSV file and compute their profiles (same file twice: nothing changes)')
    .argument('<file>', 'a .jsonl or .csv file')
    .option('--format <format>', 'jsonl | csv (default: from the extension)', parseFormat)
    .option('--json', 'print the summary as JSON')
    .option('--quiet', 'no progress output')
    .addHelpText(
      'after',
      '\nJSON Lines: one object per line: first_name, last_name, email, linkedin_url, photo_url, company_name, title,\n' +
        'location, texts: [{type, text}] with type email | various | bio | resume. Email or linkedin_url is required.\n' +
        'CSV: comma-separated, a header line with the same column names, and text_email, text_various, text_bio,\n' +
        'text_resume for texts. Header names may differ in case and in the separators between words (First Name,\n' +
        'first-name, FIRST_NAME and firstName are all first_name); Email Address, LinkedIn, Company and Job Title are\n' +
        'read too. Other columns are listed as not read, a near miss with the column it likely meant (Bio: "did you\n' +
        'mean text_bio?"). A row may leave out trailing empty cells; one with more cells than the header is skipped.\n' +
        'The file must be UTF-8 text: one in another encoding (Windows-1252, Latin-1, UTF-16) is refused, naming the line.\n' +
        'Bad rows (a value the database cannot store included) are skipped and listed with their line numbers and why,\n' +
        'and so is a row naming the same person (email or linkedin_url) as an earlier row; the other rows are imported.\n' +
        `Exit code ${SOME_ROWS_SKIPPED} when rows were skipped, 0 when every row was imported. A CSV file with a header but no rows\n` +
        'imports nothing and warns on stderr (exit code 0); an empty file is refused like an unreadable one (exit code 1).',
    )
    .action(async (file: string, options: { format?: ImportFormat; json?: boolean; quiet?: boolean }) => {
      // The service reads the file itself (admin socket), from its own working directory.
      const absolute = path.resolve(file);
      await checkReadable(absolute);
      const display = createDisplay('import', options.quiet === true);
      let summary: ImportSummaryView;
      try {
        summary = await withExecutor((executor) =>
          executor.call('people.import', { path: absolute, ...(options.format ? { format: options.format } : {}) }, (event) => display.update(event)),
        );
      } finally {
        display.stop();
      }
      if (options.json) printJson(summary);
      else printImportSummary(summary);
      // On stderr, so that a script reading --json output still sees it.
      for (const warning of summary.warnings) process.stderr.write(`rapport: warning: ${warning}\n`);
      if (summary.skipped > 0) {
        process.stderr.write(`rapport: ${summary.skipped} of ${summary.read} rows were skipped (their lines and reasons are in the summary); the others were imported.\n`);
        process.exitCode = SOME_ROWS_SKIPPED;
      }
    });

  const profiles = program.command('profiles').description('stored personality profiles');
  profiles
    .command('recompute')
    .description('compute stored profiles again with the current text model (those made by another model version)')
    .option('--all', 'recompute every profile, whatever model made it')
    .option('--json', 'print the summary as JSON')
    .option('--quiet', 'no progress output')
    .action(async (options: { all?: boolean; json?: boolean; quiet?: boolean }) => {
      const display = createDisplay('recompute', options.quiet === true);
      let summary: RecomputeSummaryView;
      try {
        summary = await withExecutor((executor) => executor.call('profiles.recompute', { all: options.all === true }, (event) => display.update(event)), { existing: true });
      } finally {
        display.stop();
      }
      if (options.json) printJson(summary);
      else process.stdout.write(describeRecompute(summary));
    });
}
