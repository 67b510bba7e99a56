import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runVerb, verbNames } from '../../src/operator/verbs.ts';
import { AppError } from '../../src/shared/errors.ts';
import { cliEnvironment, type CliEnvironment } from '../helpers/cli-env.ts';
import { runCliInProcess } from '../helpers/in-process-cli.ts';
import { createTestService, type TestService } from '../helpers/service.ts';

/**
 * Operator commands refuse text the database cannot store (issue 25, finding 5), whatever
 * carries it: standard input (`--password-stdin`), a file (imports: test/people/import.test.ts),
 * or the JSON the CLI sends to a running service's admin socket, which can hold half a surrogate
 * pair that no command line can. Every verb checks its arguments before it runs; before, a NUL
 * in `people export --email` reached PostgreSQL as an internal error, and half a pair in a
 * token's name was stored as U+FFFD.
 */

let service: TestService;
let cli: CliEnvironment;
beforeAll(async () => {
  service = await createTestService();
  cli = await cliEnvironment('unstorable-input');
});
afterAll(async () => {
  await service.close();
  await cli.cleanup();
});

/** For each verb that takes a string, arguments with one refused value in it. */
const CASES: [string, Record<string, unknown>, string][] = [
  ['people.export', { email: 'ada\u0000@example.com' }, 'email'],
  ['people.delete', { linkedin_url: 'https://www.linkedin.com/in/ada\ud800' }, 'linkedin_url'],
  ['people.import', { path: '/tmp/people\u0000.jsonl' }, 'path'],
  ['tokens.create', { kind: 'connect', name: 'Acme \udc00 sales' }, 'name'],
  ['tokens.revoke', { id: 'tok\u0000' }, 'id'],
  ['tokens.limits', { id: 'tok\ud800', rate_limit_per_minute: 10 }, 'id'],
  ['users.create', { email: 'ana@example.com', password: 'correct horse\u0000battery' }, 'password'],
  ['users.disable', { user: 'ana\ud800@example.com' }, 'user'],
  ['db.backup', { path: '/tmp/rapport\u0000.backup' }, 'path'],
];

describe('operator commands and text the database cannot store', () => {
  it.each(CASES)('%s refuses it, naming the argument, before it runs', async (verb, args, field) => {
    expect(verbNames()).toContain(verb);
    const outcome = await runVerb(service.ctx, verb, args).then(
      () => null,
      (error: unknown) => error,
    );
    expect(outcome).toBeInstanceOf(AppError);
    expect((outcome as AppError).code).toBe('bad_request');
    expect((outcome as AppError).message).toMatch(new RegExp(`^Invalid arguments for ${verb.replace('.', '\\.')}: "${field}" holds (a NUL character|half of a UTF-16 surrogate pair)`));
  });

  it('a password with a NUL on standard input is refused by the CLI with exit code 1', async () => {
    // In this process, standard input given as it is (test/cli/users.test.ts reads a real pipe).
    const created = await runCliInProcess(['users', 'create', '--email', 'nul@example.com', '--password-stdin'], cli.env, undefined, 'correct horse\u0000battery staple');
    expect(created.code).toBe(1);
    expect(created.stderr).toContain('rapport: Invalid arguments for users.create: "password" holds a NUL character, which cannot be stored.\n');
  }, 120_000);
});
