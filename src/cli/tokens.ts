import { InvalidArgumentError, type Command } from 'commander';
import { TOKEN_KINDS, isTokenKind, type TokenKind } from '../access/tokens.ts';
import { MAX_LIMIT, type TokenView } from '../operator/token-verbs.ts';
import { printJson, withExecutor } from './run-with.ts';

/**
 * What a limit option parses to. Not null for "none": Commander replaces a null that a parser
 * returns with an empty string, so "none" is kept as a word until the arguments are built.
 */
export type LimitOption = number | 'none';

/** The verb's argument: a number, null for no limit, or undefined when the option was not given. */
function limitArgument(value: LimitOption | undefined): number | null | undefined {
  return value === 'none' ? null : value;
}

function limitArguments(options: { monthlyQuota?: LimitOption; rateLimit?: LimitOption }): { monthly_quota?: number | null; rate_limit_per_minute?: number | null } {
  const monthlyQuota = limitArgument(options.monthlyQuota);
  const rateLimit = limitArgument(options.rateLimit);
  return {
    ...(monthlyQuota !== undefined ? { monthly_quota: monthlyQuota } : {}),
    ...(rateLimit !== undefined ? { rate_limit_per_minute: rateLimit } : {}),
  };
}

/** `--rate-limit 3/min` (or `3`, or `none`). */
export function parseRateLimit(value: string): LimitOption {
  if (/^none$/i.test(value.trim())) return 'none';
  const match = /^(\d+)\s*(?:\/\s*(?:m|min|minute))?$/i.exec(value.trim());
  if (!match?.[1] || Number(match[1]) < 1) throw new InvalidArgumentError('expected calls per minute, such as 500/min, or none');
  if (Number(match[1]) > MAX_LIMIT) throw new InvalidArgumentError(`expected at most ${MAX_LIMIT} calls per minute, or none`);
  return Number(match[1]);
}

export function parseQuota(value: string): LimitOption {
  if (/^none$/i.test(value.trim())) return 'none';
  if (!/^\d+$/.test(value.trim())) throw new InvalidArgumentError('expected a whole number of calls per month, or none');
  if (Number(value) > MAX_LIMIT) throw new InvalidArgumentError(`expected at most ${MAX_LIMIT} calls per month, or none`);
  return Number(value);
}

function parseKind(value: string): TokenKind {
  if (!isTokenKind(value)) throw new InvalidArgumentError(`expected one of ${TOKEN_KINDS.join(', ')}`);
  return value;
}

function limitText(value: number | null, unit: string): string {
  return value === null ? 'none' : `${value}${unit}`;
}

const ESCAPES: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** A name stored before control characters were refused must not break the table: show them escaped. */
function printable(text: string): string {
  return text.replace(/[\p{Cc}\u2028\u2029\u202A-\u202E\u2066-\u2069]/gu, (c) => ESCAPES[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function printTokens(tokens: TokenView[]): void {
  if (tokens.length === 0) {
    process.stdout.write('No tokens yet. Create one with: npx rapport tokens create --kind enterprise --name NAME\n');
    return;
  }
  const rows = tokens.map((t) => [t.id, t.kind, printable(t.name), `${t.prefix}…`, limitText(t.monthly_quota, '/month'), limitText(t.rate_limit_per_minute, '/min'), t.revoked_at ? `revoked ${t.revoked_at.slice(0, 10)}` : 'active']);
  const header = ['ID', 'KIND', 'NAME', 'TOKEN', 'QUOTA', 'RATE', 'STATUS'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  for (const row of [header, ...rows]) process.stdout.write(`${row.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join('  ').trimEnd()}\n`);
}

export function registerTokenCommands(program: Command): void {
  const tokens = program.command('tokens').description('create, list and revoke API tokens');

  tokens
    .command('create')
    .description('create a token and print it once (only its hash is stored)')
    .requiredOption('--kind <kind>', `token kind: ${TOKEN_KINDS.join(' | ')}`, parseKind)
    .requiredOption('--name <name>', 'who the token is for')
    .option('--monthly-quota <calls>', 'calls allowed per calendar month, or none', parseQuota)
    .option('--rate-limit <rate>', 'calls allowed per minute, e.g. 500/min, or none', parseRateLimit)
    .option('--json', 'print {"id","kind","name","token"} as JSON')
    .action(async (options: { kind: TokenKind; name: string; monthlyQuota?: LimitOption; rateLimit?: LimitOption; json?: boolean }) => {
      const created = await withExecutor((executor) => executor.call('tokens.create', { kind: options.kind, name: options.name, ...limitArguments(options) }));
      if (options.json) {
        printJson({ id: created.id, kind: created.kind, name: created.name, token: created.token });
        return;
      }
      process.stdout.write(
        `Created ${created.kind} token "${created.name}" (id ${created.id}; quota ${limitText(created.monthly_quota, '/month')}, rate ${limitText(created.rate_limit_per_minute, '/min')}).\n` +
          `Copy it now, it is not shown again:\n\n  ${created.token}\n\n`,
      );
    });

  tokens
    .command('list')
    .description('list tokens (never their secrets)')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }) => {
      const list = await withExecutor((executor) => executor.call('tokens.list', {}), { existing: true });
      if (options.json) printJson(list);
      else printTokens(list);
    });

  tokens
    .command('revoke')
    .description('revoke a token; calls with it get 401 from then on')
    .argument('<id>', 'token id, as shown by tokens list')
    .option('--json', 'print JSON')
    .action(async (id: string, options: { json?: boolean }) => {
      const token = await withExecutor((executor) => executor.call('tokens.revoke', { id }), { existing: true });
      if (options.json) printJson(token);
      else if (token.already_revoked) process.stdout.write(`The ${token.kind} token "${printable(token.name)}" (${token.id}) was already revoked on ${token.revoked_at ?? '?'}.\n`);
      else process.stdout.write(`Revoked ${token.kind} token "${printable(token.name)}" (${token.id}).\n`);
    });

  tokens
    .command('limits')
    .description("change a token's monthly quota or rate limit")
    .argument('<id>', 'token id')
    .option('--monthly-quota <calls>', 'calls per calendar month, or none', parseQuota)
    .option('--rate-limit <rate>', 'calls per minute, e.g. 500/min, or none', parseRateLimit)
    .option('--json', 'print JSON')
    .action(async (id: string, options: { monthlyQuota?: LimitOption; rateLimit?: LimitOption; json?: boolean }) => {
      const token = await withExecutor((executor) => executor.call('tokens.limits', { id, ...limitArguments(options) }), { existing: true });
      if (options.json) printJson(token);
      else process.stdout.write(`Token ${token.id}: quota ${limitText(token.monthly_quota, '/month')}, rate ${limitText(token.rate_limit_per_minute, '/min')}.\n`);
    });
}
