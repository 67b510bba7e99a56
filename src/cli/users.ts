import type { Command } from 'commander';
import type { UserView } from '../operator/user-verbs.ts';
import { printJson, withExecutor } from './run-with.ts';

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(Buffer.from(chunk as Uint8Array));
  // One trailing line break is the shell's, not the password's.
  return Buffer.concat(chunks).toString('utf8').replace(/\r?\n$/, '');
}

function printUsers(users: UserView[]): void {
  if (users.length === 0) {
    process.stdout.write('No users yet. Create one with: npx rapport users create --email EMAIL\n');
    return;
  }
  // An address never confirmed: made by sign-up while the service sent no mail.
  const status = (u: UserView) => (u.disabled_at ? `disabled ${u.disabled_at.slice(0, 10)}` : u.email_confirmed_at ? 'active' : 'active, address not confirmed');
  const rows = users.map((u) => [u.id, u.email, u.created_at.slice(0, 10), status(u)]);
  const header = ['ID', 'EMAIL', 'CREATED', 'STATUS'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  for (const row of [header, ...rows]) process.stdout.write(`${row.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join('  ').trimEnd()}\n`);
}

/** Registered users of group B (the dashboard), for operators; works with sign-up switched off. */
export function registerUserCommands(program: Command): void {
  const users = program.command('users').description('create, list, reset the password of and disable registered users (dashboard accounts)');

  users
    .command('create')
    .description('create a user; without --password-stdin a password is made and printed once')
    .requiredOption('--email <email>', "the user's email (their log-in)")
    .option('--password-stdin', 'read the password from standard input (never from the command line, where ps shows it)')
    .option('--json', 'print JSON')
    .action(async (options: { email: string; passwordStdin?: boolean; json?: boolean }) => {
      const password = options.passwordStdin ? await readStdin() : undefined;
      const created = await withExecutor((executor) => executor.call('users.create', { email: options.email, ...(password !== undefined ? { password } : {}) }));
      if (options.json) {
        printJson(created);
        return;
      }
      process.stdout.write(`Created user ${created.email} (id ${created.id}).\n`);
      if (created.password) process.stdout.write(`Password, shown once; they log in at /login:\n\n  ${created.password}\n\n`);
    });

  users
    .command('list')
    .description('list users')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }) => {
      const list = await withExecutor((executor) => executor.call('users.list', {}), { existing: true });
      if (options.json) printJson(list);
      else printUsers(list);
    });

  users
    .command('reset-password')
    .description('give a user a new password and end their sessions; without --password-stdin one is made and printed once')
    .argument('<user>', 'user id or email')
    .option('--password-stdin', 'read the new password from standard input (never from the command line, where ps shows it)')
    .option('--json', 'print JSON')
    .action(async (user: string, options: { passwordStdin?: boolean; json?: boolean }) => {
      const password = options.passwordStdin ? await readStdin() : undefined;
      const reset = await withExecutor((executor) => executor.call('users.reset-password', { user, ...(password !== undefined ? { password } : {}) }), { existing: true });
      if (options.json) {
        printJson(reset);
        return;
      }
      process.stdout.write(`New password set for ${reset.email} (id ${reset.id}); their sessions have ended.\n`);
      if (reset.password) process.stdout.write(`Password, shown once; they log in at /login:\n\n  ${reset.password}\n\n`);
    });

  users
    .command('disable')
    .description('disable a user: their sessions end, their API tokens are revoked, their test links stop working')
    .argument('<user>', 'user id or email')
    .option('--json', 'print JSON')
    .action(async (user: string, options: { json?: boolean }) => {
      const disabled = await withExecutor((executor) => executor.call('users.disable', { user }), { existing: true });
      if (options.json) printJson(disabled);
      else process.stdout.write(`Disabled user ${disabled.email} (${disabled.id}); ${disabled.revoked_tokens} token(s) revoked.\n`);
    });
}
