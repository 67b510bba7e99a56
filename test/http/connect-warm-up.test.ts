import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WARM_UP_SEARCHES } from '../../src/connect/warm-up.ts';
import { createTestService, type TestService } from '../helpers/service.ts';

/**
 * The name search's warm-up (src/connect/warm-up.ts) runs once the Connect app listens, in the
 * background: /healthz and searches are answered while it runs, and they answer what they would
 * without it. Inject alone never listens, so the other tests of the route run without it.
 */
let service: TestService;
let org: { 'x-org-token': string };
const lines: string[] = [];
const PEOPLE = 1500;

beforeAll(async () => {
  service = await createTestService({ LOG_LEVEL: 'info' }, { logs: { write: (line: string) => void lines.push(line) } });
  org = { 'x-org-token': (await service.token('connect')).secret };
  // More people than the warm-up searches, each with a reading, so that it has its full work to do.
  await service.ctx.db.query(
    `INSERT INTO people (id, public_id, first_name, last_name, email, email_normalized, estimate)
     SELECT 'per_warm' || n, 'pp_warm' || n, 'Given' || (n % 97), 'Family' || n, 'w' || n || '@example.com', 'w' || n || '@example.com',
            jsonb_build_object('scores', jsonb_build_object('extraversion', (n % 11) / 10.0 - 0.5, 'agreeableness', (n % 7) / 7.0 - 0.4, 'conscientiousness', 0.1, 'openness', -0.2, 'neuroticism', 0),
                               'confidence', jsonb_build_object('extraversion', 0.5, 'agreeableness', 0.5, 'conscientiousness', 0.4, 'openness', 0.4, 'neuroticism', 0.3),
                               'source', 'prediction', 'modelVersion', 'warm', 'wordCount', 120)
     FROM generate_series(1, $1) AS n`,
    [PEOPLE],
  );
});
afterAll(() => service.close());

const warmedUp = () => lines.map((line) => JSON.parse(line) as { msg?: string; searches?: number }).find((entry) => entry.msg === 'name search warmed up');

describe('name search warm-up after listening', () => {
  it('answers /healthz and a search before the warm-up is done, then warms up in full', async () => {
    const search = { first_name: 'Given12', last_name: 'Family12' };
    const before = await service.connect.inject({ method: 'POST', url: '/v1/profiles', headers: org, payload: search });
    expect(warmedUp()).toBeUndefined();

    await service.connect.listen({ host: '127.0.0.1', port: 0 });
    const address = service.connect.server.address();
    if (address === null || typeof address === 'string') throw new Error('not listening on a port');
    const base = `http://127.0.0.1:${address.port}`;
    const health = await fetch(`${base}/healthz`);
    expect(health.status).toBe(200);
    const during = await fetch(`${base}/v1/profiles`, { method: 'POST', headers: { ...org, 'content-type': 'application/json' }, body: JSON.stringify(search) });
    expect(during.status).toBe(200);
    // Both were answered while the warm-up still had searches to run: it did not hold them up.
    expect(warmedUp()).toBeUndefined();

    for (let i = 0; i < 600 && !warmedUp(); i += 1) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(warmedUp()?.searches).toBe(WARM_UP_SEARCHES);

    // The same answer before, during and after it (the request ids aside).
    const after = await service.connect.inject({ method: 'POST', url: '/v1/profiles', headers: org, payload: search });
    // The request ids are random, and the DISC image's link names the host each was asked on.
    const body = (text: string) => text.replace(/"request_id":"pr_[\w-]+"/, '').replace(/http:\/\/[^/"]+\/images\//g, '/images/');
    expect(after.statusCode).toBe(200);
    expect(body(after.body)).toBe(body(before.body));
    expect(body(await during.text())).toBe(body(before.body));
  });
});
