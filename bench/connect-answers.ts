/**
 * The answers of ~200 varied sync searches, recorded from a checkout's service over a directory
 * of bench/import.ts (renamed by bench/connect.ts), to show that a change to the name search left
 * every answer as it was:
 *
 *   npx tsx bench/connect-answers.ts --data-dir DIR --people N --out FILE [--root CHECKOUT]
 *
 * Run it once per checkout over the same directory and diff the two files. Each line is one
 * search: its body, then the status and the answer with the request ids (new every time) left out.
 * The searches: stored names as given, in capitals and with spaces, by a nickname, with a typo
 * in one or both parts, with a company or a place that agrees or not; emails; names nobody has;
 * bodies that are not a search at all.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { runCli } from '../test/helpers/process.ts';
import { seededRandom } from '../training/random.ts';
import { nameOf, NICKNAME_OF } from './connect-names.ts';
import { startServiceAt } from './service-at.ts';

const { values } = parseArgs({ options: { 'data-dir': { type: 'string' }, people: { type: 'string' }, out: { type: 'string' }, root: { type: 'string' } } });
const dataDir = values['data-dir'];
const people = Number(values.people);
const out = values.out;
if (!dataDir || !(people > 0) || !out) throw new Error('give --data-dir, --people and --out');
const root = path.resolve(values.root ?? path.join(import.meta.dirname, '..'));

const pick = seededRandom(29);
const someone = () => Math.floor(pick() * people);
const typo = (name: string) => name.slice(0, 2) + name.charAt(3) + name.charAt(2) + name.slice(4);
const searches: Array<Record<string, string>> = [];
for (let i = 0; i < 60; i++) {
  const { first, last } = nameOf(someone());
  searches.push({ first_name: first, last_name: last });
}
for (let i = 0; i < 10; i++) {
  const { first, last } = nameOf(someone());
  searches.push({ first_name: ` ${first.toUpperCase()} `, last_name: last.toLowerCase() });
}
for (let i = 0; i < 20; i++) {
  const { first, last } = nameOf(someone());
  const nickname = NICKNAME_OF.get(first.toLowerCase());
  searches.push({ first_name: nickname ?? first, last_name: last });
}
for (let i = 0; i < 20; i++) {
  const { first, last } = nameOf(someone());
  searches.push({ first_name: first, last_name: typo(last) });
}
for (let i = 0; i < 15; i++) {
  const { first, last } = nameOf(someone());
  searches.push({ first_name: typo(first), last_name: last });
}
for (let i = 0; i < 15; i++) {
  const { first, last } = nameOf(someone());
  searches.push({ first_name: typo(first), last_name: `${typo(last)}x` });
}
for (let i = 0; i < 20; i++) {
  const n = someone();
  const { first, last } = nameOf(n);
  searches.push({ first_name: first, last_name: last, company_name: i % 2 ? `Company ${n}` : 'Another Firm Ltd', location: i % 3 ? 'Springfield' : 'Austin, TX' });
}
for (let i = 0; i < 15; i++) searches.push({ email: `person${someone()}@example.com` });
for (let i = 0; i < 5; i++) searches.push({ email: `nobody${i}@example.com`, first_name: nameOf(someone()).first, last_name: nameOf(someone()).last });
for (let i = 0; i < 10; i++) searches.push({ first_name: `Zq${i}xw`, last_name: `Vvkj${i}` });
searches.push({ first_name: 'A', last_name: 'B' }, { first_name: 'Robert' }, { last_name: 'Ashford' }, {}, { first_name: '', last_name: '' });
for (let i = 0; i < 5; i++) {
  const { first, last } = nameOf(someone());
  searches.push({ first_name: first, last_name: last, text_sample: 'I like to plan my week carefully and I enjoy quiet evenings with a book and a few close friends. '.repeat(4), text_type: 'email' });
}

const env = { RAPPORT_DATA_DIR: dataDir, RAPPORT_DEMO_DATA: 'false', LOG_LEVEL: 'info', RAPPORT_RUNTIME: 'source' };
const service = await startServiceAt(root, env, path.join(dataDir, 'answers-service.log'));
try {
  const created = await runCli(['tokens', 'create', '--kind', 'connect', '--name', 'bench-answers', '--json', '--rate-limit', 'none'], env);
  const org = (JSON.parse(created.stdout) as { token: string }).token;
  const lines: string[] = [];
  for (const body of searches) {
    const response = await fetch(`${service.connectUrl}/v1/profiles`, { method: 'POST', headers: { 'x-org-token': org, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    // Request ids (C2's, and an error's) are new at every request; links name the host asked,
    // whose port is new at every start.
    const answer = JSON.stringify(await response.json(), (key, value: unknown) => (key === 'request_id' ? undefined : value));
    lines.push(`{"body":${JSON.stringify(body)},"status":${response.status},"answer":${answer.replaceAll(service.connectUrl, 'http://service')}}`);
  }
  writeFileSync(out, `${lines.join('\n')}\n`);
  const statuses = new Map<number, number>();
  for (const line of lines) {
    const status = (JSON.parse(line) as { status: number }).status;
    statuses.set(status, (statuses.get(status) ?? 0) + 1);
  }
  console.log(`${lines.length} searches from ${root} written to ${out}: ${[...statuses].map(([s, n]) => `${s} ${n}`).join(', ')}`);
} finally {
  await service.stop();
}
