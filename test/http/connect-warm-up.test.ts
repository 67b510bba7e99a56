import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToken } from '../../src/access/tokens.ts';
import { loadConfig, type Config } from '../../src/config.ts';
import { WARM_UP_LIMITS } from '../../src/connect/warm-up.ts';
import { openDatabase } from '../../src/db/open.ts';
import { startService } from '../../src/server.ts';
import { cliEnvironment, type CliEnvironment } from '../helpers/cli-env.ts';
import { freePort } from '../helpers/process.ts';

/**
 * The name search's warm-up (src/connect/warm-up.ts) starts with the service (src/server.ts),
 * once it listens, in the background: /healthz and searches are answered while it runs, with
 * the answers they have after it; it stores no request of its own, and a
 * stop ends it before the database closes.
 */
let cli: CliEnvironment;
let config: Config;
const PEOPLE = 600;
if (PEOPLE >= WARM_UP_LIMITS.minSearches || PEOPLE < WARM_UP_LIMITS.roundSize) throw new Error('PEOPLE must lie between a round and the least searches');

beforeAll(async () => {
  cli = await cliEnvironment('warm-up');
  config = loadConfig({ ...cli.env, LOG_LEVEL: 'silent', HOST: '127.0.0.1', PORT: String(await freePort()), CONNECT_PORT: String(await freePort()) });
  // People with a reading, before the service starts (the warm-up reads their names then): fewer than its least searches, more than a round.
  const opened = await openDatabase(config);
  await opened.db.query(
    `INSERT INTO people (id, public_id, first_name, last_name, email, email_normalized, estimate)
     SELECT 'per_warm' || n, 'pp_warm' || n, 'Given' || (n % 97), 'Family' || n, 'w' || n || '@example.com', 'w' || n || '@example.com',
            jsonb_build_object('scores', jsonb_build_object('extraversion', (n % 11) / 10.0 - 0.5, 'agreeableness', (n % 7) / 7.0 - 0.4, 'conscientiousness', 0.1, 'openness', -0.2, 'neuroticism', 0),
                               'confidence', jsonb_build_object('extraversion', 0.5, 'agreeableness', 0.5, 'conscientiousness', 0.4, 'openness', 0.4, 'neuroticism', 0.3),
                               'source', 'prediction', 'modelVersion', 'warm', 'wordCount', 120)
     FROM generate_series(1, $1) AS n`,
    [PEOPLE],
  );
  await opened.close();
});
// startService gives the process the service's umask (src/server.ts); the next file in this worker gets it back.
const umask = process.umask();
afterAll(async () => {
  await cli.cleanup();
  process.umask(umask);
});

// The request ids are random, and the DISC image's link names the host each was asked on.
const body = (text: string) => text.replace(/"request_id":"pr_[\w-]+"/, '').replace(/http:\/\/[^/"]+\/images\//g, '/images/');

describe('name search warm-up at the service start', () => {
  it('runs once the service listens, answers /healthz and searches meanwhile, ends steady or at a limit, and leaves nothing behind', async () => {
    const service = await startService(config);
    try {
      let warmedUp = false;
      void service.nameSearchWarmUp.then(() => (warmedUp = true));
      const secret = (await createToken(service.ctx.db, { kind: 'connect', name: 'warm-up test', limits: { rateLimitPerMinute: null } })).secret;
      const connectUrl = `http://127.0.0.1:${config.connectPort}`;
      const search = () =>
        fetch(`${connectUrl}/v1/profiles`, {
          method: 'POST',
          headers: { 'x-org-token': secret, 'content-type': 'application/json' },
          body: JSON.stringify({ first_name: 'Given12', last_name: 'Family12' }),
        });
      const health = await fetch(`${connectUrl}/healthz`);
      expect(health.status).toBe(200);
      const during = await search();
      expect(during.status).toBe(200);
      // Both were answered while the warm-up still had searches to run: it did not hold them up.
      expect(warmedUp).toBe(false);

      // Fewer people than its least searches: never steady before them, so it searches for every name (or runs out of time).
      const result = await service.nameSearchWarmUp;
      expect(['names used up', 'time limit']).toContain(result?.ended);
      if (result?.ended === 'names used up') expect(result.searches).toBe(PEOPLE);
      expect(result?.lastRoundCpuUs).toBeGreaterThan(0);

      const after = await search();
      expect(after.status).toBe(200);
      expect(body(await during.text())).toBe(body(await after.text()));
      // Only the test's two searches were stored and counted: the warm-up's did not go through the API.
      const [stored] = await service.ctx.db.query<{ n: number | string }>('SELECT count(*) AS n FROM profile_requests');
      expect(Number(stored?.n)).toBe(2);
    } finally {
      await service.stop();
    }
  }, 180_000);

  it('is ended by a stop after its current search, before the database closes', async () => {
    const service = await startService(config);
    await service.stop();
    // Not null: had the database closed under it, the warm-up would have failed instead.
    expect(await service.nameSearchWarmUp).toMatchObject({ ended: 'stopped' });
  }, 120_000);
});
