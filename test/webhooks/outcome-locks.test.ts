import { describe, expect, it } from 'vitest';
import { recordOutcomes } from '../../src/webhooks/deliveries.ts';
import { useTestDb } from '../helpers/db.ts';

const testDb = useTestDb();

/** A promise and the function that settles it. */
function signal(): { wait: Promise<void>; fire: () => void } {
  let fire = () => undefined as void;
  const wait = new Promise<void>((resolve) => {
    fire = resolve;
  });
  return { wait, fire };
}

/*
 * Removing an endpoint locks its row, then its deliveries' (ON DELETE CASCADE). A batch's
 * recording that locked the deliveries first and the endpoint after deadlocked with a removal on
 * PostgreSQL, and the removal answered 500. The embedded database runs one transaction at a time,
 * so there is no second transaction to wait on there: PostgreSQL only.
 */
describe.skipIf(!process.env.DATABASE_URL)('recording a batch while its endpoint is being removed (PostgreSQL)', () => {
  it("waits for the endpoint's lock before it touches the endpoint's deliveries", async () => {
    const db = testDb.db;
    await db.query("INSERT INTO users (id, email, email_normalized, password_hash, test_link_id) VALUES ('u_locks', 'locks@example.com', 'locks@example.com', 'x', 'link_locks')");
    await db.query("INSERT INTO webhook_endpoints (id, owner_user_id, url, events, secret) VALUES ('ep_locks', 'u_locks', 'https://example.com/hook', ARRAY['webhook.test'], 'whsec_x')");
    await db.query("INSERT INTO webhook_deliveries (id, endpoint_id, event_type, body) VALUES ('msg_locks', 'ep_locks', 'webhook.test', '{}')");

    // Another transaction holds the endpoint, as a removal does before it reaches the deliveries.
    const holding = signal();
    const release = signal();
    const removal = db.transaction(async (tx) => {
      await tx.query("SELECT id FROM webhook_endpoints WHERE id = 'ep_locks' FOR UPDATE");
      holding.fire();
      await release.wait;
    });
    await holding.wait;
    const recording = db.transaction((tx) =>
      recordOutcomes(tx, [{ id: 'msg_locks', endpointId: 'ep_locks', state: 'delivered', status: 204 }], [{ id: 'ep_locks', succeeded: true, recovered: false, disabledReason: null }]),
    );
    try {
      const deadline = Date.now() + 10_000;
      const waiting = async () => (await db.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'"))[0]?.n ?? 0;
      while ((await waiting()) === 0) {
        if (Date.now() > deadline) throw new Error('the recording never waited for the endpoint');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      // The recording waits on the endpoint and holds none of its deliveries: the removal can take them.
      const free = await db.transaction(async (tx) => (await tx.query("SELECT id FROM webhook_deliveries WHERE id = 'msg_locks' FOR UPDATE SKIP LOCKED")).length);
      expect(free).toBe(1);
    } finally {
      release.fire();
      await removal;
      await recording;
    }
    const [delivery] = await db.query<{ status: string; attempts: number }>("SELECT status, attempts FROM webhook_deliveries WHERE id = 'msg_locks'");
    expect(delivery).toEqual({ status: 'delivered', attempts: 1 });
  });
});
