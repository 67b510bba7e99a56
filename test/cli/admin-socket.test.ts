import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { createContext, type AppContext } from '../../src/context.ts';
import { listenAdminSocket } from '../../src/operator/admin-socket.ts';
import { runVerb } from '../../src/operator/verbs.ts';
import { AppError } from '../../src/shared/errors.ts';
import { createLogger } from '../../src/shared/logger.ts';
import { callAdminSocket as callSocket } from '../helpers/cli-env.ts';
import { createTestDb, type TestDb } from '../helpers/db.ts';

const lines: string[] = [];
let dir: string;
let testDb: TestDb;
let ctx: AppContext;
let admin: Server;
let socketPath: string;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'rapport-admin-'));
  socketPath = path.join(dir, 'admin.sock');
  testDb = await createTestDb();
  const config = { ...loadConfig({ LOG_LEVEL: 'info', RAPPORT_DEMO_DATA: 'false' }), databaseUrl: testDb.url };
  ctx = createContext(config, testDb.db, createLogger('info', { write: (line: string) => void lines.push(line) }));
  admin = await listenAdminSocket(ctx, socketPath);
});
afterAll(async () => {
  admin.close();
  await ctx.shutdown();
  await testDb.close();
  rmSync(dir, { recursive: true, force: true });
});

function callAdminSocket(verb: string, args: unknown): Promise<Record<string, unknown>[]> {
  return callSocket(socketPath, verb, args);
}

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe('token verbs', () => {
  it('take null for no limit', async () => {
    const created = (await runVerb(ctx, 'tokens.create', { kind: 'assessment', name: 'Free', monthly_quota: null, rate_limit_per_minute: null })) as { id: string };
    expect(created).toMatchObject({ monthly_quota: null, rate_limit_per_minute: null });
    await runVerb(ctx, 'tokens.limits', { id: created.id, monthly_quota: 10, rate_limit_per_minute: 10 });
    expect(await runVerb(ctx, 'tokens.limits', { id: created.id, monthly_quota: null })).toMatchObject({ monthly_quota: null, rate_limit_per_minute: 10 });
  });

  it('refuse limits the integer columns cannot hold with a validation message, not a database error', async () => {
    const quota = await refusal(runVerb(ctx, 'tokens.create', { kind: 'enterprise', name: 'Huge', monthly_quota: 3_000_000_000 }));
    expect(quota.code).toBe('bad_request');
    expect(quota.message).toBe('Invalid arguments for tokens.create: /monthly_quota must be <= 2147483647.');
    const created = (await runVerb(ctx, 'tokens.create', { kind: 'enterprise', name: 'Max', monthly_quota: 2_147_483_647 })) as { id: string };
    const rate = await refusal(runVerb(ctx, 'tokens.limits', { id: created.id, rate_limit_per_minute: 2_147_483_648 }));
    expect(rate.message).toBe('Invalid arguments for tokens.limits: /rate_limit_per_minute must be <= 2147483647.');
    const negative = await refusal(runVerb(ctx, 'tokens.limits', { id: created.id, monthly_quota: -1 }));
    expect(negative.message).toMatch(/\/monthly_quota must be >= 0/);
  });

  it.each([
    ['a line break', 'line\nbreak'],
    ['a carriage return', 'carriage\rreturn'],
    ['a tab', 'tab\there'],
    ['an escape sequence', 'colour \u001b[31mred'],
    ['a NUL', 'nul\u0000byte'],
    ['a C1 control', 'next\u0085line'],
    ['a line separator', 'line\u2028separator'],
    ['a right-to-left override', 'evil\u202Etxt.exe'],
  ])('refuse a name with %s', async (_label, name) => {
    const error = await refusal(runVerb(ctx, 'tokens.create', { kind: 'enterprise', name }));
    expect(error.code).toBe('bad_request');
    // A NUL is refused before the verb runs, like in every argument of every verb (it cannot be stored).
    expect(error.message).toMatch(name.includes('\u0000') ? /^Invalid arguments for tokens\.create: "name" holds a NUL character/ : /^A token name cannot contain control characters/);
  });

  it('say when a token was already revoked, keeping the first revocation time', async () => {
    const created = (await runVerb(ctx, 'tokens.create', { kind: 'enterprise', name: 'Twice' })) as { id: string };
    const first = (await runVerb(ctx, 'tokens.revoke', { id: created.id })) as { revoked_at: string; already_revoked: boolean };
    expect(first.already_revoked).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const second = (await runVerb(ctx, 'tokens.revoke', { id: created.id })) as { revoked_at: string; already_revoked: boolean };
    expect(second).toMatchObject({ already_revoked: true, revoked_at: first.revoked_at });
  });

  it('accept a name with accents and emoji, trimming the whitespace around it', async () => {
    const created = await runVerb(ctx, 'tokens.create', { kind: 'enterprise', name: '  Zoë’s team 👩‍💻\n' });
    expect(created).toMatchObject({ name: 'Zoë’s team 👩‍💻' });
  });
});

describe('admin socket failure log', () => {
  it('names the verb and the error code, never the statement, its values or the row', async () => {
    // A real database error on the INSERT of tokens.create: its statement, parameters (token
    // hash, prefix, name) and detail ("Failing row contains ...") must stay out of the log.
    await testDb.db.exec('ALTER TABLE api_tokens ADD CONSTRAINT test_no_secret_project CHECK (name <> \'Secret Project Zeta\')');
    try {
      lines.length = 0;
      const answer = await callAdminSocket('tokens.create', { kind: 'enterprise', name: 'Secret Project Zeta' });
      expect(answer).toHaveLength(1);
      expect(answer[0]).toMatchObject({ error: { code: 'internal' } });
      const logged = lines.join('');
      expect(logged).toMatch(/admin command failed/);
      expect(logged).toContain('"verb":"tokens.create"');
      expect(logged).toContain('"code":"23514"');
      expect(logged).not.toMatch(/rpe_/);
      expect(logged).not.toMatch(/[0-9a-f]{64}/);
      expect(logged).not.toContain('Secret Project Zeta');
      expect(logged).not.toMatch(/INSERT INTO/i);
      expect(logged).not.toMatch(/api_tokens/);
    } finally {
      await testDb.db.exec('ALTER TABLE api_tokens DROP CONSTRAINT test_no_secret_project');
    }
  });

  it('answers malformed arguments as a bad request, without logging them', async () => {
    lines.length = 0;
    const answer = await callAdminSocket('tokens.list', '{"secret": "Zeta-');
    expect(answer).toEqual([{ error: { code: 'bad_request', message: 'The arguments are not valid JSON.' } }]);
    expect(lines.join('')).toBe('');
  });
});
