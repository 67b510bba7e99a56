import { describe, expect, it } from 'vitest';
import { CAUTIOUS_ENGINEER_BIO, EXCITED_EVENTS_POST, SALES_LEADER_ABOUT, TERSE_EXECUTIVE_EMAIL, WARM_NURSE_EMAIL } from '../fixtures/professional-texts.ts';
import { useEnterpriseService } from '../helpers/service.ts';
import { pointAngle, traitsToPoint } from '../../src/personality/circle.ts';

const { service, auth } = useEnterpriseService();

interface StyleItem {
  term: string;
  label?: string;
  start?: number;
  end?: number;
  toward: string;
  weight: number;
}

describe('professional writing through the API', () => {
  it.each([
    ['a sales leader\'s "about"', SALES_LEADER_ABOUT, 'D'],
    ["a terse executive's email", TERSE_EXECUTIVE_EMAIL, 'D'],
    ["a warm nurse's email", WARM_NURSE_EMAIL, 'S'],
    ["a cautious engineer's bio", CAUTIOUS_ENGINEER_BIO, 'C'],
    ["an events manager's post", EXCITED_EVENTS_POST, 'I'],
  ])('reads %s on its side of the circle, with evidence phrases from the text itself', async (_name, text, style) => {
    const response = await service.base.inject({ method: 'POST', url: '/v1/analysis/text', headers: auth, payload: { text } });
    expect(response.statusCode).toBe(200);
    const { data } = response.json();
    const lookup = await service.base.inject({ url: `/v1/analysis/text?text=${encodeURIComponent(text)}`, headers: auth });
    const a2 = lookup.json().data;
    // GET and POST read the text the same way.
    expect(a2.personalities.disc_type).toBe(data.personality.disc_type);
    // The quarter of the circle the reading lands in: the traits place the point (circle.ts).
    const angle = pointAngle(traitsToPoint({ extraversion: data.traits.extraversion.score, agreeableness: data.traits.agreeableness.score }));
    expect(angle < 90 ? 'I' : angle < 180 ? 'D' : angle < 270 ? 'C' : 'S').toBe(style);
    const items = data.style_evidence as StyleItem[];
    const toward = items.filter((item) => item.weight > 0);
    expect(toward.length).toBeGreaterThanOrEqual(2);
    for (const item of items) {
      expect(text.slice(item.start ?? -1, item.end ?? -1)).toBe(item.term);
      expect(item.label).toEqual(expect.any(String));
    }
    expect(toward.some((item) => item.toward === style)).toBe(true);
  });

  it('reads a text as the kind of writing it is, or as the caller says', async () => {
    const guessed = await service.base.inject({ method: 'POST', url: '/v1/analysis/text', headers: auth, payload: { text: WARM_NURSE_EMAIL } });
    expect(guessed.json().data.read_as).toBe('email');
    const bio = await service.base.inject({ method: 'POST', url: '/v1/analysis/text?text_type=bio', headers: auth, payload: { text: CAUTIOUS_ENGINEER_BIO } });
    expect(bio.json().data.read_as).toBe('bio');
    const said = await service.base.inject({ method: 'POST', url: '/v1/analysis/text', headers: auth, payload: { text: SALES_LEADER_ABOUT, text_type: 'resume' } });
    expect(said.json().data.read_as).toBe('resume');
    const wrong = await service.base.inject({ method: 'POST', url: '/v1/analysis/text', headers: auth, payload: { text: SALES_LEADER_ABOUT, text_type: 'memo' } });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.message).toMatch(/text_type/);
  });
});
