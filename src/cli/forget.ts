import { createInterface } from 'node:readline/promises';
import type { Command } from 'commander';
import type { ForgetSummaryView } from '../operator/people-verbs.ts';
import { AppError } from '../shared/errors.ts';
import { loadConfig } from '../config.ts';
import { printJson, withExecutor } from './run-with.ts';
import { hasStoredDatabase, noStoredDatabase } from './stored-database.ts';

interface PersonOptions {
  email?: string;
  linkedinUrl?: string;
}

/** The verb's arguments; exactly one way of naming the person, checked here so the message names the options. */
function personArgs(options: PersonOptions): { email: string } | { linkedin_url: string } {
  if ((options.email === undefined) === (options.linkedinUrl === undefined)) {
    throw new AppError('bad_request', 'Name the person by exactly one of --email or --linkedin-url.');
  }
  return options.email !== undefined ? { email: options.email } : { linkedin_url: options.linkedinUrl ?? '' };
}

/** Asked on a terminal only: a script must say --yes, so a pipe never deletes by accident. */
async function confirm(question: string): Promise<boolean> {
  const prompt = createInterface({ input: process.stdin, output: process.stderr });
  // Ctrl-C or end of input at the prompt is a no (Node 20's question() never settles then).
  const closed = new Promise<string>((resolve) => prompt.once('close', () => resolve('')));
  prompt.once('SIGINT', () => prompt.close());
  try {
    return /^y(es)?$/i.test((await Promise.race([prompt.question(question), closed])).trim());
  } finally {
    prompt.close();
  }
}

function describeRemoved(summary: ForgetSummaryView): string {
  const parts = Object.entries(summary.removed).map(([name, count]) => `${name} ${count}`);
  return `Deleted the person and everything stored about them: ${summary.rows_removed} rows (${parts.join(', ')}).\n`;
}

export function registerForgetCommands(program: Command): void {
  const people = program.command('people').description('one stored person: export everything about them, or delete them (the right to be forgotten)');

  people
    .command('export')
    .description('print everything stored about a person as JSON')
    .option('--email <email>', "the person's email (any spelling, as GET /v1/profiles matches it)")
    .option('--linkedin-url <url>', "the person's profile URL (any spelling)")
    .action(async (options: PersonOptions) => {
      const args = personArgs(options);
      const result = await withExecutor((executor) => executor.call('people.export', args), { existing: true });
      printJson(result);
    });

  people
    .command('delete')
    .description('delete a person with their texts, profile and everything else stored about them; their page and map URLs answer 404')
    .option('--email <email>', "the person's email (any spelling, as GET /v1/profiles matches it)")
    .option('--linkedin-url <url>', "the person's profile URL (any spelling)")
    .option('--yes', 'do not ask for confirmation (required when not run from a terminal)')
    .option('--json', 'print {"removed", "rows_removed"} as JSON')
    .addHelpText('after', '\nA person not stored under the email or URL is an error (exit code 1). Backups made before the delete still hold the person.')
    .action(async (options: PersonOptions & { yes?: boolean; json?: boolean }) => {
      const args = personArgs(options);
      if (options.yes !== true) {
        if (!process.stdin.isTTY) throw new AppError('bad_request', 'Deleting a person cannot be undone: pass --yes to confirm (no terminal to ask on).');
        // Checked before the question, which would be wasted otherwise; the database is opened
        // only after it (held open, it would keep a service from starting while the user reads).
        const config = loadConfig();
        if (!hasStoredDatabase(config)) throw noStoredDatabase(config);
        if (!(await confirm('Delete this person and everything stored about them? This cannot be undone. [y/N] '))) {
          process.stderr.write('rapport: nothing deleted.\n');
          process.exitCode = 1;
          return;
        }
      }
      const summary = await withExecutor((executor) => executor.call('people.delete', args), { existing: true });
      if (options.json) printJson(summary);
      else process.stdout.write(describeRemoved(summary));
    });
}
