import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PEOPLE_FILE } from '../../src/people/demo/seed.ts';
import { cliEnvironment, type CliEnvironment } from '../helpers/cli-env.ts';
import { runCliInProcess } from '../helpers/in-process-cli.ts';
import { runCli, startServiceProcess, waitUntil, type ServiceProcess } from '../helpers/process.ts';

let cli: CliEnvironment;
let env: Record<string, string>;
let service: ServiceProcess | null = null;

beforeAll(async () => {
  cli = await cliEnvironment('forget');
  ({ env } = cli);
});
afterAll(async () => {
  await service?.stop();
  await cli.cleanup();
});

/** Every way the service shows a person: the lookups by email and by URL, the page and the map (SVG and PNG). */
async function everyRoute(baseUrl: string, token: string, page: string, map: string): Promise<number[]> {
  const headers = { authorization: `Bearer ${token}` };
  const byEmail = await fetch(`${baseUrl}/v1/profiles?email=${encodeURIComponent(' Marisol.Quintero@EXAMPLE.com ')}`, { headers });
  const byUrl = await fetch(`${baseUrl}/v1/profiles?linkedin_url=${encodeURIComponent('http://linkedin.com/in/Marisol-Quintero-Demo/?trk=x')}`, { headers });
  const pageAnswer = await fetch(`${baseUrl}${page}`);
  const svg = await fetch(`${baseUrl}${map}`);
  const png = await fetch(`${baseUrl}${map.replace(/\.svg$/, '.png')}`);
  return [byEmail.status, byUrl.status, pageAnswer.status, svg.status, png.status];
}

describe('rapport people export and people delete (the right to be forgotten)', () => {
  it('exports a person, deletes them through the running service, and then no route knows them', async () => {
    expect((await runCliInProcess(['import', DEMO_PEOPLE_FILE, '--quiet'], env)).code).toBe(0);

    // Export with the database in this process: every stored field, the texts included.
    const exported = await runCliInProcess(['people', 'export', '--email', 'MARISOL.QUINTERO@example.com'], env);
    expect(exported.code).toBe(0);
    const { data } = JSON.parse(exported.stdout) as { data: { person: Record<string, unknown> } };
    expect(data.person).toMatchObject({
      first_name: 'Marisol',
      last_name: 'Quintero',
      email: 'marisol.quintero@example.com',
      linkedin_url: 'https://www.linkedin.com/in/marisol-quintero-demo',
      company_name: 'Emberline Studios',
    });
    const texts = data.person.texts as { type: string; text: string }[];
    expect(texts.length).toBeGreaterThan(0);
    expect(texts[0]?.text).toMatch(/spring open house/);
    expect(data.person.estimate).toHaveProperty('scores');
    const publicId = String(data.person.public_id);

    service = await startServiceProcess(env);
    const created = await runCliInProcess(['tokens', 'create', '--kind', 'enterprise', '--name', 'forget', '--json'], env);
    const token = (JSON.parse(created.stdout) as { token: string }).token;
    const lookup = await fetch(`${service.baseUrl}/v1/profiles?email=marisol.quintero@example.com`, { headers: { authorization: `Bearer ${token}` } });
    const profile = (await lookup.json()) as { data: { url: string; images: { disc_map: string } } };
    const page = new URL(profile.data.url).pathname;
    const map = new URL(profile.data.images.disc_map).pathname;
    expect(page).toBe(`/p/${publicId}`);
    expect(map).toBe(`/images/disc-map/p/${publicId}.svg`);
    expect(await everyRoute(service.baseUrl, token, page, map)).toEqual([200, 200, 200, 200, 200]);

    // A Connect search that found her: it goes with her.
    const org = (JSON.parse((await runCliInProcess(['tokens', 'create', '--kind', 'connect', '--name', 'forget-org', '--json'], env)).stdout) as { token: string }).token;
    const search = await fetch(`${service.connectUrl}/v1/profiles`, {
      method: 'POST',
      headers: { 'x-org-token': org, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'marisol.quintero@example.com' }),
    });
    expect(search.status).toBe(200);
    const requestId = ((await search.json()) as { request_id: string }).request_id;
    const result = () => fetch(`${service?.connectUrl}/v1/profiles/results/${requestId}`, { headers: { 'x-org-token': org } });
    expect((await result()).status).toBe(200);

    // Through the admin socket; the JSON says how much went.
    const deleted = await runCliInProcess(['people', 'delete', '--linkedin-url', 'linkedin.com/in/MARISOL-quintero-demo/', '--yes', '--json'], env);
    expect(deleted.code).toBe(0);
    expect(JSON.parse(deleted.stdout)).toEqual({ removed: { connect_profile_requests: 1, webhook_deliveries: 0, assessments: 0, email_confirmations: 0, person: 1 }, rows_removed: 2 });
    expect((await result()).status).toBe(404);

    expect(await everyRoute(service.baseUrl, token, page, map)).toEqual([404, 404, 404, 404, 404]);
    const again = await runCliInProcess(['people', 'export', '--email', 'marisol.quintero@example.com'], env);
    expect(again.code).toBe(1);
    expect(again.stdout).toBe('');
    expect(again.stderr).toMatch(/^rapport: No person is stored under this email/);
    const twice = await runCliInProcess(['people', 'delete', '--email', 'marisol.quintero@example.com', '--yes'], env);
    expect(twice.code).toBe(1);
    expect(twice.stderr).toMatch(/No person is stored under this email/);

    // Another person is still there.
    const other = await fetch(`${service.baseUrl}/v1/profiles?email=theo.brandvold@example.org`, { headers: { authorization: `Bearer ${token}` } });
    expect(other.status).toBe(200);

    expect((await runCliInProcess(['people', 'export', '--email', 'theo.brandvold@example.org'], env)).code).toBe(0);

    // The service logged the verbs and how much went, never who.
    const running = service;
    if (!process.env.DATABASE_URL) await waitUntil(() => /"verb":"people\.export"/.test(running.logs()), 5000);
    const logs = service.logs();
    // With the embedded database the CLI works through the service, which logs the verb; on
    // PostgreSQL the CLI reaches the database itself and the service never hears of it.
    if (!process.env.DATABASE_URL) {
      expect(logs).toMatch(/"verb":"people\.delete","rows_removed":2/);
      expect(logs).toMatch(/"verb":"people\.export"/);
    }
    for (const secret of ['marisol', 'Marisol', 'Quintero', 'brandvold', 'Brandvold', publicId]) expect(logs).not.toContain(secret);

    expect(await service.stop()).toBe(0);
    service = null;
  }, 240_000);

  it('deletes with the database in this process, asks for --yes without a terminal, and names the options', async () => {
    // A process of its own, its stdin not a terminal.
    const refused = await runCli(['people', 'delete', '--email', 'theo.brandvold@example.org'], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('pass --yes to confirm');
    expect((await runCliInProcess(['people', 'export', '--email', 'theo.brandvold@example.org'], env)).code).toBe(0);

    const both = await runCliInProcess(['people', 'delete', '--email', 'a@example.org', '--linkedin-url', 'https://linkedin.com/in/a', '--yes'], env);
    expect(both.code).toBe(1);
    expect(both.stderr).toContain('exactly one of --email or --linkedin-url');
    const neither = await runCliInProcess(['people', 'export'], env);
    expect(neither.code).toBe(1);
    expect(neither.stderr).toContain('exactly one of --email or --linkedin-url');
    // A URL that can name nobody is said to be one, not reported as a person not found.
    for (const verb of [['export'], ['delete', '--yes']]) {
      const notAUrl = await runCliInProcess(['people', ...verb, '--linkedin-url', 'not a url'], env);
      expect([notAUrl.code, notAUrl.stderr], verb.join(' ')).toEqual([1, expect.stringContaining('is not a LinkedIn profile URL')]);
    }

    const deleted = await runCliInProcess(['people', 'delete', '--email', 'Theo.Brandvold@example.org', '--yes'], env);
    expect(deleted.code).toBe(0);
    expect(deleted.stdout).toBe('Deleted the person and everything stored about them: 1 rows (connect_profile_requests 0, webhook_deliveries 0, assessments 0, email_confirmations 0, person 1).\n');
    const gone = await runCliInProcess(['people', 'export', '--linkedin-url', 'https://www.linkedin.com/in/theo-brandvold-demo'], env);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toMatch(/No person is stored under this profile URL/);
  }, 120_000);
});
