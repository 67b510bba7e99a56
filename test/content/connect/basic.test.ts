import { describe, expect, it } from 'vitest';
import { composeConnectRecommendations } from '../../../src/content/connect/recommendations.ts';
import { composeRelationship, RELATIONSHIP_KEYS } from '../../../src/content/connect/relationship.ts';
import { MESSAGE_MAX_CHARS, recommendMessage } from '../../../src/content/connect/messaging.ts';
import { composeSampleEmails, SENDER_NAME_PLACEHOLDER } from '../../../src/content/connect/emails.ts';
import { AXIS, partyAt } from './helpers.ts';

describe('Connect composers, shapes', () => {
  it('recommendations have the C2 fields', () => {
    const r = composeConnectRecommendations(partyAt('Ana', AXIS.D));
    expect(r.overview).toContain('Ana');
    expect(r.qualities.length).toBeGreaterThan(0);
    for (const key of ['emailing', 'communication', 'motivations', 'behavior', 'building_trust', 'selling', 'working_together'] as const) {
      expect(r[key].overview.length).toBeGreaterThan(0);
      expect(r[key].phrases.length).toBeGreaterThan(0);
    }
  });

  it('relationships have an overview and the ten keys', () => {
    const r = composeRelationship(partyAt('Ana', AXIS.D), partyAt('Ben', AXIS.S));
    expect(r.overview).toContain('Ana');
    for (const key of RELATIONSHIP_KEYS) expect(r[key].phrases.length).toBeGreaterThan(0);
  });

  it('messaging returns offsets into the text', () => {
    const text = 'We need this ASAP.';
    const recs = recommendMessage(text, partyAt('Ana', AXIS.I), partyAt('Ben', AXIS.S));
    expect(recs.some((r) => text.slice(r.start, r.end) === 'ASAP')).toBe(true);
    expect(MESSAGE_MAX_CHARS).toBe(20_000);
  });

  it('sample emails are signed with the placeholder', () => {
    const emails = composeSampleEmails(partyAt('Ben', AXIS.C), null);
    expect(emails.length).toBeGreaterThanOrEqual(5);
    for (const e of emails) expect(e.text).toContain(SENDER_NAME_PLACEHOLDER);
  });
});
