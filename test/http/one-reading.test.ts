import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { claimsWorded } from '../../src/content/claim-wording.ts';
import { isDirectional, topicOf } from '../../src/content/claims.ts';
import { readEstimate, TENTATIVE_CONFIDENCE, type Reading } from '../../src/content/reading.ts';
import { DEMO_PEOPLE_FILE, seedDemoData } from '../../src/people/demo/seed.ts';
import { demoPeople } from '../helpers/demo-people.ts';
import { useTestService } from '../helpers/service.ts';

/**
 * One reading of a person (issue 24): the type, intensity and confidence, and the sides the
 * advice takes, are the same on every surface that shows the person: A1, A2 and A3 for the same
 * text, the profile page, and Connect's C2, C3, C4 and C5. Read through HTTP for every demo
 * person, as a customer would read them, on whichever database the suite runs on.
 */

interface DemoRow {
  first_name: string;
  email: string;
  title?: string;
  texts?: { type: string; text: string }[];
}

interface Surfaces {
  name: string;
  reading: Reading;
  a1: { type: string; intensity: number; confidence: number; text: string; tentative: boolean };
  page: { type: string; intensity: number; confidence: number };
  a2: { type: string; confidence: number; map: string };
  a3: { type: string; confidence: number; tentative: boolean };
  c2: { type: string; confidence: number; text: string; tentative: boolean; requestId: string; map: string };
}

const service = useTestService();
let bearer: { authorization: string };
let org: { 'x-org-token': string };
const surfaces: Surfaces[] = [];

/** True when the reading takes the other side of the topic this side is on. */
const against = (reading: Reading, side: string): boolean => reading.claims.some((c) => topicOf(c) === topicOf(side) && c !== side);

/** The point a DISC map URL draws (its key), whichever host serves it. */
const mapKey = (url: string): string => /\/images\/disc-map\/([^/]+)\.svg$/.exec(url)?.[1] ?? url;

const plain = (html: string): string => html.replace(/<[^>]*>/g, ' ').replaceAll('&#39;', "'").replaceAll('&quot;', '"').replaceAll('&amp;', '&');

beforeAll(async () => {
  await seedDemoData(service.ctx);
  bearer = { authorization: `Bearer ${(await service.token('enterprise')).secret}` };
  org = { 'x-org-token': (await service.token('connect')).secret };
  const rows = readFileSync(DEMO_PEOPLE_FILE, 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as DemoRow);
  const readings = new Map(demoPeople().map((p) => [p.name, readEstimate(p.estimate, p.title)]));
  for (const row of rows) {
    const reading = readings.get(row.first_name);
    if (reading === undefined) continue;
    const a1 = (await service.base.inject({ url: `/v1/profiles?email=${encodeURIComponent(row.email)}`, headers: bearer })).json().data;
    const pageHtml = (await service.base.inject({ url: new URL(a1.url as string).pathname })).body;
    // The person's texts as one labelled text: what the import read (every demo person has a bio or a resume).
    const text = (row.texts ?? []).map((t) => t.text).join('\n\n');
    const a2 = (await service.base.inject({ url: `/v1/analysis/text?text=${encodeURIComponent(text)}`, headers: bearer })).json().data;
    const a3 = (await service.base.inject({ method: 'POST', url: '/v1/analysis/text', headers: bearer, payload: { text } })).json().data;
    const c2 = (await service.connect.inject({ method: 'POST', url: '/v1/profiles', headers: org, payload: { email: row.email } })).json();
    const overview = a1.content.profile.overview as string[];
    surfaces.push({
      name: row.first_name,
      reading,
      a1: {
        type: a1.personalities.disc_type,
        intensity: a1.personalities.disc_intensity,
        confidence: a1.confidence,
        text: [...overview, ...Object.values(a1.content as Record<string, { phrase?: string[] }>).flatMap((b) => b.phrase ?? []), ...a1.content.recommendations.do, ...a1.content.recommendations.dont].join(' '),
        tentative: /tentative/.test(overview[0] ?? ''),
      },
      page: {
        type: /class="disc-code">([^<]+)</.exec(pageHtml)?.[1] ?? '',
        intensity: Number(/<span>Intensity<\/span><strong>(\d+)%/.exec(pageHtml)?.[1]),
        confidence: Number(/Confidence (\d+) of 100\./.exec(pageHtml)?.[1]),
      },
      a2: { type: a2.personalities.disc_type, confidence: a2.confidence, map: mapKey(a2.images.disc_map as string) },
      a3: { type: a3.personality.disc_type, confidence: a3.confidence, tentative: a3.tentative },
      c2: {
        type: c2.info.disc_scores.type,
        confidence: c2.info.disc_scores.confidence,
        text: plain(JSON.stringify(c2.recommendations)),
        tentative: /tentative/.test(c2.recommendations.overview as string),
        requestId: c2.request_id,
        map: mapKey(c2.info.disc_image as string),
      },
    });
  }
}, 120_000);

describe('every surface reads one person alike (the demo people, through HTTP)', () => {
  it('reads every demo person with text', () => {
    expect(surfaces.length).toBeGreaterThanOrEqual(12);
  });

  it('shows the same type on A1, the page, A2, A3 and C2', () => {
    for (const s of surfaces) {
      expect([s.page.type, s.a2.type, s.a3.type, s.c2.type], s.name).toEqual([s.a1.type, s.a1.type, s.a1.type, s.a1.type]);
      expect(s.a1.type, s.name).toBe(s.reading.type);
    }
  });

  it('shows the same intensity on A1 and the page, and the same confidence everywhere (one formula)', () => {
    for (const s of surfaces) {
      expect(s.page.intensity, s.name).toBe(s.a1.intensity);
      expect([s.page.confidence, s.a2.confidence, s.a3.confidence, s.c2.confidence], s.name).toEqual([s.a1.confidence, s.a1.confidence, s.a1.confidence, s.a1.confidence]);
      expect(s.a1.confidence, s.name).toBe(s.reading.confidence);
    }
  });

  it('draws the same point (so the same intensity and direction) on the DISC map of A2 and C2', () => {
    for (const s of surfaces) expect(s.c2.map, s.name).toBe(s.a2.map);
  });

  it('is tentative on every surface exactly where the confidence is under the threshold', () => {
    for (const s of surfaces) {
      const thin = s.a1.confidence < TENTATIVE_CONFIDENCE;
      expect([s.a1.tentative, s.a3.tentative, s.c2.tentative], s.name).toEqual([thin, thin, thin]);
    }
  });

  it('takes no side in A1 or C2 that the reading does not claim', () => {
    for (const s of surfaces) {
      for (const text of [s.a1.text, s.c2.text]) {
        for (const side of claimsWorded(text).filter((c) => isDirectional(topicOf(c)))) expect(s.reading.claims, `${s.name} ${side}`).toContain(side);
      }
    }
  });

  it('reads each person in C3, C4 and C5 as their own profile does: tentative where it is, a blend where it is, and never the other side of a claim', async () => {
    for (const [i, s] of surfaces.entries()) {
      const other = surfaces[(i + 1) % surfaces.length];
      if (other === undefined) continue;
      const c3 = (await service.connect.inject({ method: 'POST', url: `/v1/relationships/${s.c2.requestId}/${other.c2.requestId}`, headers: org })).json();
      const overview = plain(c3.overview as string);
      const thin = s.a1.confidence < TENTATIVE_CONFIDENCE;
      expect(overview.includes(`There is not much of ${s.name}'s writing`) || overview.includes(`writing from ${s.name} or`) || overview.includes(`or ${s.name} to go on`), `${s.name} C3`).toBe(thin);
      expect(overview.includes(`${s.name} has a balanced style`), `${s.name} C3`).toBe(s.reading.central);
      // What C3 says of this person alone (sentences naming them and not the other) never takes the other side of their reading.
      const sentences = [c3.overview as string, ...Object.values(c3 as Record<string, { phrases?: string[] }>).flatMap((t) => t.phrases ?? [])]
        .flatMap((html) => plain(html).split(/(?<=[.!?])\s+/))
        .filter((sentence) => sentence.includes(s.name) && !sentence.includes(other.name));
      for (const side of sentences.flatMap(claimsWorded).filter((c) => isDirectional(topicOf(c)))) expect(against(s.reading, side), `${s.name} C3 ${side}`).toBe(false);

      const draft = `Hi ${s.name}, I wanted to follow up on the rollout. Could we meet on Thursday to agree the plan? Thanks, Sam`;
      const c4 = (await service.connect.inject({ method: 'POST', url: `/v1/messaging/${other.c2.requestId}/${s.c2.requestId}`, headers: org, payload: { text: draft } })).json();
      expect(JSON.stringify(c4).includes('rapport-tentative'), `${s.name} C4`).toBe(thin);

      const c5 = (await service.connect.inject({ method: 'POST', url: `/v1/emails/${s.c2.requestId}`, headers: org })).json() as { description: string; text: string }[];
      expect(c5).toHaveLength(6);
      expect(c5[0]?.description.includes('these tips are tentative'), `${s.name} C5`).toBe(thin);
      expect(c5.some((e) => e.description.includes('no strong leaning')), `${s.name} C5`).toBe(s.reading.central);
      const tips = plain(c5.map((e) => e.description).join(' '));
      for (const side of claimsWorded(tips).filter((c) => isDirectional(topicOf(c)))) expect(against(s.reading, side), `${s.name} C5 ${side}`).toBe(false);
    }
  }, 120_000);
});
