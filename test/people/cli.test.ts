import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEnvironment, type CliEnvironment } from '../helpers/cli-env.ts';
import { runCliInProcess } from '../helpers/in-process-cli.ts';
import { REPO_ROOT, runCli, startServiceProcess, type ServiceProcess } from '../helpers/process.ts';

let cli: CliEnvironment;
let dir: string;
let env: Record<string, string>;
let service: ServiceProcess | null = null;

const bio =
  'I love meeting new people and I always say yes to a party. Last weekend we hosted a picnic for the whole street, ' +
  'with games for the kids, music all afternoon and far too much food. Everyone laughed, we danced, and I made three new friends. ' +
  'At work I lead the events team, and nothing makes me happier than a room full of excited faces.';

function person(i: number, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ first_name: `Cli${i}`, last_name: 'Tester', email: `cli${i}@example.com`, linkedin_url: `https://www.linkedin.com/in/cli-${i}-demo`, texts: [{ type: 'bio', text: `${bio} Number ${i}.` }], ...extra });
}

beforeAll(async () => {
  cli = await cliEnvironment('people-cli');
  ({ dir, env } = cli);
});
afterAll(async () => {
  await service?.stop();
  await cli.cleanup();
});

describe('rapport import and profiles recompute', () => {
  it('imports a file with the database in-process, listing bad rows (exit code 2), then through the running service', async () => {
    const first = path.join(dir, 'first.jsonl');
    writeFileSync(first, [person(1), person(2), '{oops', person(3, { email: 'nope' })].join('\n'));
    // A process of its own, as an operator runs it (its exit code 2); the rest run in this one.
    const local = await runCli(['import', first], env);
    // The import went through, but not every row: its own exit code, and a line saying so.
    expect(local.code).toBe(2);
    expect(local.stderr).toContain('rapport: 2 of 4 rows were skipped (their lines and reasons are in the summary); the others were imported.\n');
    expect(local.stdout).toMatch(/inserted\s+2\n/);
    expect(local.stdout).toMatch(/skipped\s+2\n/);
    expect(local.stdout).toMatch(/line 3: invalid JSON/);
    expect(local.stdout).toMatch(/line 4: bad email "nope"/);

    const missing = await runCliInProcess(['import', path.join(dir, 'missing.jsonl')], env);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/Cannot read .*missing\.jsonl: no such file/);

    service = await startServiceProcess(env);
    // A relative path is resolved by the CLI: the service reads the file from its own directory.
    const again = await runCliInProcess(['import', path.relative(REPO_ROOT, first), '--json'], env);
    expect(again.code).toBe(2);
    expect(JSON.parse(again.stdout)).toMatchObject({ read: 4, inserted: 0, unchanged: 2, skipped: 2, file: first });

    const second = path.join(dir, 'second.csv');
    writeFileSync(second, `email,first_name,text_bio\ncli3@example.com,Cli3,"${bio}"\ncli1@example.com,Renamed,\n`);
    const csv = await runCliInProcess(['import', second, '--json'], env);
    expect(csv.code).toBe(0);
    expect(JSON.parse(csv.stdout)).toMatchObject({ format: 'csv', read: 2, inserted: 1, updated: 1, skipped: 0 });

    const recompute = await runCliInProcess(['profiles', 'recompute', '--all', '--json'], env);
    expect(recompute.code).toBe(0);
    expect(JSON.parse(recompute.stdout)).toMatchObject({ recomputed: 3 });
    const none = await runCliInProcess(['profiles', 'recompute'], env);
    expect(none.code).toBe(0);
    expect(none.stdout).toMatch(/^All 3 profiles are already computed with model rapport-text-\S+; use --all to recompute them anyway\.\n$/);
    expect(await service.stop()).toBe(0);
    service = null;
  }, 240_000);

  it('warns about a CSV file with no rows (exit 0) and refuses an empty or non-UTF-8 file (exit 1)', async () => {
    const headerOnly = path.join(dir, 'header-only.csv');
    writeFileSync(headerOnly, 'First Name,Email\n');
    const noRows = await runCliInProcess(['import', headerOnly, '--json'], env);
    expect(noRows.code).toBe(0);
    expect(JSON.parse(noRows.stdout)).toMatchObject({ read: 0, inserted: 0 });
    expect(noRows.stderr).toContain(`rapport: warning: ${headerOnly} has no people in it: there is a header line but no rows under it.\n`);

    const empty = path.join(dir, 'empty.jsonl');
    writeFileSync(empty, '');
    const refused = await runCliInProcess(['import', empty], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`rapport: ${empty} is empty: there are no people in it to import.\n`);

    const latin1 = path.join(dir, 'latin1.csv');
    writeFileSync(latin1, Buffer.from('Email,First Name\njose@example.com,José\n', 'latin1'));
    const garbled = await runCliInProcess(['import', latin1], env);
    expect(garbled.code).toBe(1);
    expect(garbled.stderr).toContain(`rapport: ${latin1} is not UTF-8 text (line 2); save it as UTF-8 and import again.\n`);
  }, 120_000);
});
