import { describe, expect, it } from 'vitest';
import { claimsWorded } from '../../src/content/claim-wording.ts';
import { isDirectional, topicOf } from '../../src/content/claims.ts';
import { readEstimate, type Reading } from '../../src/content/reading.ts';
import { useEnterpriseService } from '../helpers/service.ts';

/**
 * The texts a customer found read as "broadly balanced" or as a person who "rarely pushes hard"
 * (issue 24), through A2 and A3 as sent. Whatever the text model reads them as, the advice follows
 * that reading: it takes no side the reading does not claim, calls nobody balanced unless the
 * reading itself is central, and is tentative exactly where the evidence is thin. The reading is
 * made by the service's own text pool, so a new model moves it and the test with it.
 */
const TEXTS = {
  founder:
    'Founder and CEO of Brightpath. I love a crowded stage and I hate losing. I pitch, I sell, I rally the team ' +
    'and I push hard until the deal is closed. Nothing beats a packed room and a round that closes early.',
  resume:
    'Sales Director. Direct, demanding, focused on winning. Built and led a team of twelve account executives; ' +
    'beat quota every year; renegotiated our three largest contracts. I set clear targets and hold people to them, ' +
    'and I expect the same of myself. Looking for a role where results are measured and the bar keeps rising.',
};

const BALANCED = /balanced|no (single|dominant|strongly dominant) style|near the centre|evenly mixed/i;

const { service, auth } = useEnterpriseService();

async function readingOf(text: string): Promise<Reading> {
  const analysis = await service.ctx.textPool.analyze(text, { evidence: true });
  if (!analysis.ok) throw new Error(`no reading: ${analysis.reason}`);
  return readEstimate(analysis.estimate);
}

describe.each(Object.entries(TEXTS))('the advice for the %s text follows its reading', (_name, text) => {
  it('in A2 and A3: the reading\'s type, sides and wording, never a centre it does not have', async () => {
    const reading = await readingOf(text);
    const a2 = (await service.base.inject({ url: `/v1/analysis/text?text=${encodeURIComponent(text)}`, headers: auth })).json().data;
    const a3 = (await service.base.inject({ method: 'POST', url: '/v1/analysis/text', headers: auth, payload: { text } })).json().data;
    expect([a2.personalities.disc_type, a3.personality.disc_type]).toEqual([reading.type, reading.type]);
    expect([a2.confidence, a3.confidence]).toEqual([reading.confidence, reading.confidence]);
    expect(a3.tentative).toBe(reading.evidence === 'thin');
    // The text itself is no weaker than what is shown: content is chosen at its own strength.
    expect(reading.strength).toBeGreaterThanOrEqual(reading.intensity);
    for (const content of [JSON.stringify(a2.content), JSON.stringify(a3.content)]) {
      for (const side of claimsWorded(content).filter((c) => isDirectional(topicOf(c)))) expect(reading.claims, side).toContain(side);
      if (!reading.central) expect(content).not.toMatch(BALANCED);
    }
  });
});
