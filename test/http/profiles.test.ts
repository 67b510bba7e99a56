import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DescriptionCache } from '../../src/content/description-cache.ts';
import { importPeople } from '../../src/people/import.ts';
import { OUTGOING_TEXT, RESERVED_TEXT } from '../fixtures/texts.ts';
import { enterpriseService, type TestService } from '../helpers/service.ts';

let service: TestService;
let auth: { authorization: string };
let dir: string;

beforeAll(async () => {
  ({ service, auth } = await enterpriseService());
  dir = mkdtempSync(path.join(tmpdir(), 'rapport-profiles-'));
  const file = path.join(dir, 'people.jsonl');
  const people = [
    { first_name: 'Noor', last_name: 'Testperson', email: 'Noor.Testperson@Example.org', linkedin_url: 'https://www.linkedin.com/in/noor-testperson', photo_url: 'https://images.example.org/noor.jpg', texts: [{ type: 'various', text: OUTGOING_TEXT }] },
    { first_name: '<b>Ola</b>', last_name: 'O"Brien & Co', email: 'ola@example.org', texts: [{ type: 'bio', text: RESERVED_TEXT }] },
    { first_name: 'Short', last_name: 'Text', email: 'short@example.org', texts: [{ type: 'bio', text: 'Engineer. Likes tea.' }] },
    { first_name: 'Noor', last_name: 'Seller', email: 'noor.seller@example.org', title: 'Account Executive', texts: [{ type: 'various', text: OUTGOING_TEXT }] },
  ];
  writeFileSync(file, people.map((p) => JSON.stringify(p)).join('\n'));
  await importPeople(service.ctx, file);
});
afterAll(async () => {
  await service.close();
  rmSync(dir, { recursive: true, force: true });
});

function lookup(query: string) {
  return service.base.inject({ url: `/v1/profiles?${query}`, headers: auth });
}

describe('GET /v1/profiles (A1)', () => {
  it('returns the whole A1 shape for a person found by email', async () => {
    const response = await lookup('email=noor.testperson%40example.org');
    expect(response.statusCode).toBe(200);
    const { data } = response.json();
    expect(data).toMatchObject({ first_name: 'Noor', last_name: 'Testperson', photo_url: 'https://images.example.org/noor.jpg', verified: false, hiring: [] });
    expect(data.url).toMatch(/^http:\/\/localhost(:\d+)?\/p\/[\w-]+$/);
    // The map is the person's own: keyed by the page id, so it goes when the person does.
    const pageId = new URL(data.url).pathname.slice('/p/'.length);
    expect(new URL(data.images.disc_map).pathname).toBe(`/images/disc-map/p/${pageId}.svg`);
    const p = data.personalities;
    expect(p.disc_percentages.d + p.disc_percentages.i + p.disc_percentages.s + p.disc_percentages.c).toBe(100);
    expect(p.myers_briggs_type).toMatch(/^[EI][SN][TF][JP]$/);
    expect(p.enneagram_type).toMatch(/^[1-9]$/);
    expect(p.archetype.length).toBeGreaterThan(2);
    expect(data.qualities.length).toBeGreaterThanOrEqual(4);
    for (const section of ['behavior', 'motivation', 'drainer', 'communication', 'meeting', 'selling', 'working_together']) {
      expect(data.content[section].phrase.length).toBeGreaterThanOrEqual(3);
    }
    expect(data.content.recommendations.do.length).toBeGreaterThanOrEqual(3);
    expect(data.content.recommendations.dont.length).toBeGreaterThanOrEqual(3);
    const all: string[] = Object.values(data.content).flatMap((v) => Object.values(v as object)).flat();
    expect(all.some((line) => line.includes('Noor'))).toBe(true);
    expect(new Set(all).size).toBe(all.length);
  });

  it('builds links from a Host header only when it is a host name; a bad one is a 400, not a 500', async () => {
    const withPort = await service.base.inject({ url: '/v1/profiles?email=ola%40example.org', headers: { ...auth, host: 'rapport.example.com:8443' } });
    expect(withPort.json().data.url).toMatch(/^http:\/\/rapport\.example\.com:8443\/p\//);
    const ipv6 = await service.base.inject({ url: '/v1/profiles?email=ola%40example.org', headers: { ...auth, host: '[::1]:8080' } });
    expect(ipv6.json().data.url).toMatch(/^http:\/\/\[::1\]:8080\/p\//);
    const container = await service.base.inject({ url: '/v1/profiles?email=ola%40example.org', headers: { ...auth, host: 'rapport_api:8080' } });
    expect(container.json().data.url).toMatch(/^http:\/\/rapport_api:8080\/p\//);
    const qualified = await service.base.inject({ url: '/v1/profiles?email=ola%40example.org', headers: { ...auth, host: 'rapport.example.com.' } });
    expect(qualified.json().data.url).toMatch(/^http:\/\/rapport\.example\.com\/p\//);
    for (const host of ['a"b<c>', 'a b', 'evil.example/x?']) {
      const response = await service.base.inject({ url: '/v1/profiles?email=ola%40example.org', headers: { ...auth, host } });
      expect([host, response.statusCode]).toEqual([host, 400]);
      expect(response.json().error.message).toContain('Host header');
    }
    // An empty Host needs a real socket: the in-process client fills one in.
    const address = await service.base.listen({ port: 0, host: '127.0.0.1' });
    const { port } = new URL(address);
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1', () => {
        // write, not end: a half-closed socket may be dropped before a slower database answers.
        socket.write(`GET /v1/profiles?email=ola%40example.org HTTP/1.1\r\nHost:\r\nAuthorization: ${auth.authorization}\r\nConnection: close\r\n\r\n`);
      });
      let received = '';
      socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
      socket.on('end', () => resolve(received));
      socket.on('error', reject);
    });
    expect(raw).toMatch(/^HTTP\/1\.1 400/);
    expect(raw).not.toContain('http:///');
  });

  it('finds the same person by every spelling of the URL', async () => {
    const variants = [
      'http://linkedin.com/in/Noor-Testperson/?trk=x',
      'https://www.linkedin.com/in/noor-testperson',
      'https://uk.linkedin.com/in/noor%2Dtestperson/',
      'linkedin.com/in/NOOR-TESTPERSON#about',
    ];
    const ids = new Set<string>();
    for (const url of variants) {
      const response = await lookup(`linkedin_url=${encodeURIComponent(url)}`);
      expect(response.statusCode, url).toBe(200);
      ids.add(response.json().data.url);
    }
    expect(ids.size).toBe(1);
  });

  it('answers no-personality for a person with too little text, 404 for nobody, 400 with no parameter', async () => {
    expect((await lookup('email=short@example.org')).json()).toEqual({ data: null, message: 'Content did not yield a personality' });
    const missing = await lookup('email=nobody@example.org');
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error.code).toBe('not_found');
    const none = await lookup('');
    expect(none.statusCode).toBe(400);
    expect(none.json().error.code).toBe('bad_request');
    // A malformed address (here a + not URL-encoded, which arrives as a space) is the caller's mistake: 400, saying so.
    for (const email of ['not-an-email', 'ann+x@example.org']) {
      const malformed = await lookup(`email=${email}`);
      expect([malformed.statusCode, malformed.json().error.message], email).toEqual([400, 'The email given is not a valid email address (like name@example.com; URL-encode it, + as %2B).']);
    }
    // Beside a profile URL, the URL is still tried.
    const withUrl = await lookup(`email=not-an-email&linkedin_url=${encodeURIComponent('https://www.linkedin.com/in/noor-testperson')}`);
    expect(withUrl.statusCode).toBe(200);
    // A URL that cannot name anyone is the caller's mistake too: 400 alone or beside a malformed email; beside a usable email, the email is tried.
    const notAProfile = 'The linkedin_url given is not a LinkedIn profile URL (like https://www.linkedin.com/in/name).';
    for (const url of ['not a url', 'https://example.com/in/noor-testperson', 'https://www.linkedin.com/company/acme']) {
      const bad = await lookup(`linkedin_url=${encodeURIComponent(url)}`);
      expect([bad.statusCode, bad.json().error.message], url).toEqual([400, notAProfile]);
    }
    const bothBad = await lookup(`email=not-an-email&linkedin_url=${encodeURIComponent('not a url')}`);
    expect([bothBad.statusCode, bothBad.json().error.message]).toEqual([400, `The email given is not a valid email address (like name@example.com; URL-encode it, + as %2B). ${notAProfile}`]);
    expect((await lookup(`email=noor.testperson%40example.org&linkedin_url=${encodeURIComponent('not a url')}`)).statusCode).toBe(200);
    expect((await lookup(`email=nobody%40example.org&linkedin_url=${encodeURIComponent('not a url')}`)).statusCode).toBe(404);
  });

  it('requests in flight together (their lookups share statements) each get their own person or 404', async () => {
    const queries = ['email=ola%40example.org', 'email=nobody%40example.org', 'email=NOOR.TESTPERSON%40example.org', `linkedin_url=${encodeURIComponent('linkedin.com/in/noor-testperson')}`, 'email=noor.seller%40example.org', 'email=short%40example.org', 'email=ola%40example.org'];
    const answers = await Promise.all(queries.map((query) => lookup(query)));
    const seen = answers.map((response) => (response.statusCode === 200 ? (response.json().data?.last_name ?? 'no personality') : response.statusCode));
    expect(seen).toEqual(['O"Brien & Co', 404, 'Testperson', 'Testperson', 'Seller', 'no personality', 'O"Brien & Co']);
    // Their pages, asked for together, too.
    const urls: string[] = answers.filter((response) => response.json().data?.url).map((response) => new URL(response.json().data.url).pathname);
    const pages = await Promise.all([...urls, '/p/nope'].map((url) => service.base.inject({ url })));
    expect(pages.map((page) => page.statusCode)).toEqual([200, 200, 200, 200, 200, 404]);
    expect(pages.map((page) => /<h1[^>]*>([^<]*)</.exec(page.body)?.[1] ?? null)).toEqual(['&lt;b&gt;Ola&lt;/b&gt; O&quot;Brien &amp; Co', 'Noor Testperson', 'Noor Testperson', 'Noor Seller', '&lt;b&gt;Ola&lt;/b&gt; O&quot;Brien &amp; Co', 'Profile not found']);
  });

  it('the profile page shows the person, escaped, and unknown pages are 404', async () => {
    const { data } = (await lookup('email=ola@example.org')).json();
    const page = await service.base.inject({ url: new URL(data.url).pathname });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.body).toContain('&lt;b&gt;Ola&lt;/b&gt;');
    expect(page.body).not.toContain('<b>Ola</b>');
    expect(page.body).toContain('O&quot;Brien &amp; Co');
    expect(page.body).toContain(data.personalities.archetype);
    expect((await service.base.inject({ url: '/p/nope' })).statusCode).toBe(404);
  });

  it('the profile page says how much text the profile rests on and what confidence means', async () => {
    const { data } = (await lookup('email=noor.testperson@example.org')).json();
    const page = await service.base.inject({ url: new URL(data.url).pathname });
    const words = OUTGOING_TEXT.split(/\s+/).filter((w) => /[a-z]/i.test(w)).length;
    const shown = /Predicted from (\d+) words of text\. Confidence (\d+) of 100\./.exec(page.body);
    expect(shown).not.toBeNull();
    expect(Math.abs(Number(shown?.[1]) - words)).toBeLessThanOrEqual(5);
    expect(Number(shown?.[2])).toBe(data.confidence);
    expect(page.body).toContain('How sure is this profile?');
    expect(page.body).toContain('Confidence says how sure we are of where someone sits on the DISC circle');
  });

  it('the same text with a different role gets advice for that role', async () => {
    const plain = (await lookup('email=noor.testperson@example.org')).json().data;
    const seller = (await lookup('email=noor.seller@example.org')).json().data;
    expect(seller.personalities).toEqual(plain.personalities);
    const sentences = (data: { content: Record<string, { phrase?: string[] }> }) =>
      ['meeting', 'selling', 'working_together'].flatMap((s) => data.content[s]?.phrase ?? []);
    expect(sentences(seller)).not.toEqual(sentences(plain));
    expect(sentences(seller).join(' ')).toMatch(/sales|sells/);
    expect(sentences(plain).join(' ')).not.toMatch(/works in sales|sells for a living/);
  });

  it('the map is served as SVG and as PNG', async () => {
    const { data } = (await lookup('email=noor.testperson@example.org')).json();
    const svgPath = new URL(data.images.disc_map).pathname;
    const svg = await service.base.inject({ url: svgPath });
    expect(svg.body).toMatch(/^<svg/);
    const png = await service.base.inject({ url: svgPath.replace(/\.svg$/, '.png') });
    expect(png.headers['content-type']).toBe('image/png');
    expect(png.rawPayload.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect((await service.base.inject({ url: '/images/disc-map/9_9_9.svg' })).statusCode).toBe(404);
    expect((await service.base.inject({ url: '/images/disc-map/p/nope.svg' })).statusCode).toBe(404);
    // The page shows the same map as the answer links.
    const page = await service.base.inject({ url: new URL(data.url).pathname });
    expect(page.body).toMatch(new RegExp(`src="[^"]*${new URL(data.images.disc_map).pathname}"`));
  });
});

describe('profile content reused for an equal reading', () => {
  /** The answers of `urls` with content composed anew for each (a description cache of 0 entries). */
  async function composedAnew(urls: string[]): Promise<string[]> {
    const ctx = service.ctx as { descriptions: DescriptionCache };
    const cached = ctx.descriptions;
    ctx.descriptions = new DescriptionCache(() => service.ctx.content.phrases, 0);
    try {
      return await Promise.all(urls.map(async (url) => (await service.base.inject({ url, headers: auth })).body));
    } finally {
      ctx.descriptions = cached;
    }
  }

  it('answers the profile and its page byte for byte as composed anew, the second time from the cache', async () => {
    const first = await lookup('email=noor.seller%40example.org');
    const page = new URL(first.json().data.url).pathname;
    const urls = ['/v1/profiles?email=noor.seller%40example.org', '/v1/profiles?email=noor.testperson%40example.org', page];
    const hits = service.ctx.descriptions.stats.hits;
    const cached = await Promise.all(urls.map(async (url) => (await service.base.inject({ url, headers: auth })).body));
    // The profile's page shows the same reading as the profile: composed once for both.
    expect(service.ctx.descriptions.stats.hits).toBeGreaterThanOrEqual(hits + 2);
    expect(cached[2]).toContain('<html');
    expect(cached).toEqual(await composedAnew(urls));
  });
});
