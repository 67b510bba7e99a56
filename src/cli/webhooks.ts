import type { Command } from 'commander';
import { EVENT_TYPES } from '../webhooks/events.ts';
import type { EndpointView } from '../operator/webhook-verbs.ts';
import { printJson, withExecutor } from './run-with.ts';

function table(header: string[], rows: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  for (const row of [header, ...rows]) process.stdout.write(`${row.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join('  ').trimEnd()}\n`);
}

function owner(e: EndpointView): string {
  return e.owner_token_id !== null ? `token ${e.owner_token_id}` : `user ${e.owner_user_id ?? '?'}`;
}

function state(e: EndpointView): string {
  if (e.disabled_at !== null) return `disabled ${e.disabled_at.slice(0, 10)}: ${e.disabled_reason ?? ''}`;
  return e.failing_since !== null ? `failing since ${e.failing_since.slice(0, 16).replace('T', ' ')}` : 'active';
}

function printSecret(verb: string, e: EndpointView & { secret: string }): void {
  process.stdout.write(`${verb} webhook endpoint ${e.id} (${owner(e)}) for ${e.events.join(', ')} at ${e.url}.\nIts signing secret, shown this once:\n\n  ${e.secret}\n\n`);
}

const OWNER_HELP = 'owner: --token ID (a connect or enterprise token, or a dashboard assessment token for its user) or --user ID|EMAIL';

/** `rapport webhooks …`: the operator's view of every owner's endpoints (docs/operations.md#webhooks). */
export function registerWebhookCommands(program: Command): void {
  const webhooks = program.command('webhooks').description('add, list and remove webhook endpoints; send a test event; read deliveries');

  webhooks
    .command('add')
    .description(`register an endpoint and print its signing secret once (${OWNER_HELP})`)
    .argument('<url>', 'where to POST events (https; http and private addresses only with RAPPORT_WEBHOOK_ALLOW_PRIVATE)')
    .option('--token <id>', 'the token whose events to send')
    .option('--user <user>', 'the registered user whose events to send (id or email)')
    .option('--events <list>', `comma-separated event types (${EVENT_TYPES.join(', ')}); default: all the owner's`)
    .option('--description <text>', 'a note')
    .option('--json', 'print JSON')
    .action(async (url: string, options: { token?: string; user?: string; events?: string; description?: string; json?: boolean }) => {
      const created = (await withExecutor((executor) =>
        executor.call('webhooks.add', {
          url,
          ...(options.token ? { token_id: options.token } : {}),
          ...(options.user ? { user: options.user } : {}),
          ...(options.events ? { events: options.events.split(',').map((e) => e.trim()).filter(Boolean) } : {}),
          ...(options.description !== undefined ? { description: options.description } : {}),
        }),
      { existing: true }));
      if (options.json) printJson(created);
      else printSecret('Added', created);
    });

  webhooks
    .command('list')
    .description("list endpoints (never their secrets): everyone's, or one owner's")
    .option('--token <id>', "only this token's (or its user's)")
    .option('--user <user>', "only this user's")
    .option('--json', 'print JSON')
    .action(async (options: { token?: string; user?: string; json?: boolean }) => {
      const list = (await withExecutor((executor) =>
        executor.call('webhooks.list', { ...(options.token ? { token_id: options.token } : {}), ...(options.user ? { user: options.user } : {}) }),
      { existing: true }));
      if (options.json) return printJson(list);
      if (list.length === 0) return void process.stdout.write('No webhook endpoints. Add one with: npx rapport webhooks add --token ID https://…\n');
      table(['ID', 'OWNER', 'EVENTS', 'URL', 'STATE'], list.map((e) => [e.id, owner(e), e.events.join(','), e.url, state(e)]));
    });

  webhooks
    .command('remove')
    .description('remove an endpoint; what it had still to receive is not sent')
    .argument('<id>', 'endpoint id (ep_…)')
    .option('--json', 'print JSON')
    .action(async (id: string, options: { json?: boolean }) => {
      const removed = await withExecutor((executor) => executor.call('webhooks.remove', { id }), { existing: true });
      if (options.json) printJson(removed);
      else process.stdout.write(`Removed webhook endpoint ${id}.\n`);
    });

  webhooks
    .command('rotate')
    .description('make a new signing secret (printed once); the old one signs too for 24 hours')
    .argument('<id>', 'endpoint id')
    .option('--json', 'print JSON')
    .action(async (id: string, options: { json?: boolean }) => {
      const rotated = await withExecutor((executor) => executor.call('webhooks.rotate', { id }), { existing: true });
      if (options.json) printJson(rotated);
      else printSecret('Rotated the secret of', rotated);
    });

  webhooks
    .command('enable')
    .description('enable an endpoint again after it was disabled')
    .argument('<id>', 'endpoint id')
    .option('--json', 'print JSON')
    .action(async (id: string, options: { json?: boolean }) => {
      const enabled = await withExecutor((executor) => executor.call('webhooks.enable', { id }), { existing: true });
      if (options.json) printJson(enabled);
      else process.stdout.write(`Enabled webhook endpoint ${enabled.id}.\n`);
    });

  webhooks
    .command('test')
    .description('send a webhook.test event to an endpoint')
    .argument('<id>', 'endpoint id')
    .option('--json', 'print JSON')
    .action(async (id: string, options: { json?: boolean }) => {
      const queued = await withExecutor((executor) => executor.call('webhooks.test', { id }), { existing: true });
      if (options.json) printJson(queued);
      else process.stdout.write(`Queued test event ${queued.delivery_id}; sent by ${queued.sent_by}. Follow it with: npx rapport webhooks deliveries ${id}\n`);
    });

  webhooks
    .command('deliveries')
    .description("an endpoint's latest deliveries, newest first")
    .argument('<id>', 'endpoint id')
    .option('--limit <n>', 'how many (default 50)', (value) => Number(value))
    .option('--json', 'print JSON')
    .action(async (id: string, options: { limit?: number; json?: boolean }) => {
      const list = await withExecutor((executor) => executor.call('webhooks.deliveries', { id, ...(options.limit ? { limit: options.limit } : {}) }), { existing: true });
      if (options.json) return printJson(list);
      if (list.length === 0) return void process.stdout.write('No deliveries yet.\n');
      table(
        ['ID', 'EVENT', 'STATUS', 'ATTEMPTS', 'LAST', 'WHEN'],
        list.map((d) => [d.id, d.event_type, d.status === 'pending' && d.next_attempt_at ? `pending, next ${d.next_attempt_at.slice(11, 19)}` : d.status, String(d.attempts), d.last_error ?? (d.last_status === null ? '—' : String(d.last_status)), d.created_at.slice(0, 19).replace('T', ' ')]),
      );
    });
}
