/**
 * The personality test over HTTP on the embedded database: loading the test page and its script
 * (target under 200 ms), and submitting a completed test, scored and stored (target: the
 * scoring and storing under 20 ms; the submission's HTTP round trip is printed beside it).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadQuestionnaire } from '../src/assessment/questionnaire.ts';
import { buildBaseApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { createContext } from '../src/context.ts';
import { openEmbedded } from '../src/db/embedded.ts';
import { migrate } from '../src/db/migrate.ts';
import { createLogger } from '../src/shared/logger.ts';
import { submitTest } from '../src/takers/submit.ts';
import { createUser } from '../src/users/users.ts';
import { summarize } from './stats.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'rapport-bench-assess-'));
const db = await openEmbedded({ dataDir: path.join(dir, 'pgdata') });
await migrate(db);
const config = loadConfig({ LOG_LEVEL: 'silent', RAPPORT_DEMO_DATA: 'false' });
const ctx = createContext(config, db, createLogger('silent'));
const app = await buildBaseApp(ctx);
const base = await app.listen({ host: '127.0.0.1', port: 0 });
const q = loadQuestionnaire();

function fmt(s: { median: number; p95: number }): string {
  return `median ${s.median.toFixed(1)} ms, p95 ${s.p95.toFixed(1)} ms`;
}

try {
  const user = await createUser(db, { email: 'bench@example.com', password: 'bench password 123', confirmed: true });
  const page = `${base}/t/${user.testLinkId}?api_user_email=someone%40example.org`;

  const loads: number[] = [];
  for (let i = 0; i < 120; i += 1) {
    const start = performance.now();
    const html = await (await fetch(page)).text();
    const script = await (await fetch(`${base}/assets/test.js`)).text();
    if (!html.includes('test-form') || script.length < 100) throw new Error('the test page did not load');
    loads.push(performance.now() - start);
  }

  const answers = (k: number) => Object.fromEntries(q.items.map((item, j) => [item.id, 1 + ((j * 7 + k) % 5)]));
  // The submission limits (src/takers/limits.ts) would stop a bench of one link from one
  // network: the counts are cleared between submissions, outside the timed part (each
  // submission still counts itself, as in use).
  const clearLimits = () => db.query('DELETE FROM limit_windows');
  const stores: number[] = [];
  const deps = { db, mailer: ctx.mailer, publicBaseUrl: null, resultKey: (id: string) => ctx.sessions.derive('result-key', id) };
  const link = { userId: user.id, hiringLinkId: null, key: `t:${user.testLinkId}` };
  for (let i = 0; i < 120; i += 1) {
    await clearLimits();
    const start = performance.now();
    await submitTest(deps, q, link, { submissionId: `bench-submission-${i}-xxxxxxxx`, email: `taker${i}@example.org`, firstName: 'Bench', lastName: `Taker ${i}`, answers: answers(i), network: '127.0.0.0/24', consented: true });
    stores.push(performance.now() - start);
  }

  const posts: number[] = [];
  for (let i = 0; i < 60; i += 1) {
    const form = new URLSearchParams({ submission_id: `bench-http-${i}-xxxxxxxxxxxx`, api_user_email: `http${i}@example.org`, first_name: 'Http', consent: 'yes' });
    for (const [id, v] of Object.entries(answers(i + 1))) form.set(`q.${id}`, String(v));
    await clearLimits();
    const start = performance.now();
    const response = await fetch(page.split('?')[0] ?? '', { method: 'POST', body: form, redirect: 'manual' });
    if (response.status !== 303) throw new Error(`submission answered ${response.status}`);
    posts.push(performance.now() - start);
  }

  // The machine's speed in this run: one trivial round trip into the embedded database.
  const trips: number[] = [];
  for (let i = 0; i < 200; i += 1) {
    const start = performance.now();
    await db.query('SELECT 1');
    trips.push(performance.now() - start);
  }
  const trip = summarize(trips.slice(20));

  const load = summarize(loads.slice(20));
  const store = summarize(stores.slice(20));
  const post = summarize(posts.slice(10));
  console.log(`test page + test.js over HTTP:        ${fmt(load)}  (target < 200 ms: ${load.p95 < 200 ? 'met' : 'NOT met'})`);
  console.log(`score + store a completed test:       ${fmt(store)}  (target < 20 ms: ${store.median < 20 ? 'met' : 'NOT met'})`);
  console.log(`submit over HTTP (form post, 303):    ${fmt(post)}`);
  console.log(`one SELECT 1 round trip (this run):   ${fmt(trip)}; storing a test = ${(store.median / trip.median).toFixed(1)} round trips (a transaction of 5 statements: the attempt id, three limit counts, the insert)`);
} finally {
  await app.close();
  await ctx.shutdown();
  await db.close();
  rmSync(dir, { recursive: true, force: true });
}
